package gram

import (
	"fmt"
	"math"
	"slices"

	"github.com/neural-adb/nadb/internal/gemm"
)

// freshChunk bounds the number of fresh rows solved together (their
// right-hand sides are t × freshChunk); their kernel entries against the
// committed rows are computed kernelRows rows at a time, so that the scratch
// (kernelRows × len(refs)) stays in cache while it is read.
const (
	freshChunk = 128
	kernelRows = 48
)

// A freshGroup is a set of fresh contexts whose right-hand sides are solved
// together: the columns of one t × m matrix w (row p at w[p·m:], m =
// len(ctxs)·Arms, the columns of context ctxs[i] at i·Arms). Rows below
// depth hold −r̃ (solved), rows from depth to filled the right-hand side
// b = (1/√a) Ψᵀφ (kernel entries), rows from filled on nothing yet. rr holds,
// per context, the chains Σ_{p<depth} w_pa·w_pb of R_c R_cᵀ so far, and kq
// the entries K(x, y) of the context's rows (FreshTo).
type freshGroup struct {
	ctxs          []int
	depth, filled int
	done          bool // the blocks are set
	w             []float64
	rr, kq        []float64
}

func (g *freshGroup) cols(K int) int { return len(g.ctxs) * K }

// invalidate discards every fresh block and partial solve (V or the fresh
// rows changed) and sizes the storage of the round.
func (s *Stream) invalidate() {
	s.solved = s.solved[:0]
	s.nsolved = 0
	s.where = s.where[:0]
	s.bound = s.bound[:0]
	for range s.contexts {
		s.solved = append(s.solved, false)
		s.where = append(s.where, -1)
		s.bound = append(s.bound, math.Inf(1))
	}
	K := s.arms
	s.q = resize(s.q, s.contexts*K*K)
	for _, g := range s.groups {
		s.spare = append(s.spare, g.w)
	}
	s.groups = s.groups[:0]
	s.rowsOK = false
}

// resize returns x with length n, reallocated with room for growth by a
// quarter when its capacity is short: the storage of the round grows with t,
// by a little every update.
func resize(x []float64, n int) []float64 {
	if cap(x) < n {
		return make([]float64, n, n+n/4)
	}
	return x[:n]
}

// newGroup starts the solve of the fresh contexts ctxs (none of them in a
// group or solved).
func (s *Stream) newGroup(ctxs []int) *freshGroup {
	K, t := s.arms, len(s.ups)
	g := &freshGroup{ctxs: append([]int(nil), ctxs...)}
	m := g.cols(K)
	g.w = s.storage(t * m)
	g.rr = make([]float64, len(ctxs)*K*K)
	g.kq = make([]float64, len(ctxs)*K*K)
	idx := int32(len(s.groups))
	for i, c := range ctxs {
		s.where[c] = idx
		s.k.FreshTo(g.kq[i*K*K:(i+1)*K*K], c*K, (c+1)*K)
	}
	s.groups = append(s.groups, g)
	return g
}

// storage returns n values for a group's matrix: the smallest spare buffer
// of past groups that holds them, else a new one (and the largest spare
// buffer too small for it is let go: the matrix of the group it outgrew, so
// that the spares do not pile up as t grows).
func (s *Stream) storage(n int) []float64 {
	fit, small := -1, -1
	for i, b := range s.spare {
		if cap(b) >= n && (fit < 0 || cap(b) < cap(s.spare[fit])) {
			fit = i
		}
		if cap(b) < n && (small < 0 || cap(b) > cap(s.spare[small])) {
			small = i
		}
	}
	take := func(i int) []float64 {
		b := s.spare[i]
		s.spare[i] = s.spare[len(s.spare)-1]
		s.spare = s.spare[:len(s.spare)-1]
		return b
	}
	if fit >= 0 {
		return take(fit)[:n]
	}
	if small >= 0 {
		take(small)
	}
	return make([]float64, n, n+n/4)
}

// fill computes the right-hand sides of rows [g.filled, d1) of g: b_x[p] =
// (K(x, i_p) − K(x, j_p))/√a (or K(x, i_p)/√a) from the kernel entries of
// g's fresh rows, kernelRows at a time, against the committed rows the
// updates p name. A kernel that can read consecutive fresh rows in place
// (rangeKernel) is asked for runs of consecutive contexts, so that their
// signals are not gathered first; the entries are the same bits.
func (s *Stream) fill(g *freshGroup, d1 int) {
	p0 := g.filled
	if d1 <= p0 {
		return
	}
	K := s.arms
	m := g.cols(K)
	// The slots of refs the updates name, as one range.
	lo, hi := len(s.refs), 0
	for _, u := range s.ups[p0:d1] {
		lo, hi = min(lo, u.si), max(hi, u.si+1)
		if u.sj >= 0 {
			lo, hi = min(lo, u.sj), max(hi, u.sj+1)
		}
	}
	n := hi - lo
	inv := 1 / math.Sqrt(s.reg)
	step := max(1, kernelRows/K)
	rk, inPlace := s.k.(rangeKernel)
	for i0, i1 := 0, 0; i0 < len(g.ctxs); i0 = i1 {
		// Up to step contexts; consecutive ones only when the kernel can
		// read their rows in place.
		i1 = i0 + 1
		for i1 < min(i0+step, len(g.ctxs)) && (!inPlace || g.ctxs[i1] == g.ctxs[i1-1]+1) {
			i1++
		}
		kx := s.buf((i1 - i0) * K * n)
		if inPlace {
			rk.CrossRangeTo(kx, g.ctxs[i0]*K, g.ctxs[i1-1]*K+K, s.refs, lo, hi)
		} else {
			s.xrows = s.xrows[:0]
			for _, c := range g.ctxs[i0:i1] {
				for a := range K {
					s.xrows = append(s.xrows, c*K+a)
				}
			}
			s.k.CrossRowsTo(kx, s.xrows, s.refs, lo, hi)
		}
		for p := p0; p < d1; p++ {
			u := s.ups[p]
			wp := g.w[p*m+i0*K : p*m+i1*K]
			a := u.si - lo
			if u.sj < 0 {
				for y := range wp {
					wp[y] = kx[y*n+a] * inv
				}
				continue
			}
			b := u.sj - lo
			for y := range wp {
				wp[y] = (kx[y*n+a] - kx[y*n+b]) * inv
			}
		}
	}
	g.filled = d1
}

// advance solves rows [g.depth, d1) of every column of g (d1 a multiple of
// solveBlock, or t), continues the chains of R_c R_cᵀ over them and, at
// d1 = t, sets the blocks of g's contexts.
func (s *Stream) advance(g *freshGroup, d1 int) {
	t, K := len(s.ups), s.arms
	if d0 := g.depth; d1 > d0 {
		m := g.cols(K)
		s.fill(g, d1)
		forwardColsRange(g.w, d0, d1, m, s.l, s.ld)
		for i := range g.ctxs {
			gemm.AddTransMulStridedTo(g.rr[i*K*K:(i+1)*K*K], K, g.w[d0*m+i*K:], m, g.w[d0*m+i*K:], m, K, d1-d0, K)
		}
		g.depth = d1
	}
	if g.depth < t || g.done {
		return
	}
	g.done = true
	inv := 1 / s.reg
	for i, c := range g.ctxs {
		q := s.q[c*K*K : (c+1)*K*K]
		kq, rr := g.kq[i*K*K:(i+1)*K*K], g.rr[i*K*K:(i+1)*K*K]
		for j, v := range kq {
			q[j] = v*inv - rr[j]
		}
		s.solved[c] = true
		s.nsolved++
	}
}

// drop removes from g the contexts for which gone is true (their partial
// solves are discarded: a later request solves them anew, to the same bits),
// moving the remaining columns left.
func (s *Stream) drop(g *freshGroup, gone func(c int) bool) {
	K := s.arms
	m := g.cols(K)
	keep := g.ctxs[:0]
	var from []int
	for i, c := range g.ctxs {
		if gone(c) {
			s.where[c] = -1
			continue
		}
		from = append(from, i)
		keep = append(keep, c)
	}
	if len(keep) == m/K {
		return
	}
	// The kept columns as runs of consecutive contexts: n contexts from
	// old place i to new place j, moved with one copy per row.
	type run struct{ i, j, n int }
	var runs []run
	for j, i := range from {
		if l := len(runs) - 1; l >= 0 && runs[l].i+runs[l].n == i {
			runs[l].n++
			continue
		}
		runs = append(runs, run{i, j, 1})
	}
	m2 := len(keep) * K
	for p := range g.filled {
		src, dst := g.w[p*m:(p+1)*m], g.w[p*m2:(p+1)*m2]
		for _, r := range runs {
			copy(dst[r.j*K:(r.j+r.n)*K], src[r.i*K:(r.i+r.n)*K])
		}
	}
	for j, i := range from {
		copy(g.rr[j*K*K:(j+1)*K*K], g.rr[i*K*K:(i+1)*K*K])
		copy(g.kq[j*K*K:(j+1)*K*K], g.kq[i*K*K:(i+1)*K*K])
	}
	g.ctxs = keep
	g.w = g.w[:len(s.ups)*m2]
	g.rr, g.kq = g.rr[:len(keep)*K*K], g.kq[:len(keep)*K*K]
}

// split moves the contexts cs, all of one group, out of it into a group of
// their own, with their partial solves, and returns the new group.
func (s *Stream) split(cs []int) *freshGroup {
	K, t := s.arms, len(s.ups)
	g := s.groups[s.where[cs[0]]]
	m := g.cols(K)
	ng := &freshGroup{ctxs: append([]int(nil), cs...), depth: g.depth, filled: g.filled}
	m2 := ng.cols(K)
	ng.w = s.storage(t * m2)
	ng.rr = make([]float64, len(cs)*K*K)
	ng.kq = make([]float64, len(cs)*K*K)
	move := make(map[int]bool, len(cs))
	for j, c := range cs {
		move[c] = true
		i := slices.Index(g.ctxs, c)
		for p := range g.filled {
			copy(ng.w[p*m2+j*K:p*m2+(j+1)*K], g.w[p*m+i*K:p*m+(i+1)*K])
		}
		copy(ng.rr[j*K*K:(j+1)*K*K], g.rr[i*K*K:(i+1)*K*K])
		copy(ng.kq[j*K*K:(j+1)*K*K], g.kq[i*K*K:(i+1)*K*K])
	}
	s.drop(g, func(x int) bool { return move[x] })
	idx := int32(len(s.groups))
	for _, c := range cs {
		s.where[c] = idx
	}
	s.groups = append(s.groups, ng)
	return ng
}

// ensure computes the block of fresh context c if it is not yet computed.
// A context whose solve is under way is finished with its group if that is
// small, else on its own. Otherwise the first context asked for in a round
// is solved alone (a rule may read only that one); from the second on, the
// contexts not computed yet that follow c are solved with it, as many as
// have been computed in the round and at least a batch of freshChunk rows:
// a rule that reads every context (the max-norm context rule) pays for a
// few large batches, which share the reads of L, instead of one pass over L
// per context. The blocks do not depend on the batching.
func (s *Stream) ensure(c int) {
	if c < 0 || c >= s.contexts {
		panic(fmt.Sprintf("gram: fresh context %d out of range [0, %d)", c, s.contexts))
	}
	if s.solved[c] {
		return
	}
	t := len(s.ups)
	if gi := s.where[c]; gi >= 0 {
		g := s.groups[gi]
		if g.cols(s.arms) > freshChunk {
			g = s.split([]int{c})
		}
		s.advance(g, t)
		return
	}
	c1 := c + 1
	if s.nsolved > 0 {
		end := min(s.contexts, c+max(s.nsolved, freshChunk/s.arms))
		for c1 < end && !s.solved[c1] && s.where[c1] < 0 {
			c1++
		}
	}
	s.solve(c, c1)
}

// SolveAll computes every fresh block of the round not computed yet, in
// batches of contexts (cheaper per context than one at a time). The blocks
// are the same, bit for bit, as when computed one at a time.
func (s *Stream) SolveAll() {
	t := len(s.ups)
	for _, g := range s.groups {
		s.advance(g, t)
	}
	for c0 := 0; c0 < s.contexts; {
		if s.solved[c0] || s.where[c0] >= 0 {
			c0++
			continue
		}
		c1 := c0 + 1
		for c1 < s.contexts && !s.solved[c1] && s.where[c1] < 0 {
			c1++
		}
		s.solve(c0, c1)
		c0 = c1
	}
}

// solve computes r̃ and the blocks of fresh contexts [c0, c1), none of them
// started, in groups of up to freshChunk rows. Every step treats a column
// (a context, for the blocks) on its own, so the results do not depend on
// which contexts share a group.
func (s *Stream) solve(c0, c1 int) {
	step := max(1, freshChunk/s.arms)
	var ctxs []int
	for a0 := c0; a0 < c1; a0 += step {
		ctxs = ctxs[:0]
		for c := a0; c < min(a0+step, c1); c++ {
			ctxs = append(ctxs, c)
		}
		s.advance(s.newGroup(ctxs), len(s.ups))
	}
}

// Block returns Q_c = Φ_c V⁻¹ Φ_cᵀ of fresh context c (Arms×Arms,
// row-major), computing it on first use in the round. It aliases internal
// state: read only, valid until the next Add, AddRow, Refresh or SetFresh.
func (s *Stream) Block(c int) []float64 {
	s.ensure(c)
	K := s.arms
	return s.q[c*K*K : (c+1)*K*K]
}

// Norm2 returns ‖φ_{c,a} − φ_{c,b}‖²_{V⁻¹} for fresh context c, clamped at 0
// against rounding.
func (s *Stream) Norm2(c, a, b int) float64 {
	K := s.arms
	q := s.Block(c)
	return max(q[a*K+a]+q[b*K+b]-2*q[a*K+b], 0)
}

// RowNorm2 returns ‖φ_{c,a}‖²_{V⁻¹} for fresh context c, clamped at 0.
func (s *Stream) RowNorm2(c, a int) float64 {
	K := s.arms
	return max(s.Block(c)[a*K+a], 0)
}

// MaxPair returns the pair (a < b) of fresh context c with the largest norm
// and that squared norm. Exact ties go to the first pair in row-major order.
func (s *Stream) MaxPair(c int) (a, b int, norm2 float64) {
	K := s.arms
	q := s.Block(c)
	norm2 = -1
	for i := range K {
		for j := i + 1; j < K; j++ {
			v := q[i*K+i] + q[j*K+j] - 2*q[i*K+j]
			if v > norm2 {
				a, b, norm2 = i, j, v
			}
		}
	}
	return a, b, max(norm2, 0)
}

// FreshR returns the vectors r̃_s over the fresh rows of the round, one
// contiguous row per fresh row: r[x·t+s] = r̃_s[x] for fresh row x = c·Arms+a
// and update s < t, so that Φ_f V⁻¹ Φ_fᵀ = K_f/a − R Rᵀ (rows × rows). It
// computes every block not computed yet. Read only, valid until the next
// Add, AddRow, Refresh or SetFresh.
func (s *Stream) FreshR() (rows, t int, r []float64) {
	s.SolveAll()
	K := s.arms
	rows, t = s.contexts*K, len(s.ups)
	if !s.rowsOK {
		s.rows = resize(s.rows, rows*t)
		for _, g := range s.groups { // w holds −r̃ column-wise
			m := g.cols(K)
			for i, c := range g.ctxs {
				for p := range t {
					for a, v := range g.w[p*m+i*K : p*m+(i+1)*K] {
						s.rows[(c*K+a)*t+p] = -v
					}
				}
			}
		}
		s.rowsOK = true
	}
	return rows, t, s.rows
}
