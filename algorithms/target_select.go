package algorithms

import (
	"math"

	"github.com/neural-adb/nadb/internal/gemm"
)

// tgCand is a candidate context: block i of set (the target sample or the
// round's other candidates) holding pool context ctx.
type tgCand struct {
	set *tgBlocks
	i   int
	ctx int
}

// tgDuel is a candidate duel: arms a, b of candidate k.
type tgDuel struct {
	k    int
	a, b int
}

// Select implements Learner: up to Candidates offered contexts (from the
// target sample where it is on offer), a random duel with probability
// Explore, else the candidate duel of the largest expected reduction of
// the objective's loss on the targets (target_doc.go).
func (l *NeuralADBTarget) Select(o Offer) Query {
	l.ready()
	l.observeFresh()
	cands := l.candidates(o)
	if eps := l.explore(); eps > 0 && l.rng.Float64() < eps {
		c := cands[l.rng.IntN(len(cands))].ctx
		a, b := o.RandomPair(c, l.pool.Arms, l.rng)
		return Query{Context: c, Arm1: a, Arm2: b}
	}
	var duels []tgDuel
	if l.obj == ObjectivePolicy {
		duels = l.policyDuels(cands, o)
	} else {
		duels = l.predictDuels(cands, o, false)
		if len(duels) == 0 {
			duels = l.predictDuels(cands, o, true)
		}
	}
	if len(duels) == 0 { // unreachable for a valid offer
		return o.RandomQuery(l.pool, l.rng)
	}
	scores := l.acquire(cands, duels)
	j := ArgmaxRand(scores, -1, l.rng)
	d := duels[j]
	q := Query{Context: cands[d.k].ctx, Arm1: d.a, Arm2: d.b}
	l.ruled[q]++
	return q
}

// candidates returns up to Candidates offered contexts: uniformly among the
// target sample's offered contexts, topped up with uniformly drawn offered
// contexts outside it (whose state is computed now, in l.cand).
func (l *NeuralADBTarget) candidates(o Offer) []tgCand {
	p := l.pool
	n := l.opt.Candidates
	offered := func(c int) bool {
		return c < p.Contexts && (o.Contexts == nil || containsSorted(o.Contexts, c))
	}
	var in []int
	for i, c := range l.tgt.ctx {
		if c >= 0 && offered(c) {
			in = append(in, i)
		}
	}
	// A partial Fisher–Yates shuffle draws min(n, len(in)) of them.
	for k := 0; k < len(in) && k < n; k++ {
		j := k + l.rng.IntN(len(in)-k)
		in[k], in[j] = in[j], in[k]
	}
	in = in[:min(n, len(in))]
	cands := make([]tgCand, 0, n)
	for _, i := range in {
		cands = append(cands, tgCand{set: l.tgt, i: i, ctx: l.tgt.ctx[i]})
	}
	l.cand.reset()
	if len(cands) < n {
		var rest []int
		for _, c := range o.ContextList(p, nil) {
			if l.tgt.find(c) < 0 {
				rest = append(rest, c)
			}
		}
		for k := 0; k < len(rest) && len(cands) < n; k++ {
			j := k + l.rng.IntN(len(rest)-k)
			rest[k], rest[j] = rest[j], rest[k]
			c := rest[k]
			cands = append(cands, tgCand{set: l.cand, i: l.cand.n(), ctx: c})
			l.cand.add(c, l.contextRows(c))
		}
		if l.cand.n() > 0 {
			l.post.fill(l.cand, l.model, l.obj == ObjectivePolicy)
		}
	}
	return cands
}

// policyDuels returns one duel per candidate context: the greedy first arm
// and the second arm of the largest expected improvement over it (as
// neural-adb-plus).
func (l *NeuralADBTarget) policyDuels(cands []tgCand, o Offer) []tgDuel {
	K := l.pool.Arms
	vals := make([]float64, K)
	nu := math.Sqrt(l.post.nu2)
	var out []tgDuel
	for k, cd := range cands {
		h := cd.set.h[cd.i*K : (cd.i+1)*K]
		copy(vals, h)
		o.MaskFirstArm(cd.ctx, vals)
		a1 := ArgmaxRand(vals, -1, l.rng)
		if math.IsInf(vals[a1], -1) {
			continue
		}
		for b := range K {
			vals[b] = finiteOrLowest(plusEI(h[b]-h[a1], nu*math.Sqrt(cd.set.var2(cd.i, a1, b))))
		}
		o.MaskSecondArm(cd.ctx, a1, vals)
		a2 := ArgmaxRand(vals, a1, l.rng)
		if a2 < 0 || math.IsInf(vals[a2], -1) {
			continue
		}
		out = append(out, tgDuel{k: k, a: a1, b: a2})
	}
	return out
}

// predictDuels returns, per candidate context, the PairsPerContext allowed
// pairs of the largest own information ½ log(1 + ν̂² κ ψᵀΣψ), κ the Fisher
// weight of the pair's margin; pairs asked before are left out unless
// repeats.
func (l *NeuralADBTarget) predictDuels(cands []tgCand, o Offer, repeats bool) []tgDuel {
	K := l.pool.Arms
	type scored struct {
		a, b int
		v    float64
	}
	var out []tgDuel
	var ps []scored
	for k, cd := range cands {
		ps = ps[:0]
		hp := cd.set.hp[cd.i*K : (cd.i+1)*K]
		asked := l.asked[cd.ctx]
		for a := range K {
			for b := a + 1; b < K; b++ {
				if !o.Allows(cd.ctx, a, b) || !repeats && wasAsked(asked, a*K+b) {
					continue
				}
				v := l.post.nu2 * l.candKappa(hp[a]-hp[b]) * cd.set.var2(cd.i, a, b)
				ps = append(ps, scored{a, b, finiteOrLowest(v)})
			}
		}
		// The first PairsPerContext of ps in decreasing v, ties in pair
		// order (those a stable sort puts first), by repeated selection.
		for range min(len(ps), l.opt.PairsPerContext) {
			best := 0
			for i := 1; i < len(ps); i++ {
				if ps[i].v > ps[best].v {
					best = i
				}
			}
			out = append(out, tgDuel{k: k, a: ps[best].a, b: ps[best].b})
			ps = append(ps[:best], ps[best+1:]...)
		}
	}
	return out
}

// acquire returns the acquisition value of every candidate duel: the
// knowledge gradient of the policy on the target contexts
// (ObjectivePolicy) or the expected information about the target duels'
// answers (ObjectivePredict).
func (l *NeuralADBTarget) acquire(cands []tgCand, duels []tgDuel) []float64 {
	t := l.tgt
	K, m := l.pool.Arms, l.post.m
	nu2 := l.post.nu2
	out := l.scores[:0]
	if t.n() == 0 { // no target yet: the duels' own uncertainty
		for _, du := range duels {
			cd := cands[du.k]
			out = append(out, cd.set.var2(cd.i, du.a, du.b))
		}
		l.scores = out
		return out
	}
	// ObjectivePredict's per-target terms: ν̂²v_p + 1/κ_p.
	// (1/κ_p from the last fill: the scores hp change only there.)
	var tden []float64
	if l.obj != ObjectivePolicy {
		tden = resize(l.tden, len(l.tpairs))
		l.tden = tden
		for p, tp := range l.tpairs {
			tden[p] = nu2*t.var2(int(tp[0]), int(tp[1]), int(tp[2])) + l.tinvk[p]
		}
	}
	// β_jt = ψ_jᵀΣz_t for every candidate duel j and target row t that S
	// keeps: one product of the duels' ψ with S (each entry one chain over
	// the m terms, whichever columns are kept).
	M := len(duels)
	psis := resize(l.psiBuf, M*m)
	l.psiBuf = psis
	for j, du := range duels {
		cd := cands[du.k]
		set, i := cd.set, cd.i
		za, zb := set.z[(i*K+du.a)*m:(i*K+du.a+1)*m], set.z[(i*K+du.b)*m:(i*K+du.b+1)*m]
		for r := range m {
			psis[j*m+r] = za[r] - zb[r]
		}
	}
	Rs := t.sCols()
	betas := resize(l.beta, M*Rs)
	l.beta = betas
	gemm.MulTo(betas, psis, t.s, M, m, Rs)
	bs := make([]float64, K)
	var tbest []int // ObjectivePolicy: each target context's plusArgmax
	if l.obj == ObjectivePolicy {
		if l.ws.keys == nil {
			l.ws.keys = new([16]int64)
		}
		tbest = make([]int, t.n())
		for c := range tbest {
			tbest[c] = plusArgmax(t.h[c*K : (c+1)*K])
		}
	}
	// ObjectivePredict: the logarithms of the previous duel, not yet
	// summed (prev), its place in out, count and partial sum.
	var prev []float64
	prevAt, prevN, prevTotal := -1, 0, 0.0
	for j, du := range duels {
		cd := cands[du.k]
		set, i := cd.set, cd.i
		beta := betas[j*Rs : (j+1)*Rs]
		s := set.var2(i, du.a, du.b)
		kj := plusDsigmoid(set.hp[i*K+du.a] - set.hp[i*K+du.b])
		if l.obj != ObjectivePolicy {
			kj = l.candKappa(set.hp[i*K+du.a] - set.hp[i*K+du.b])
		}
		den := nu2*s + 1/kj
		if l.obj == ObjectivePolicy {
			scale := nu2 / math.Sqrt(den)
			if l.opt.PlusNoise {
				scale = math.Sqrt(nu2) / math.Sqrt(s+1/kj)
			}
			// Σ_c plusKG over the target contexts in order, deferred
			// (kgScratch.add): the normal losses of many envelope
			// segments at once, the same bits. plusKG is +0 unless an arm
			// other than the best passes kgPass (its envelope has one
			// line), and a sum from +0 is unchanged by +0 terms: those
			// contexts are left out.
			// Up to kgNetArms arms, the test and the slope keys of
			// kgSortNet are one gemm.SlopeKeys call (best always passes,
			// so n < 2 is tgSlopes' false) and tgKGAdd sorts from them.
			out = append(out, 0)
			for c := range t.n() {
				mu := t.h[c*K : (c+1)*K]
				best := tbest[c]
				if K <= kgNetArms {
					tgScale(bs, beta[c*K:(c+1)*K], scale)
					n := gemm.SlopeKeys(l.ws.keys, mu, bs, best)
					if n < 2 {
						continue
					}
					tgKGAdd(&l.ws, len(out)-1, mu, bs, n)
				} else {
					if !tgSlopes(bs, mu, beta[c*K:(c+1)*K], scale, best) {
						continue
					}
					l.ws.add(len(out)-1, mu, bs, best)
				}
				if l.ws.full() {
					l.ws.flush(out)
				}
			}
			continue
		}
		// Σ_p −½ log(1 − ρ_p²) over the target duels in order, the
		// logarithms of all of them at once (gemm.Log1p: math.Log1p's bits).
		// The target duels of the candidate's own block are left out
		// (unless OwnContext): the others in order, between them. The
		// previous duel's sum (a chain of dependent subtractions) runs
		// alongside these arguments, term by term in the same order.
		args := resize(l.lnArg, len(l.tpairs))
		l.lnArg = args
		var skip []int32
		if !l.opt.OwnContext && set == t {
			skip = l.bpair[l.bptr[i]:l.bptr[i+1]]
		}
		n, lo := 0, 0
		for _, e := range skip {
			k, used := tgRhoArgs(args[n:], beta, l.tpa[lo:e], l.tpb[lo:e], tden[lo:e], nu2, den, prev, &prevTotal)
			n, prev = n+k, prev[used:]
			lo = int(e) + 1
		}
		k, used := tgRhoArgs(args[n:], beta, l.tpa[lo:], l.tpb[lo:], tden[lo:], nu2, den, prev, &prevTotal)
		n, prev = n+k, prev[used:]
		if prevAt >= 0 {
			out[prevAt] = tgSumLogs(prevTotal, prev) / float64(max(prevN, 1))
		}
		args = args[:n]
		logs := resize(l.lnVal, n)
		gemm.Log1p(logs, args)
		l.lnVal, l.lnPrev = l.lnPrev, logs
		prev, prevAt, prevN, prevTotal = logs, len(out), n, 0
		out = append(out, 0)
	}
	if prevAt >= 0 {
		out[prevAt] = tgSumLogs(prevTotal, prev) / float64(max(prevN, 1))
	}
	l.ws.flush(out)
	l.scores = out
	return out
}

// tgSlopes writes the slopes bs[a] = scale·beta[a] and reports whether an
// arm other than best passes kgPass for the lines mu[a] + bs[a]·z. Best's
// own test, mu[best] − mu[best] < 8·|bs[best] − bs[best]|, is false for
// every value (0 < 0, or NaN), so every arm is tested alike.
func tgSlopes(bs, mu, beta []float64, scale float64, best int) bool {
	bs, beta = bs[:len(mu)], beta[:len(mu)]
	mb, bb := mu[best], scale*beta[best]
	pass := false
	for a, v := range beta {
		x := scale * v
		bs[a] = x
		if mb-mu[a] < 8*math.Abs(x-bb) {
			pass = true
		}
	}
	return pass
}

// tgScale writes bs[a] = scale·beta[a].
func tgScale(bs, beta []float64, scale float64) {
	bs = bs[:len(beta)]
	for a, v := range beta {
		bs[a] = scale * v
	}
}

// tgRhoArgs writes −min(ρ_p², 1 − 1e−12) of the target duels with columns
// ca, cb and terms tden into dst (ρ_p² = c²/(den·tden_p),
// c = ν̂²(β_a − β_b)) and returns how many; alongside, it subtracts
// ½·prev[k] from *total for the first k < min(len(ca), len(prev)) in turn,
// and returns how many (tgSumLogs' steps).
func tgRhoArgs(dst, beta []float64, ca, cb []int32, tden []float64, nu2, den float64, prev []float64, total *float64) (int, int) {
	n := len(ca)
	dst, cb, tden = dst[:n], cb[:n], tden[:n]
	used := min(n, len(prev))
	prev = prev[:used]
	t := *total
	for p, v := range prev {
		c := nu2 * (beta[ca[p]] - beta[cb[p]])
		rho2 := c * c / (den * tden[p])
		dst[p] = -min(rho2, 1-1e-12)
		t -= 0.5 * v
	}
	*total = t
	for p := used; p < n; p++ {
		c := nu2 * (beta[ca[p]] - beta[cb[p]])
		rho2 := c * c / (den * tden[p])
		dst[p] = -min(rho2, 1-1e-12)
	}
	return n, used
}

// tgSumLogs returns total − ½·v for the values v of logs in turn.
func tgSumLogs(total float64, logs []float64) float64 {
	for _, v := range logs {
		total -= 0.5 * v
	}
	return total
}

// explore returns the probability of a random duel this round (Explore,
// or the Warmup schedule).
func (l *NeuralADBTarget) explore() float64 {
	n, m := float64(len(l.model.duels)+len(l.pendRows)), float64(l.post.m)
	switch l.opt.Warmup {
	case "decay":
		return max(l.opt.Explore, m/(m+n))
	case "burn-in":
		if n < m {
			return 1
		}
	case "burn-decay":
		return min(1, max(l.opt.Explore, m/n))
	}
	return l.opt.Explore
}

// candKappa is the precision of a candidate's answer under ObjectivePredict:
// μ'(margin), or 1/4 with FlatNoise.
func (l *NeuralADBTarget) candKappa(margin float64) float64 {
	if l.opt.FlatNoise {
		return 0.25
	}
	return plusDsigmoid(margin)
}
