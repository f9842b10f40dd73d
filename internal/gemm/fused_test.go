package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// fusedSpecial returns a value for the operands of the fused tests: mostly
// random, sometimes ±0, a NaN of either sign, ±Inf or a subnormal, so that
// products and chains reach the cases ReLU and Mask decide on bits.
func fusedSpecial(rng *rand.Rand) float64 {
	switch rng.IntN(16) {
	case 0:
		return 0
	case 1:
		return math.Copysign(0, -1)
	case 2:
		return math.Float64frombits(0xfff8000000000001) // NaN, sign set
	case 3:
		return math.NaN()
	case 4:
		return math.Inf(-1)
	case 5:
		return 5e-324
	}
	return rng.NormFloat64()
}

// TestFusedBitIdentical requires MulStridedReLUTo to give the bits of
// MulStridedTo followed by ReLU of every row, and MulMaskTo those of MulTo
// followed by Mask, on every path of this machine, for shapes that use every
// tile, masked last vectors, several passes over k and the one-row paths,
// with ±0, NaNs of both signs, infinities and subnormals among the operands
// and in the mask; nothing outside the destination's rows is written.
func TestFusedBitIdentical(t *testing.T) {
	dims := []int{1, 2, 3, 5, 7, 8, 9, 13, 17, 25, 33, 50, 70, 130}
	ks := []int{0, 1, 2, 5, 20, 50, 65, 129}
	rng := rand.New(rand.NewPCG(7, 7))
	sentinel := math.Float64frombits(0x7ff8dead0000beef)
	fill := func(n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = fusedSpecial(rng)
		}
		return x
	}
	same := func(got, want []float64) int {
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				return i
			}
		}
		return -1
	}
	for _, p := range Available() {
		prev := Use(p)
		for _, m := range dims {
			for _, k := range ks {
				for _, n := range dims {
					if k > 50 && m*n > 2000 {
						continue
					}
					gc := rng.IntN(3)
					ldc := n + gc
					a, b := fill(m*k), fill(k*n)
					c0 := stridedMatrix(rng, m, n, ldc, sentinel)
					got, want := append([]float64(nil), c0...), append([]float64(nil), c0...)
					MulStridedReLUTo(got, ldc, a, k, b, n, m, k, n)
					MulStridedTo(want, ldc, a, k, b, n, m, k, n)
					for i := range m {
						ReLU(want[i*ldc : i*ldc+n])
					}
					if i := same(got, want); i >= 0 {
						t.Fatalf("%v MulStridedReLUTo m=%d k=%d n=%d ldc=%d: element %d = %v, want %v", p, m, k, n, ldc, i, got[i], want[i])
					}
					h := fill(m * n)
					got, want = fill(m*n+3), nil
					want = append(want, got...)
					MulMaskTo(got, a, b, h, m, k, n)
					MulTo(want, a, b, m, k, n)
					Mask(want[:m*n], h)
					if i := same(got, want); i >= 0 {
						t.Fatalf("%v MulMaskTo m=%d k=%d n=%d: element %d = %v, want %v", p, m, k, n, i, got[i], want[i])
					}
				}
			}
		}
		Use(prev)
	}
}

// TestMulVecRowsSpecial requires MulVecTo (whose AVX-512 path holds 8 rows
// in the lanes and transposes blocks of 8 × 8 in registers) to give, on
// every path, the bits of one math.FMA chain per row from +0, with ±0, NaNs
// of both signs, infinities and subnormals among the operands, for row
// counts around multiples of 8 and inner dimensions around multiples of 8.
func TestMulVecRowsSpecial(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, p := range Available() {
		prev := Use(p)
		for _, m := range []int{7, 8, 9, 16, 31, 64, 129} {
			for _, k := range []int{1, 5, 7, 8, 9, 15, 16, 20, 50, 63, 64, 65} {
				a, x := make([]float64, m*k), make([]float64, k)
				for i := range a {
					a[i] = fusedSpecial(rng)
				}
				for i := range x {
					x[i] = fusedSpecial(rng)
				}
				y := make([]float64, m+1)
				y[m] = 42
				MulVecTo(y[:m], a, x, m, k)
				for r := range m {
					var s float64
					for u := range k {
						s = math.FMA(a[r*k+u], x[u], s)
					}
					if math.Float64bits(y[r]) != math.Float64bits(s) {
						t.Fatalf("%v m=%d k=%d: y[%d] = %v, want %v", p, m, k, r, y[r], s)
					}
				}
				if y[m] != 42 {
					t.Fatalf("%v m=%d k=%d: wrote past y", p, m, k)
				}
			}
		}
		Use(prev)
	}
}
