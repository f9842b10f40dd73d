package theory

import (
	"math"
	"strconv"
)

// Bound is the right-hand side L/G of a Theorem-1-type norm bound, with
// G = √Radicand. When the radicand is not positive the statement asserts
// nothing: the bound is undefined, Defined is false and Value is 0 (never NaN
// or ±Inf, so undefined bounds cannot leak into tables as numbers).
type Bound struct {
	Radicand float64 // G²
	Value    float64 // L/G when Defined, else 0
	Defined  bool
}

// NewBound returns L/√radicand, undefined when radicand ≤ 0 or not finite.
func NewBound(L, radicand float64) Bound {
	if !(radicand > 0) || math.IsInf(radicand, 0) {
		return Bound{Radicand: finiteOr0(radicand)}
	}
	return Bound{Radicand: radicand, Value: L / math.Sqrt(radicand), Defined: true}
}

func finiteOr0(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// violationTol is the relative slack below which a measured norm is not
// counted as exceeding a bound (rounding in λ_min and in the norms).
const violationTol = 1e-9

// Violated reports whether norm exceeds a defined bound by more than a
// relative 1e-9. An undefined bound is never violated (it asserts nothing).
func (b Bound) Violated(norm float64) bool {
	return b.Defined && norm > b.Value*(1+violationTol)
}

// String returns the value with the shortest round-tripping representation, or
// "undefined".
func (b Bound) String() string {
	if !b.Defined {
		return "undefined"
	}
	return strconv.FormatFloat(b.Value, 'g', -1, 64)
}
