package gram

import (
	"fmt"
	"math"
)

// Primal keeps V⁻¹ explicitly, for features of small dimension p (the raw
// features of the linear baselines): V = a·I + Σ ψψᵀ with ψ = φ_i − φ_j or
// ψ = φ_i, updated by Sherman–Morrison in O(p²) per update. It keeps nothing
// per row: a norm is computed from the rows' current features on demand in
// O(p²), so rows may be added or replaced at any time (fresh contexts).
// Rows are read through Row, which must return the p features of pool row n
// (contexts × Arms rows, row n = c·Arms + a).
type Primal struct {
	Arms int
	Row  func(n int) []float64

	p     int
	reg   float64
	inv   []float64 // V⁻¹, p×p row-major
	t     int
	psi   []float64
	u     []float64
	block []float64
}

// NewPrimal returns the state V = reg·I for features of dimension p.
func NewPrimal(p, arms int, reg float64, row func(n int) []float64) *Primal {
	if !(reg > 0) || p < 1 {
		panic("gram: NewPrimal needs reg > 0 and p ≥ 1")
	}
	inv := make([]float64, p*p)
	for i := range p {
		inv[i*p+i] = 1 / reg
	}
	return &Primal{Arms: arms, Row: row, p: p, reg: reg, inv: inv, psi: make([]float64, p), u: make([]float64, p), block: make([]float64, arms*arms)}
}

// Len returns the number of updates.
func (s *Primal) Len() int { return s.t }

// Reg returns a.
func (s *Primal) Reg() float64 { return s.reg }

// Add updates V ← V + ψψᵀ with ψ = φ_i − φ_j.
func (s *Primal) Add(i, j int) {
	if i == j {
		panic(fmt.Sprintf("gram: Primal.Add(%d, %d) needs two distinct rows", i, j))
	}
	xi, xj := s.Row(i), s.Row(j)
	for k := range s.psi {
		s.psi[k] = xi[k] - xj[k]
	}
	s.update()
}

// AddRow updates V ← V + φ_i φ_iᵀ.
func (s *Primal) AddRow(i int) {
	copy(s.psi, s.Row(i))
	s.update()
}

// update applies Sherman–Morrison: V⁻¹ ← V⁻¹ − (V⁻¹ψ)(V⁻¹ψ)ᵀ/(1 + ψᵀV⁻¹ψ).
func (s *Primal) update() {
	p := s.p
	q := 0.0
	for i := range p {
		v := 0.0
		row := s.inv[i*p : (i+1)*p]
		for k, x := range s.psi {
			v += row[k] * x
		}
		s.u[i] = v
		q += v * s.psi[i]
	}
	f := 1 / (1 + q)
	for i := range p {
		ui := s.u[i] * f
		row := s.inv[i*p : (i+1)*p]
		for k := range row {
			row[k] -= ui * s.u[k]
		}
	}
	s.t++
}

// quad returns xᵀV⁻¹y.
func (s *Primal) quad(x, y []float64) float64 {
	p := s.p
	v := 0.0
	for i, xi := range x {
		row := s.inv[i*p : (i+1)*p]
		w := 0.0
		for k, yk := range y {
			w += row[k] * yk
		}
		v += xi * w
	}
	return v
}

// Block returns Q_c = Φ_c V⁻¹ Φ_cᵀ (Arms×Arms, row-major), computed now
// from the rows' current features; the slice is reused by the next call.
func (s *Primal) Block(c int) []float64 {
	K := s.Arms
	for a := range K {
		xa := s.Row(c*K + a)
		for b := a; b < K; b++ {
			v := s.quad(xa, s.Row(c*K+b))
			s.block[a*K+b], s.block[b*K+a] = v, v
		}
	}
	return s.block
}

// Norm2 returns ‖φ_{c,a} − φ_{c,b}‖²_{V⁻¹}, clamped at 0.
func (s *Primal) Norm2(c, a, b int) float64 {
	K := s.Arms
	xa, xb := s.Row(c*K+a), s.Row(c*K+b)
	for k := range s.psi {
		s.psi[k] = xa[k] - xb[k]
	}
	return max(s.quad(s.psi, s.psi), 0)
}

// RowNorm2 returns ‖φ_{c,a}‖²_{V⁻¹}, clamped at 0.
func (s *Primal) RowNorm2(c, a int) float64 {
	x := s.Row(c*s.Arms + a)
	return max(s.quad(x, x), 0)
}

// MaxPair returns the pair (a < b) of context c with the largest norm and
// that squared norm; exact ties go to the first pair in row-major order.
func (s *Primal) MaxPair(c int) (a, b int, norm2 float64) {
	return s.MaxPairFunc(c, func(int, int) bool { return true })
}

// MaxPairFunc is MaxPair over the pairs for which ok holds; norm2 is −1
// when none does.
func (s *Primal) MaxPairFunc(c int, ok func(a, b int) bool) (a, b int, norm2 float64) {
	K := s.Arms
	q := s.Block(c)
	norm2 = -1
	for i := range K {
		for j := i + 1; j < K; j++ {
			if !ok(i, j) {
				continue
			}
			if v := q[i*K+i] + q[j*K+j] - 2*q[i*K+j]; v > norm2 {
				a, b, norm2 = i, j, v
			}
		}
	}
	if norm2 < 0 {
		return a, b, norm2
	}
	return a, b, math.Max(norm2, 0)
}
