package gemm

import (
	"math"

	"github.com/neural-adb/nadb/internal/xmath"
)

// SigmoidTo sets dst[i] to the logistic function of x[i] as package
// logistic's Sigmoid evaluates it, 1/(1 + xmath.Exp(−x)) for x ≥ 0 and
// e/(1 + e) with e = xmath.Exp(x) otherwise, each operation rounded on its
// own, bit for bit on every path. The AVX-512 path computes 8 values at a
// time for |x| ≤ 700 with the operations of math.Exp's amd64 assembly (its
// fused path, which xmath.Exp performs on every processor), in their
// order; other values, a tail of fewer than 8, and every value on the other
// paths go through the expression itself. dst must hold len(x) values.
func SigmoidTo(dst, x []float64) {
	dst = dst[:len(x)]
	i := 0
	if active == AVX512 && sigmoidAsmOK {
		i = len(x) &^ 7
		if i > 0 {
			sigmoidAVX512(&dst[0], &x[0], i)
		}
		for k, v := range x[:i] {
			if !(math.Abs(v) <= 700) {
				dst[k] = sigmoid1(v)
			}
		}
	}
	for ; i < len(x); i++ {
		dst[i] = sigmoid1(x[i])
	}
}

// sigmoid1 is SigmoidTo of one value: package logistic's Sigmoid.
func sigmoid1(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + xmath.Exp(-x))
	}
	e := xmath.Exp(x)
	return e / (1 + e)
}
