package gram

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// freshChunk bounds the number of fresh rows whose kernel entries against
// the committed rows are computed in one kernel call (the scratch is
// freshChunk × len(refs)).
const freshChunk = 128

// solvePanel is the number of rows of L in one panel of the forward
// substitution: the panel is read once per fresh row of a batch while it
// stays in cache.
const solvePanel = 32

// invalidate discards every fresh block (V or the fresh rows changed) and
// sizes the storage of the round.
func (s *Stream) invalidate() {
	s.solved = s.solved[:0]
	for range s.contexts {
		s.solved = append(s.solved, false)
	}
	K := s.arms
	s.z = resize(s.z, s.contexts*K*len(s.ups))
	s.q = resize(s.q, s.contexts*K*K)
}

func resize(x []float64, n int) []float64 {
	if cap(x) < n {
		return make([]float64, n)
	}
	return x[:n]
}

// ensure computes the block of fresh context c if it is not yet computed.
func (s *Stream) ensure(c int) {
	if c < 0 || c >= s.contexts {
		panic(fmt.Sprintf("gram: fresh context %d out of range [0, %d)", c, s.contexts))
	}
	if !s.solved[c] {
		s.solve(c, c+1)
	}
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

// solve computes r̃ and the blocks of fresh contexts [c0, c1): for every
// fresh row x, b_x = (1/√a) Ψᵀφ_x from the kernel, r̃[x] = L⁻¹ b_x by forward
// substitution, then Q_c = K_c/a − R_c R_cᵀ.
func (s *Stream) solve(c0, c1 int) {
	K := s.arms
	t := len(s.ups)
	nr := len(s.refs)
	inv := 1 / math.Sqrt(s.reg)
	step := max(1, freshChunk/K)
	for a0 := c0; a0 < c1; a0 += step {
		a1 := min(a0+step, c1)
		x0, x1 := a0*K, a1*K
		if t > 0 {
			kx := s.buf((x1 - x0) * nr)
			s.k.CrossTo(kx, x0, x1, s.refs)
			for x := x0; x < x1; x++ {
				kr := kx[(x-x0)*nr : (x-x0+1)*nr]
				zr := s.z[x*t : (x+1)*t]
				for p, u := range s.ups {
					zr[p] = u.psiOf(kr) * inv
				}
			}
			forwardRows(s.z[x0*t:x1*t], x1-x0, t, s.l, s.ld)
		}
		for c := a0; c < a1; c++ {
			s.block(c)
		}
	}
}

// block sets Q_c = K_c/a − R_c R_cᵀ from the solved rows of context c.
func (s *Stream) block(c int) {
	K := s.arms
	t := len(s.ups)
	q := s.q[c*K*K : (c+1)*K*K]
	s.k.FreshTo(q, c*K, (c+1)*K)
	inv := 1 / s.reg
	for a := range K {
		za := s.z[(c*K+a)*t : (c*K+a+1)*t]
		for b := a; b < K; b++ {
			v := q[a*K+b] * inv
			if t > 0 {
				v -= floats.Dot(za, s.z[(c*K+b)*t:(c*K+b+1)*t])
			}
			q[a*K+b] = v
			q[b*K+a] = v
		}
	}
	s.solved[c] = true
}

// forwardRows overwrites every row y of the m×t matrix z (stride t) by L⁻¹y,
// with L the leading t×t block of the lower-triangular l (stride ld). The
// rows are processed panel by panel of L; each row goes through the same
// operations in the same order whatever m is, so a row's result does not
// depend on which rows share its batch.
func forwardRows(z []float64, m, t int, l []float64, ld int) {
	for j0 := 0; j0 < t; j0 += solvePanel {
		j1 := min(j0+solvePanel, t)
		for x := range m {
			zx := z[x*t : (x+1)*t]
			for i := j0; i < j1; i++ {
				li := l[i*ld : i*ld+i+1]
				v := zx[i]
				if j0 > 0 {
					v -= floats.Dot(li[:j0], zx[:j0])
				}
				for k := j0; k < i; k++ {
					v -= li[k] * zx[k]
				}
				zx[i] = v / li[i]
			}
		}
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
	return s.contexts * s.arms, len(s.ups), s.z
}
