package theory

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// VForms is V_T = λI + Σ z_s z_sᵀ in the forms a Support needs.
type VForms struct {
	V         *mat.SymDense
	Inv       *mat.SymDense // V_T⁻¹
	LambdaMin float64       // λ_min(V_T)
}

// Support is the input set Z of Theorem 1: the set the maximum
// max_{z∈Z} ‖z‖_{V_T⁻¹} runs over. Every z_s of a sequence lies in it.
type Support interface {
	// Radius returns sup_{z∈Z} ‖z‖₂.
	Radius() float64
	// MaxNorm returns max_{z∈Z} ‖z‖_{V⁻¹}, exactly.
	MaxNorm(v *VForms) float64
	// Contains reports whether z ∈ Z up to a relative tolerance.
	Contains(z []float64, tol float64) bool
	String() string
}

// Ball is Z = {z : ‖z‖ ≤ R} (and the sphere of radius R, which has the same
// maximum): max_{z∈Z} ‖z‖_{V⁻¹} = R/√λ_min(V), the quantity the paper's proof
// bounds (Fact 4).
type Ball struct{ R float64 }

func (b Ball) Radius() float64 { return b.R }

func (b Ball) MaxNorm(v *VForms) float64 { return b.R / math.Sqrt(v.LambdaMin) }

func (b Ball) Contains(z []float64, tol float64) bool { return floats.Norm(z, 2) <= b.R*(1+tol) }

func (b Ball) String() string { return fmt.Sprintf("ball of radius %g", b.R) }

// Ellipsoid is Z = {A u : ‖u‖ = 1} with A = diag(Axes), Axes > 0:
// max_{z∈Z} ‖z‖²_{V⁻¹} = λ_max(A V⁻¹ A).
type Ellipsoid struct{ Axes []float64 }

func (e Ellipsoid) Radius() float64 { return floats.Max(e.Axes) }

func (e Ellipsoid) MaxNorm(v *VForms) float64 {
	d := len(e.Axes)
	m := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			m.SetSym(i, j, e.Axes[i]*v.Inv.At(i, j)*e.Axes[j])
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(m, false) {
		panic("theory: eigen-decomposition of A V⁻¹ A failed")
	}
	vals := eig.Values(nil)
	return math.Sqrt(math.Max(floats.Max(vals), 0))
}

func (e Ellipsoid) Contains(z []float64, tol float64) bool {
	s := 0.0
	for i, a := range e.Axes {
		s += (z[i] / a) * (z[i] / a)
	}
	return s <= 1+tol
}

func (e Ellipsoid) String() string { return fmt.Sprintf("ellipsoid with semi-axes %v", e.Axes) }

// Finite is Z = {±p_i}: the rows of Points and their negatives (a norm does
// not see the sign, and a duel's z is φ_win − φ_lose in either order).
type Finite struct {
	Points *mat.Dense // n × d
	Label  string     // what the points are, for String
}

func (f Finite) Radius() float64 {
	n, _ := f.Points.Dims()
	r := 0.0
	for i := range n {
		r = math.Max(r, floats.Norm(f.Points.RawRowView(i), 2))
	}
	return r
}

func (f Finite) MaxNorm(v *VForms) float64 {
	n, d := f.Points.Dims()
	var y mat.Dense
	y.Mul(f.Points, v.Inv)
	best := 0.0
	for i := range n {
		best = math.Max(best, floats.Dot(y.RawRowView(i)[:d], f.Points.RawRowView(i)))
	}
	return math.Sqrt(best)
}

func (f Finite) Contains(z []float64, tol float64) bool {
	n, _ := f.Points.Dims()
	scale := math.Max(f.Radius(), 1e-300)
	for i := range n {
		p := f.Points.RawRowView(i)
		dm, dp := 0.0, 0.0
		for k, x := range p {
			dm += (z[k] - x) * (z[k] - x)
			dp += (z[k] + x) * (z[k] + x)
		}
		if math.Sqrt(math.Min(dm, dp)) <= tol*scale {
			return true
		}
	}
	return false
}

func (f Finite) String() string {
	n, _ := f.Points.Dims()
	pts := fmt.Sprintf("%d points", n)
	if n == 1 {
		pts = "1 point"
	}
	if f.Label != "" {
		return fmt.Sprintf("%s (%s)", f.Label, pts)
	}
	return pts
}
