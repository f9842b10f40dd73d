package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestOuterMaskBitIdentical requires from OuterMaskTo, on every path of the
// machine, the bits of MulMaskTo and AddTransMulVecTo on the pure-Go path,
// for widths around the vectors (and past the kernels' 64 columns), signed
// zeros, NaNs of both signs, infinities and subnormals in every operand and
// in the mask, and no write past d or y.
func TestOuterMaskBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 3))
	fill := func(n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = fusedSpecial(rng)
		}
		return x
	}
	for _, p := range Available() {
		for _, m := range []int{0, 1, 2, 7, 8, 9, 65, 130} {
			for _, n := range []int{1, 3, 7, 8, 9, 16, 20, 50, 63, 64, 65, 70} {
				c, v, h := fill(m), fill(n), fill(m*n)
				y0 := fill(n + 2)
				d0 := fill(m*n + 2)
				wantD, wantY := append([]float64(nil), d0...), append([]float64(nil), y0...)
				prev := Use(PureGo)
				MulMaskTo(wantD, c, v, h, m, 1, n)
				AddTransMulVecTo(wantY, h, c, m, n)
				Use(p)
				gotD, gotY := append([]float64(nil), d0...), append([]float64(nil), y0...)
				OuterMaskTo(gotD[:m*n], c, v, h, m, n, gotY[:n])
				Use(prev)
				for i := range wantD {
					if math.Float64bits(gotD[i]) != math.Float64bits(wantD[i]) {
						t.Fatalf("%v m=%d n=%d: d[%d] = %v, want %v", p, m, n, i, gotD[i], wantD[i])
					}
				}
				for i := range wantY {
					if math.Float64bits(gotY[i]) != math.Float64bits(wantY[i]) {
						t.Fatalf("%v m=%d n=%d: y[%d] = %v, want %v", p, m, n, i, gotY[i], wantY[i])
					}
				}
			}
		}
	}
}
