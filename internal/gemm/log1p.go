package gemm

import "math"

// The constants of math.Log1p (the FreeBSD algorithm) that Log1p's vector
// kernels use, written as there.
const (
	log1pSqrt2M1     = 4.142135623730950488017e-01  // √2 − 1
	log1pSqrt2HalfM1 = -2.928932188134524755992e-01 // √2/2 − 1
)

// log1pConsts is the kernels' c: 2⁻²⁹, 2⁻⁵⁴, 0.5, 2, Lp1 … Lp7, the mask
// of every bit but the sign and the ends of the kernels' range.
var log1pConsts = [14]float64{
	1.0 / (1 << 29), 1.0 / (1 << 54), 0.5, 2,
	6.666666666666735130e-01, // Lp1
	3.999999999940941908e-01, // Lp2
	2.857142874366239149e-01, // Lp3
	2.222219843214978396e-01, // Lp4
	1.818357216161805012e-01, // Lp5
	1.531383769920937332e-01, // Lp6
	1.479819860511658591e-01, // Lp7
	math.Float64frombits(1<<63 - 1),
	log1pSqrt2HalfM1, log1pSqrt2M1,
}

// Log1p sets dst[i] = math.Log1p(x[i]) for i < len(x), bit for bit: on the
// vector paths the arguments in (√2/2 − 1, √2 − 1), where math.Log1p
// reduces nothing, are evaluated by its formulas one correctly rounded
// operation at a time in its order, several at once (the information terms
// of neural-adb-target, log(1 − ρ²) of small ρ²), and every other argument
// by math.Log1p (all of them on other architectures, and from GOAMD64=v3
// on, where math.Log1p is compiled with fused multiply–adds). It panics
// if dst is shorter than x.
func Log1p(dst, x []float64) {
	n := len(x)
	if len(dst) < n {
		panic("gemm: Log1p with dst shorter than x")
	}
	k, first := 0, 0
	if active == AVX2 || active == AVX512 {
		k, first = log1pAsm(active, dst, x)
	}
	// The kernels' arguments before first are all in range.
	for i := first; i < k; i++ {
		if v := x[i]; !(v > log1pSqrt2HalfM1 && v < log1pSqrt2M1) {
			dst[i] = math.Log1p(v)
		}
	}
	for i := k; i < n; i++ {
		dst[i] = math.Log1p(x[i])
	}
}
