package algorithms

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/neural-adb/nadb/internal/xmath"
)

// Learners must not panic on features a user supplies (unscaled, constant,
// duplicated, ill-conditioned): where a factorisation or solve breaks down
// numerically, they degrade instead — a model keeps its previous parameters,
// a posterior falls back to a jittered or the prior covariance — and the run
// goes on. The helpers here say when a linear-algebra result can be used.

// solveOK reports whether a Cholesky solve's result can be used: no error,
// or only gonum's ill-conditioning warning (mat.Condition), with a finite
// solution.
func solveOK(err error, x []float64) bool {
	var cond mat.Condition
	if err != nil && !errors.As(err, &cond) {
		return false
	}
	return allFinite(x)
}

// allFinite reports whether every value of x is finite.
func allFinite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// factorizeJittered factorises the symmetric matrix a, adding δ·I with δ
// growing from 1e-10 to 1e10 times the mean diagonal magnitude (at least
// 1e-300) until the factorisation succeeds. It reports false when none does
// (a matrix with non-finite entries).
func factorizeJittered(ch *mat.Cholesky, a *mat.SymDense) bool {
	if ch.Factorize(a) {
		return true
	}
	n := a.SymmetricDim()
	diag := make([]float64, n)
	for i := range n {
		diag[i] = math.Abs(a.At(i, i))
	}
	scale := math.Max(floats.Sum(diag)/float64(n), 1e-300)
	if math.IsNaN(scale) || math.IsInf(scale, 0) {
		return false
	}
	j := mat.NewSymDense(n, nil)
	for k := -10; k <= 10; k++ {
		j.CopySym(a)
		d := scale * xmath.Pow(10, float64(k))
		for i := range n {
			j.SetSym(i, i, j.At(i, i)+d)
		}
		if ch.Factorize(j) {
			return true
		}
	}
	return false
}
