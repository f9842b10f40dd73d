package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMulStridedBitIdentical runs MulStridedTo on every path of this machine
// against one math.FMA chain per element started from +0, with row strides
// longer than the rows, and requires the same bits and that nothing outside
// the destination's rows is written.
func TestMulStridedBitIdentical(t *testing.T) {
	dims := []int{1, 2, 3, 5, 7, 8, 9, 13, 17, 24, 25, 33, 50}
	ks := []int{0, 1, 2, 5, 9, 31, 255, 256, 300}
	gaps := []int{0, 1, 5}
	rng := rand.New(rand.NewPCG(4, 4))
	sentinel := math.Float64frombits(0x7ff8dead0000beef)
	for _, p := range Available() {
		prev := Use(p)
		for _, m := range dims {
			for _, k := range ks {
				for _, n := range dims {
					if k > 50 && (m > 13 || n > 25) {
						continue
					}
					ga, gb, gc := gaps[rng.IntN(3)], gaps[rng.IntN(3)], gaps[rng.IntN(3)]
					lda, ldb, ldc := k+ga, n+gb, n+gc
					a := stridedMatrix(rng, m, k, lda, sentinel)
					b := stridedMatrix(rng, k, n, ldb, sentinel)
					got := stridedMatrix(rng, m, n, ldc, sentinel)
					want := append([]float64(nil), got...)
					MulStridedTo(got, ldc, a, lda, b, ldb, m, k, n)
					for i := range m {
						for j := range n {
							var s float64
							for u := range k {
								s = math.FMA(a[i*lda+u], b[u*ldb+j], s)
							}
							want[i*ldc+j] = s
						}
					}
					for i := range want {
						if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
							t.Fatalf("%v m=%d k=%d n=%d ldc=%d: element %d = %v, want %v", p, m, k, n, ldc, i, got[i], want[i])
						}
					}
				}
			}
		}
		Use(prev)
	}
}

func TestMulStridedPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"stride shorter than a row", func() { MulStridedTo(make([]float64, 8), 1, make([]float64, 8), 2, make([]float64, 8), 2, 2, 2, 2) }},
		{"short destination", func() { MulStridedTo(make([]float64, 4), 3, make([]float64, 8), 2, make([]float64, 8), 2, 2, 2, 2) }},
		{"short second operand", func() { MulStridedTo(make([]float64, 8), 2, make([]float64, 8), 2, make([]float64, 3), 2, 2, 2, 2) }},
		{"negative dimension", func() { MulStridedTo(nil, 0, nil, 0, nil, 0, 0, -1, 0) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			tc.f()
		})
	}
}
