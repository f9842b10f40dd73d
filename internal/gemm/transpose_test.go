package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTranspose requires on every path of the machine, for shapes around
// the 8 × 8 blocks of the AVX-512 kernel, the exact bits of every element
// moved (NaN payloads and signed zeros included) and no write past dst.
func TestTranspose(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	nan := math.Float64frombits(0x7ff8_0000_dead_beef)
	special := []float64{math.Copysign(0, -1), 5e-324, math.Inf(-1), nan, -nan}
	for _, p := range Available() {
		prev := Use(p)
		for _, m := range []int{0, 1, 2, 7, 8, 9, 15, 16, 17, 20, 50, 64, 65, 130} {
			for _, n := range []int{0, 1, 3, 7, 8, 9, 16, 20, 50, 65} {
				src := randSlice(rng, m*n)
				for i := range src {
					if rng.IntN(9) == 0 {
						src[i] = special[rng.IntN(len(special))]
					}
				}
				dst := make([]float64, m*n+5)
				for i := range dst {
					dst[i] = -7
				}
				Transpose(dst[:m*n], src, m, n)
				for i := range m {
					for j := range n {
						if got, want := math.Float64bits(dst[j*m+i]), math.Float64bits(src[i*n+j]); got != want {
							t.Fatalf("%v m=%d n=%d: dst[%d,%d] bits %#x, want %#x", p, m, n, j, i, got, want)
						}
					}
				}
				for i := m * n; i < len(dst); i++ {
					if dst[i] != -7 {
						t.Fatalf("%v m=%d n=%d: wrote past dst at %d", p, m, n, i)
					}
				}
			}
		}
		Use(prev)
	}
}
