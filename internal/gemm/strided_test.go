package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// stridedMatrix returns rows × width values at stride ld (elements in the
// gaps and after the last row set to sentinel) and the values alone.
func stridedMatrix(rng *rand.Rand, rows, width, ld int, sentinel float64) []float64 {
	s := make([]float64, rows*ld+guard)
	vals := randSlice(rng, rows*width)
	for i := range s {
		s[i] = sentinel
	}
	for r := range rows {
		copy(s[r*ld:r*ld+width], vals[r*width:(r+1)*width])
	}
	return s
}

// TestStridedBitIdentical runs AddMulStridedTo and AddTransMulStridedTo on
// every path of this machine against one math.FMA chain per element, with
// row strides longer than the rows, and requires the same bits and that
// nothing outside the destination's rows is written.
func TestStridedBitIdentical(t *testing.T) {
	dims := []int{1, 2, 3, 5, 7, 8, 9, 13, 17, 24, 25, 33, 50}
	ks := []int{0, 1, 2, 5, 9, 31, 255, 256, 300}
	gaps := []int{0, 1, 5}
	rng := rand.New(rand.NewPCG(3, 3))
	sentinel := math.Float64frombits(0x7ff8dead0000beef)
	for _, p := range Available() {
		prev := Use(p)
		for _, trans := range []bool{false, true} {
			for _, m := range dims {
				for _, k := range ks {
					for _, n := range dims {
						if k > 50 && (m > 13 || n > 25) {
							continue
						}
						ga, gb, gc := gaps[rng.IntN(3)], gaps[rng.IntN(3)], gaps[rng.IntN(3)]
						ar, aw := m, k
						if trans {
							ar, aw = k, m
						}
						lda, ldb, ldc := aw+ga, n+gb, n+gc
						a := stridedMatrix(rng, ar, aw, lda, sentinel)
						b := stridedMatrix(rng, k, n, ldb, sentinel)
						got := stridedMatrix(rng, m, n, ldc, sentinel)
						want := append([]float64(nil), got...)
						at := func(i, s int) float64 { return a[i*lda+s] }
						if trans {
							AddTransMulStridedTo(got, ldc, a, lda, b, ldb, m, k, n)
							at = func(i, s int) float64 { return a[s*lda+i] }
						} else {
							AddMulStridedTo(got, ldc, a, lda, b, ldb, m, k, n)
						}
						for i := range m {
							for j := range n {
								s := want[i*ldc+j]
								for u := range k {
									s = math.FMA(at(i, u), b[u*ldb+j], s)
								}
								want[i*ldc+j] = s
							}
						}
						for i := range want {
							if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
								t.Fatalf("%v trans=%v m=%d k=%d n=%d ldc=%d: element %d = %v, want %v",
									p, trans, m, k, n, ldc, i, got[i], want[i])
							}
						}
					}
				}
			}
		}
		Use(prev)
	}
}

func TestStridedPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"stride shorter than a row", func() { AddMulStridedTo(make([]float64, 8), 1, make([]float64, 8), 2, make([]float64, 8), 2, 2, 2, 2) }},
		{"short destination", func() { AddMulStridedTo(make([]float64, 4), 3, make([]float64, 8), 2, make([]float64, 8), 2, 2, 2, 2) }},
		{"short operand", func() {
			AddTransMulStridedTo(make([]float64, 8), 2, make([]float64, 4), 3, make([]float64, 8), 2, 2, 2, 2)
		}},
		{"negative dimension", func() { AddMulStridedTo(nil, 0, nil, 0, nil, 0, -1, 0, 0) }},
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
