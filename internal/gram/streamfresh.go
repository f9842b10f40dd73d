package gram

import (
	"fmt"
	"math"

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

// invalidate discards every fresh block (V or the fresh rows changed) and
// sizes the storage of the round.
func (s *Stream) invalidate() {
	s.solved = s.solved[:0]
	s.nsolved = 0
	for range s.contexts {
		s.solved = append(s.solved, false)
	}
	K := s.arms
	s.z = resize(s.z, s.contexts*K*len(s.ups))
	s.q = resize(s.q, s.contexts*K*K)
	s.batches = s.batches[:0]
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

// ensure computes the block of fresh context c if it is not yet computed.
// The first context asked for in a round is solved alone (a rule may read
// only that one). From the second on, the contexts not computed yet that
// follow c are solved with it, as many as have been computed in the round
// and at least a batch of freshChunk rows: a rule that reads every context
// (the max-norm context rule) pays for a few large batches, which share the
// reads of L, instead of one pass over L per context. The blocks do not
// depend on the batching.
func (s *Stream) ensure(c int) {
	if c < 0 || c >= s.contexts {
		panic(fmt.Sprintf("gram: fresh context %d out of range [0, %d)", c, s.contexts))
	}
	if s.solved[c] {
		return
	}
	c1 := c + 1
	if s.nsolved > 0 {
		end := min(s.contexts, c+max(s.nsolved, freshChunk/s.arms))
		for c1 < end && !s.solved[c1] {
			c1++
		}
	}
	s.solve(c, c1)
}

// SolveAll computes every fresh block of the round not computed yet, in
// batches of contexts (cheaper per context than one at a time). The blocks
// are the same, bit for bit, as when computed one at a time.
func (s *Stream) SolveAll() {
	for c0 := 0; c0 < s.contexts; {
		if s.solved[c0] {
			c0++
			continue
		}
		c1 := c0 + 1
		for c1 < s.contexts && !s.solved[c1] {
			c1++
		}
		s.solve(c0, c1)
		c0 = c1
	}
}

// solve computes r̃ and the blocks of fresh contexts [c0, c1), in batches
// of up to freshChunk rows x0, …, x1−1. The batch's part of z,
// z[x0·t : x1·t], is a t × m matrix w (m = x1 − x0) whose column x starts as
// b = (1/√a) Ψᵀφ_x from the kernel and which forwardCols turns into −r̃[x] =
// −L⁻¹b; the blocks are then Q_c = K_c/a − R_c R_cᵀ. Every step treats a row
// (a context, for the blocks) on its own, so the results do not depend on
// which contexts share a batch.
func (s *Stream) solve(c0, c1 int) {
	K := s.arms
	t := len(s.ups)
	nr := len(s.refs)
	inv := 1 / math.Sqrt(s.reg)
	step := max(1, freshChunk/K)
	for a0 := c0; a0 < c1; a0 += step {
		a1 := min(a0+step, c1)
		x0, x1 := a0*K, a1*K
		m := x1 - x0
		w := s.z[x0*t : x1*t]
		if t > 0 {
			for y0 := 0; y0 < m; y0 += kernelRows {
				y1 := min(y0+kernelRows, m)
				kx := s.buf((y1 - y0) * nr)
				s.k.CrossTo(kx, x0+y0, x0+y1, s.refs)
				for p, u := range s.ups {
					wp := w[p*m+y0 : p*m+y1]
					for y := range wp {
						wp[y] = u.psiOf(kx[y*nr:(y+1)*nr]) * inv
					}
				}
			}
			forwardCols(w, t, m, s.l, s.ld)
		}
		s.batches = append(s.batches, [2]int{x0, x1})
		for c := a0; c < a1; c++ {
			s.block(c, w, m, (c-a0)*K)
		}
	}
}

// block sets Q_c = K_c/a − R_c R_cᵀ, with R_c R_cᵀ the product of the
// columns x0, …, x0+Arms−1 of the solved t×m matrix w (−r̃ of the rows of
// context c) with themselves: one chain of fused multiply–adds per entry
// over s = 0, …, t−1, the same for Q_ab and Q_ba.
func (s *Stream) block(c int, w []float64, m, x0 int) {
	K := s.arms
	t := len(s.ups)
	q := s.q[c*K*K : (c+1)*K*K]
	s.k.FreshTo(q, c*K, (c+1)*K)
	s.rr = resize(s.rr, K*K)
	clear(s.rr)
	if t > 0 {
		gemm.AddTransMulStridedTo(s.rr, K, w[x0:], m, w[x0:], m, K, t, K)
	}
	inv := 1 / s.reg
	for i, v := range q {
		q[i] = v*inv - s.rr[i]
	}
	s.solved[c] = true
	s.nsolved++
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
	rows, t = s.contexts*s.arms, len(s.ups)
	if !s.rowsOK {
		s.rows = resize(s.rows, rows*t)
		for _, b := range s.batches { // z holds −r̃ one batch at a time, column-wise
			m := b[1] - b[0]
			w := s.z[b[0]*t : b[1]*t]
			for xb := 0; xb < m; xb += 8 { // 8 columns of w: one cache line per row
				for p := range t {
					for x, v := range w[p*m+xb : p*m+min(xb+8, m)] {
						s.rows[(b[0]+xb+x)*t+p] = -v
					}
				}
			}
		}
		s.rowsOK = true
	}
	return rows, t, s.rows
}
