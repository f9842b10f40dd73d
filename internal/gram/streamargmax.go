package gram

import (
	"math"
	"slices"
)

// pruneMinUpdates is the number of updates below which PrepareArgmax does
// nothing: a solve of a few blocks of L is cheap enough whole.
const pruneMinUpdates = 2 * solveBlock

// boundTol is the relative margin (of a context's largest K(x, x)/a) added
// to a partial norm before it serves as an upper bound: the norm of the
// whole solve is at most the partial one in exact arithmetic (every row of
// L removes a square), and the chains of the two differ in rounding by far
// less.
const boundTol = 1e-9

// PrepareArgmax prepares an argmax, by a walk over ctxs in this order, of
// the largest pair norm of each fresh context over the pairs ok allows (nil:
// all pairs; ok(c, a, b) for a < b): the walk of the caller takes a
// context's exact norm unless MaxPairBound shows it below the largest exact
// norm before it in the walk, which can then neither be the argmax nor tie
// with the walk's running maximum.
//
// It solves the contexts together, one block of rows of L at a time, and
// after each block bounds every context's norm by its partial solve;
// contexts whose bound falls below the largest exact norm before them in
// the walk are dropped (exact pruning: the walk would never read them), so
// that only the rows of L they need are solved for most contexts. The first
// contexts of the walk, which every walk reads, are solved at once, and so
// are, after the first block of rows, the contexts with the largest bounds,
// which most likely hold the maximum. Blocks solved here are the same bits
// as blocks solved any other way.
func (s *Stream) PrepareArgmax(ctxs []int, ok func(c, a, b int) bool) {
	t, K := len(s.ups), s.arms
	if t < pruneMinUpdates || len(ctxs) < 3 {
		return
	}
	var todo []int
	for _, c := range ctxs {
		if !s.solved[c] && s.where[c] < 0 {
			todo = append(todo, c)
			s.bound[c] = math.Inf(1) // a bound of an earlier call may be for other pairs
		}
	}
	// The first contexts of the walk (the walk reads the first one in any
	// case), then, after the first block of rows, the contexts with the
	// largest bounds: they most likely hold the maximum, which lets every
	// context after them in the walk be dropped as soon as its bound falls
	// below it.
	first := min(max(2, len(todo)/16), freshChunk/K)
	if len(todo) <= 2*first+1 {
		return
	}
	s.advance(s.newGroup(todo[:first]), t)
	g := s.newGroup(todo[first:])
	gi := s.where[todo[first]]
	bestFirst := false
	for g.depth < t && len(g.ctxs) > 0 {
		s.advance(g, min(g.depth+solveBlock, t))
		if g.depth == t {
			break
		}
		for _, c := range g.ctxs {
			s.bound[c] = s.partialBound(g, c, ok)
		}
		if !bestFirst {
			bestFirst = true
			top := slices.Clone(g.ctxs)
			slices.SortStableFunc(top, func(a, b int) int {
				ba, bb := s.bound[a], s.bound[b]
				switch {
				case ba > bb || (math.IsNaN(ba) && !math.IsNaN(bb)):
					return -1
				case ba < bb || (math.IsNaN(bb) && !math.IsNaN(ba)):
					return 1
				}
				return 0
			})
			s.advance(s.split(top[:first]), t)
			g = s.groups[gi]
		}
		// The walk: the running maximum over exact norms, in order.
		run := math.Inf(-1)
		for _, c := range ctxs {
			switch {
			case s.solved[c]:
				if v := s.exactMaxPair(c, ok); v > run {
					run = v
				}
			case s.where[c] == gi && s.bound[c] < run:
				s.where[c] = -2 // dropped below
			}
		}
		s.drop(g, func(c int) bool { return s.where[c] == -2 })
	}
}

// partialBound returns an upper bound on context c's largest pair norm
// (over the pairs ok allows) from its partial solve in g: the norm of the
// partial block K_c/a − Σ_{p<depth} r̃_p r̃_pᵀ plus boundTol of its scale;
// +Inf if that is not a number.
func (s *Stream) partialBound(g *freshGroup, c int, ok func(c, a, b int) bool) float64 {
	K := s.arms
	i := 0
	for g.ctxs[i] != c {
		i++
	}
	kq, rr := g.kq[i*K*K:(i+1)*K*K], g.rr[i*K*K:(i+1)*K*K]
	inv := 1 / s.reg
	scale, best := 0.0, math.Inf(-1)
	for a := range K {
		scale = max(scale, kq[a*K+a]*inv)
		for b := a + 1; b < K; b++ {
			if ok != nil && !ok(c, a, b) {
				continue
			}
			qa, qb, qab := kq[a*K+a]*inv-rr[a*K+a], kq[b*K+b]*inv-rr[b*K+b], kq[a*K+b]*inv-rr[a*K+b]
			v := qa + qb - 2*qab
			if math.IsNaN(v) {
				return math.Inf(1)
			}
			best = max(best, v)
		}
	}
	return best + boundTol*scale
}

// exactMaxPair returns the largest pair norm of solved context c over the
// pairs ok allows, clamped at 0; −Inf if none is allowed or it is not a
// number.
func (s *Stream) exactMaxPair(c int, ok func(c, a, b int) bool) float64 {
	K := s.arms
	q := s.q[c*K*K : (c+1)*K*K]
	best := math.Inf(-1)
	for a := range K {
		for b := a + 1; b < K; b++ {
			if ok != nil && !ok(c, a, b) {
				continue
			}
			if v := q[a*K+a] + q[b*K+b] - 2*q[a*K+b]; v > best {
				best = v
			}
		}
	}
	if math.IsInf(best, -1) {
		return best
	}
	return max(best, 0)
}

// MaxPairBound returns an upper bound on fresh context c's largest pair
// norm over the pairs of the last PrepareArgmax (+Inf if it has none) and
// whether c is solved (then the bound is not needed: Block is exact).
func (s *Stream) MaxPairBound(c int) (bound float64, exact bool) {
	return s.bound[c], s.solved[c]
}
