package xmath

import "math"

// The coefficients of math.Erfc's rational approximations (math/erf.go,
// from FreeBSD's s_erf.c), lowest degree first, each list's leading 1 of
// the denominator left out. erx is erf(1) to float32 precision.
const erx = 8.45062911510467529297e-01

var (
	// |x| < 0.84375: erfc(x) = 1 − x − x·P(x²)/Q(x²).
	erfP = [...]float64{1.28379167095512558561e-01, -3.25042107247001499370e-01, -2.84817495755985104766e-02, -5.77027029648944159157e-03, -2.37630166566501626084e-05}
	erfQ = [...]float64{3.97917223959155352819e-01, 6.50222499887672944485e-02, 5.08130628187576562776e-03, 1.32494738004321644526e-04, -3.96022827877536812320e-06}
	// 0.84375 ≤ |x| < 1.25: erfc(x) = 1 − erx − P(s)/Q(s), s = |x| − 1.
	erfPA = [...]float64{-2.36211856075265944077e-03, 4.14856118683748331666e-01, -3.72207876035701323847e-01, 3.18346619901161753674e-01, -1.10894694282396677476e-01, 3.54783043256182359371e-02, -2.16637559486879084300e-03}
	erfQA = [...]float64{1.06420880400844228286e-01, 5.40397917702171048937e-01, 7.18286544141962662868e-02, 1.26171219808761642112e-01, 1.36370839120290507362e-02, 1.19844998467991074170e-02}
	// 1.25 ≤ |x| < 1/0.35: R(s)/S(s), s = 1/x².
	erfRA = [...]float64{-9.86494403484714822705e-03, -6.93858572707181764372e-01, -1.05586262253232909814e+01, -6.23753324503260060396e+01, -1.62396669462573470355e+02, -1.84605092906711035994e+02, -8.12874355063065934246e+01, -9.81432934416914548592e+00}
	erfSA = [...]float64{1.96512716674392571292e+01, 1.37657754143519042600e+02, 4.34565877475229228821e+02, 6.45387271733267880336e+02, 4.29008140027567833386e+02, 1.08635005541779435134e+02, 6.57024977031928170135e+00, -6.04244152148580987438e-02}
	// 1/0.35 ≤ |x| < 28.
	erfRB = [...]float64{-9.86494292470009928597e-03, -7.99283237680523006574e-01, -1.77579549177547519889e+01, -1.60636384855821916062e+02, -6.37566443368389627722e+02, -1.02509513161107724954e+03, -4.83519191608651397019e+02}
	erfSB = [...]float64{3.03380607434824582924e+01, 3.25792512996573918826e+02, 1.53672958608443695994e+03, 3.19985821950859553908e+03, 2.55305040643316442583e+03, 4.74528541206955367215e+02, -2.24409524465858183362e+01}
)

// poly returns c[0] + z·(c[1] + z·(… + z·c[n−1])), innermost first, each
// product and sum rounded on its own (as math/erf.go's nested expressions).
func poly(z float64, c []float64) float64 {
	p := c[len(c)-1]
	for k := len(c) - 2; k >= 0; k-- {
		p = c[k] + float64(z*p)
	}
	return p
}

// poly1 returns 1 + z·poly(z, c): a denominator with its leading 1.
func poly1(z float64, c []float64) float64 { return 1 + float64(z*poly(z, c)) }

// Erfc returns the complementary error function of x with the bits
// math.Erfc has on an amd64 processor with AVX and FMA: math's algorithm
// with Exp in place of math.Exp.
func Erfc(x float64) float64 {
	const tiny = 1.0 / (1 << 56)
	switch {
	case math.IsNaN(x):
		return math.NaN()
	case math.IsInf(x, 1):
		return 0
	case math.IsInf(x, -1):
		return 2
	}
	neg := x < 0
	x = math.Abs(x)
	switch {
	case x < 0.84375:
		t := x
		if x >= tiny {
			z := float64(x * x)
			y := poly(z, erfP[:]) / poly1(z, erfQ[:])
			if x < 0.25 {
				t = x + float64(x*y)
			} else {
				t = 0.5 + (float64(x*y) + (x - 0.5))
			}
		}
		if neg {
			return 1 + t
		}
		return 1 - t
	case x < 1.25:
		s := x - 1
		q := poly(s, erfPA[:]) / poly1(s, erfQA[:])
		if neg {
			return 1 + erx + q
		}
		return 1 - erx - q
	case x < 28:
		if neg && x > 6 { // above 1/0.35
			return 2
		}
		s := 1 / float64(x*x)
		var r, d float64
		if x < 1/0.35 {
			r, d = poly(s, erfRA[:]), poly1(s, erfSA[:])
		} else {
			r, d = poly(s, erfRB[:]), poly1(s, erfSB[:])
		}
		z := math.Float64frombits(math.Float64bits(x) & 0xffffffff00000000)
		e := Exp(float64(-z*z)-0.5625) * Exp(float64((z-x)*(z+x))+r/d)
		if neg {
			return 2 - e/x
		}
		return e / x
	}
	if neg {
		return 2
	}
	return 0
}
