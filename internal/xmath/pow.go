package xmath

import "math"

// Pow returns x^y with the bits math.Pow has on an amd64 processor with AVX
// and FMA. math.Pow reaches math.Exp only for a finite x > 0 and an
// exponent with a fractional part (x^frac as e^{frac·ln x}, then the
// integer part by repeated squaring); Pow computes that case as math does,
// with Exp, and leaves every other case (special values, integer
// exponents, y = ±½) to math.Pow, which is the same on every processor
// there.
func Pow(x, y float64) float64 {
	yi, yf := math.Modf(math.Abs(y))
	if yf == 0 || !(x > 0) || math.IsInf(x, 1) || x == 1 || math.IsNaN(y) || math.IsInf(y, 0) ||
		y == 0.5 || y == -0.5 || yi >= 1<<63 {
		return math.Pow(x, y)
	}
	if yf > 0.5 {
		yf--
		yi++
	}
	a := Exp(float64(yf * math.Log(x)))
	ae := 0
	x1, xe := math.Frexp(x)
	for i := int64(yi); i != 0; i >>= 1 {
		if xe < -1<<12 || 1<<12 < xe {
			ae += xe // beyond any float64's exponent: Ldexp gives 0 or ±Inf
			break
		}
		if i&1 == 1 {
			a *= x1
			ae += xe
		}
		x1 *= x1
		xe <<= 1
		if x1 < .5 {
			x1 += x1
			xe--
		}
	}
	if y < 0 {
		a, ae = 1/a, -ae
	}
	return math.Ldexp(a, ae)
}
