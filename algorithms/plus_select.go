package algorithms

import "math"

// plusArms chooses the duel inside context c among the pairs o allows: the
// greedy first arm a1 = argmax_a h̄ (among arms with an allowed partner) and
// the second arm with the largest expected improvement over it under the
// posterior, E[(h̃_b − h̃_a1)⁺] with h̃_b − h̃_a1 ~ N(h̄_b − h̄_a1, ν̂²σ²). It
// returns that expected improvement too; ok is false if the context has no
// allowed pair.
func (l *NeuralADBPlus) plusArms(c int, o Offer) (a1, a2 int, ei float64, ok bool) {
	K := l.pool.Arms
	h := l.model.H()[c*K : (c+1)*K]
	vals := l.armScratch[:K]
	copy(vals, h)
	o.MaskFirstArm(c, vals)
	a1 = ArgmaxRand(vals, -1, l.rng)
	if math.IsInf(vals[a1], -1) {
		return 0, 0, 0, false
	}
	nu := math.Sqrt(l.post.nu2)
	for b := range K {
		vals[b] = finiteOrLowest(plusEI(h[b]-h[a1], nu*math.Sqrt(l.post.var2(c, a1, b))))
	}
	o.MaskSecondArm(c, a1, vals)
	a2 = ArgmaxRand(vals, a1, l.rng)
	if a2 < 0 || math.IsInf(vals[a2], -1) {
		return 0, 0, 0, false
	}
	return a1, a2, vals[a2], true
}

// finiteOrLowest returns v, or the lowest finite number if v is NaN, so
// that an argmax never prefers a masked (−∞) arm to an allowed one.
func finiteOrLowest(v float64) float64 {
	if math.IsNaN(v) {
		return -math.MaxFloat64
	}
	return v
}

// selectFrom chooses the next query among the candidate contexts cands
// (each with an allowed pair of o): with probability Options.Explore a
// random duel, else the duel of plusArms in each candidate context, and
// among those the one of the largest knowledge gradient (Options.KG) or of
// the largest own expected improvement.
func (l *NeuralADBPlus) selectFrom(cands []int, o Offer) Query {
	if l.opt.Explore > 0 && l.rng.Float64() < l.opt.Explore {
		return l.randomDuel(cands, o)
	}
	var qs [][3]int
	scores := l.ctxScratch[:0]
	for _, c := range cands {
		a1, a2, ei, ok := l.plusArms(c, o)
		if !ok {
			continue
		}
		qs = append(qs, [3]int{c, a1, a2})
		scores = append(scores, ei)
	}
	if len(qs) == 0 { // unreachable for a valid offer; ask something allowed
		return o.RandomQuery(l.pool, l.rng)
	}
	if l.opt.KG {
		scores = l.knowledgeGradient(scores[:0], qs, true)
	}
	l.ctxScratch = scores
	q := qs[ArgmaxRand(scores, -1, l.rng)]
	return Query{Context: q[0], Arm1: q[1], Arm2: q[2]}
}

// randomDuel returns a uniformly random allowed pair (a < b) of a uniformly
// random candidate context.
func (l *NeuralADBPlus) randomDuel(cands []int, o Offer) Query {
	c := cands[l.rng.IntN(len(cands))]
	K := l.pool.Arms
	n := 0
	for a := range K {
		for b := a + 1; b < K; b++ {
			if o.Allows(c, a, b) {
				n++
			}
		}
	}
	k := l.rng.IntN(n)
	for a := range K {
		for b := a + 1; b < K; b++ {
			if o.Allows(c, a, b) {
				if k == 0 {
					return Query{Context: c, Arm1: a, Arm2: b}
				}
				k--
			}
		}
	}
	panic("algorithms: unreachable")
}
