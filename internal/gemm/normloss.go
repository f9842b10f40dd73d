package gemm

import (
	"math"

	"github.com/neural-adb/nadb/internal/xmath"
)

// NormalLoss sets dst[i] to the standard normal loss function of c[i],
// L(c) = φ(c) − c·(1 − Φ(c)) = E[(Z − c)⁺] for Z ~ N(0, 1), as the expression
//
//	0.5·xmath.Erfc(c/√2)·(−c) + xmath.Exp(−c·c/2)/√(2π)
//
// evaluates it, each operation rounded on its own, bit for bit on every
// path. The AVX-512 path computes 8 values at a time for 0 ≤ c < 37 with
// the operations of math.Erfc and of math.Exp's amd64 assembly (its fused
// path, which xmath.Exp performs on every processor), in their order;
// other values, a tail of fewer than 8, and every value on the other paths
// go through the expression itself. dst must hold len(c) values.
func NormalLoss(dst, c []float64) {
	dst = dst[:len(c)]
	i := 0
	if active == AVX512 && normalLossAsmOK {
		i = len(c) &^ 7
		if i > 0 {
			normalLossAVX512(&dst[0], &c[0], i)
		}
		for k, v := range c[:i] {
			if !(v >= 0 && v < 37) {
				dst[k] = normalLoss1(v)
			}
		}
	}
	for ; i < len(c); i++ {
		dst[i] = normalLoss1(c[i])
	}
}

// normalLoss1 is NormalLoss of one value. The conversion keeps the
// product and the sum apart (no fused multiply–add from GOAMD64=v3 up).
func normalLoss1(c float64) float64 {
	return float64(0.5*xmath.Erfc(c/math.Sqrt2)*(-c)) + xmath.Exp(-c*c/2)/math.Sqrt(2*math.Pi)
}
