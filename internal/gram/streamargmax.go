package gram

import "math"

// pruneMinUpdates is the number of updates below which PrepareArgmax does
// nothing: a solve of a few blocks of L is cheap enough whole.
const pruneMinUpdates = 2 * solveBlock

// boundTol is the relative margin (of a context's largest K(x, x)/a) added
// to a partial norm before it serves as an upper bound: the norm of the
// whole solve is at most the partial one in exact arithmetic (every row of
// L removes a square), and the chains of the two differ in rounding by far
// less.
const boundTol = 1e-9

// panelRows bounds the fresh rows of a panel of PrepareArgmax: the panel's
// partial solve (t × panelRows values) stays in the second-level cache while
// it is solved block after block.
const panelRows = 128

// PrepareArgmax prepares an argmax, by a walk over ctxs in this order, of
// the largest pair norm of each fresh context over the pairs ok allows (nil:
// all pairs; ok(c, a, b) for a < b): the walk of the caller takes a
// context's exact norm unless MaxPairBound shows it below the largest exact
// norm before it in the walk, which can then neither be the argmax nor tie
// with the walk's running maximum.
//
// The contexts are split into panels of consecutive contexts of the walk
// (the first panels of 1, 2, 4, … contexts, so that the first contexts of
// the walk get exact norms early for those after them), and each panel
// solves one block of rows of L, which bounds every context's norm from
// above by its partial solve. The context with the largest bound, which
// most likely holds the maximum, is then solved through (anew), and the
// panels one after the other in the walk's order, block by block: after
// each block, the contexts whose bound falls below the largest exact norm
// before them in the walk are dropped (exact pruning: the walk would never
// read them), so that most contexts are solved over only part of the rows
// of L. A panel is small enough to stay in cache while it is solved
// through. Blocks solved here are the same bits as blocks solved any other
// way.
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
	if len(todo) <= 5 { // solved one by one as the walk reads them
		return
	}
	// The first block of rows of every context, in panels.
	step := max(1, panelRows/K)
	var panels []*freshGroup
	for i, size := 0, 1; i < len(todo); size *= 2 {
		n := min(size, step, len(todo)-i)
		g := s.newGroup(todo[i : i+n])
		i += n
		s.advance(g, solveBlock) // solveBlock < t
		for _, c := range g.ctxs {
			s.bound[c] = s.partialBound(g, c, ok)
		}
		panels = append(panels, g)
	}
	// The context with the largest bound (the first of the walk among
	// equal ones; a bound that is not a number counts as the largest).
	top := todo[0]
	for _, c := range todo[1:] {
		if b, bt := s.bound[c], s.bound[top]; b > bt || (math.IsNaN(b) && !math.IsNaN(bt)) {
			top = c
		}
	}
	g := s.groups[s.where[top]]
	s.drop(g, func(c int) bool { return c == top })
	s.advance(s.newGroup([]int{top}), t)
	// The panels in turn, each solved through or dropped context by
	// context, against the running maximum of the walk before each context
	// (over exact norms; it grows as panels are solved).
	w := newWalk(s, ctxs, ok)
	for _, g := range panels {
		w.update()
		for len(g.ctxs) > 0 {
			s.drop(g, func(c int) bool { return s.bound[c] < w.before[c] })
			if len(g.ctxs) == 0 {
				break
			}
			s.advance(g, min(g.depth+solveBlock, t))
			if g.depth == t {
				break
			}
			for _, c := range g.ctxs {
				s.bound[c] = s.partialBound(g, c, ok)
			}
		}
	}
}

// argmaxWalk follows the walk of PrepareArgmax's caller over the exact
// norms of the contexts solved so far: after update, before[c] is the
// largest of them before c's first place in ctxs (−Inf if none), below which
// c's bound lets the walk skip c.
type argmaxWalk struct {
	s      *Stream
	ctxs   []int
	ok     func(c, a, b int) bool
	exact  []float64 // per fresh context: exactMaxPair once solved, NaN before
	before []float64 // per fresh context
}

func newWalk(s *Stream, ctxs []int, ok func(c, a, b int) bool) *argmaxWalk {
	w := &argmaxWalk{s: s, ctxs: ctxs, ok: ok, exact: make([]float64, s.contexts), before: make([]float64, s.contexts)}
	for c := range w.exact {
		w.exact[c] = math.NaN()
	}
	return w
}

// update recomputes before from the contexts solved now.
func (w *argmaxWalk) update() {
	for c := range w.before {
		w.before[c] = math.NaN() // not placed yet
	}
	run := math.Inf(-1)
	for _, c := range w.ctxs {
		if math.IsNaN(w.before[c]) {
			w.before[c] = run
		}
		if !w.s.solved[c] {
			continue
		}
		if math.IsNaN(w.exact[c]) {
			w.exact[c] = w.s.exactMaxPair(c, w.ok) // never NaN
		}
		run = max(run, w.exact[c])
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
