package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRemColsBitIdentical requires from every path, for products with 50
// and 20 columns (the AVX-512 path's remColsAsm: 3 rows × (6 vectors + 2
// columns), 6 rows × (2 vectors + 4 columns)),
// the bits of the pure-Go chains followed by ReLU or Mask: rows around
// multiples of 3 and 6, inner dimensions in one pass and across passes, both
// layouts of a, strided c and h, started from +0 and from c, with ±0,
// NaNs of both signs, infinities and subnormals among the operands.
func TestRemColsBitIdentical(t *testing.T) {
	for _, n := range []int{50, 20} {
		rng := rand.New(rand.NewPCG(5, 9))
		fill := func(l int) []float64 {
			x := make([]float64, l)
			for i := range x {
				x[i] = fusedSpecial(rng)
			}
			return x
		}
		for _, p := range Available() {
			prev := Use(p)
			for _, m := range []int{1, 2, 3, 4, 5, 6, 7, 50, 64, 65, 128, 130} {
				for _, k := range []int{1, 2, 7, 20, 50, 64, 65, 80, 81, 128, 193} {
					for _, post := range []int{0, flagReLU, flagMask} {
						for _, acc := range []bool{false, true} {
							for _, trans := range []bool{false, true} {
								ldc := n + rng.IntN(3)
								a, b := fill(m*k), fill(k*n)
								h, c0 := fill(m*ldc), fill(m*ldc)
								ars, aks := k, 1
								if trans {
									ars, aks = 1, m
								}
								want, got := append([]float64(nil), c0...), append([]float64(nil), c0...)
								stridedGo(m, n, k, a, ars, aks, b, n, want, ldc, acc)
								postRows(m, n, want, ldc, post, h)
								stridedPost(m, n, k, a, ars, aks, b, n, got, ldc, acc, post, h)
								for i := range want {
									if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
										t.Fatalf("%v m=%d k=%d post=%d acc=%v trans=%v ldc=%d: element %d (row %d, column %d) = %v, want %v",
											p, m, k, post, acc, trans, ldc, i, i/ldc, i%ldc, got[i], want[i])
									}
								}
							}
						}
					}
				}
			}
			Use(prev)
		}
	}
}
