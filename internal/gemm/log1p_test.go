package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLog1pBitIdentical requires math.Log1p's bits from Log1p on every path
// of this machine, over arguments in every branch of math.Log1p: around
// ±2⁻⁵⁴, ±2⁻²⁹, √2/2 − 1, √2 − 1 and −1 (the neighbouring floats
// included), signed zeros, subnormals, infinities and NaN, log-uniform
// magnitudes of both signs, and the (−1, 0] of 1 − ρ².
func TestLog1pBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	var x []float64
	for _, c := range []float64{1.0 / (1 << 54), 1.0 / (1 << 29), log1pSqrt2M1, -log1pSqrt2M1, log1pSqrt2HalfM1, -log1pSqrt2HalfM1, 1, 1 << 53} {
		for _, s := range []float64{1, -1} {
			v := s * c
			for range 3 {
				v = math.Nextafter(v, math.Inf(-1))
			}
			for range 7 {
				x = append(x, v)
				v = math.Nextafter(v, math.Inf(1))
			}
		}
	}
	x = append(x, 0, math.Copysign(0, -1), 5e-324, -5e-324, -1, math.Nextafter(-1, 0), -2, math.Inf(1), math.Inf(-1), math.NaN(), 1e300)
	for range 20000 {
		v := math.Exp2(-70 * rng.Float64())
		if rng.IntN(2) == 0 {
			v = -v
		}
		x = append(x, v, -rng.Float64(), -rng.Float64()*1e-3, rng.NormFloat64())
	}
	for _, p := range Available() {
		prev := Use(p)
		for _, n := range []int{len(x), len(x) - 1, 7, 3, 0} {
			xs := x[len(x)-n:]
			got := make([]float64, n+2)
			Log1p(got, xs)
			for i, v := range xs {
				want := math.Log1p(v)
				if math.Float64bits(got[i]) != math.Float64bits(want) && !(math.IsNaN(got[i]) && math.IsNaN(want)) {
					t.Fatalf("%v: Log1p(%v [%#x]) = %v, want %v", p, v, math.Float64bits(v), got[i], want)
				}
			}
			if got[n] != 0 || got[n+1] != 0 {
				t.Fatalf("%v n=%d: wrote past x", p, n)
			}
		}
		Use(prev)
	}
}

// TestLog1pOutOfRange requires math.Log1p's bits from Log1p when the
// arguments are in the kernels' range but for one or two outside it (NaN,
// the range's ends, −1, large) at every position: the vector paths must
// replace every such argument, wherever the first one is.
func TestLog1pOutOfRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	out := []float64{math.NaN(), log1pSqrt2HalfM1, log1pSqrt2M1, -1, 3, math.Inf(1)}
	for _, p := range Available() {
		prev := Use(p)
		for _, n := range []int{8, 17, 40} {
			for i := range n {
				for j := i; j < n; j += 9 {
					x := make([]float64, n)
					for k := range x {
						x[k] = -0.01 * rng.Float64()
					}
					x[i] = out[rng.IntN(len(out))]
					x[j] = out[rng.IntN(len(out))]
					got := make([]float64, n)
					Log1p(got, x)
					for k, v := range x {
						want := math.Log1p(v)
						if math.Float64bits(got[k]) != math.Float64bits(want) && !(math.IsNaN(got[k]) && math.IsNaN(want)) {
							t.Fatalf("%v n=%d out at %d, %d: Log1p(%v) at %d = %v, want %v", p, n, i, j, v, k, got[k], want)
						}
					}
				}
			}
		}
		Use(prev)
	}
}

// BenchmarkLog1p times Log1p on 1,024 arguments of log(1 − ρ²), ρ² in
// [0, 0.01), on every path of the machine, against a loop of math.Log1p:
//
//	GOMAXPROCS=1 go test -run '^$' -bench Log1p ./internal/gemm
func BenchmarkLog1p(b *testing.B) {
	rng := rand.New(rand.NewPCG(10, 10))
	x, dst := make([]float64, 1024), make([]float64, 1024)
	for i := range x {
		x[i] = -0.01 * rng.Float64()
	}
	b.Run("math", func(b *testing.B) {
		for b.Loop() {
			for i, v := range x {
				dst[i] = math.Log1p(v)
			}
		}
	})
	for _, p := range Available() {
		prev := Use(p)
		b.Run(p.String(), func(b *testing.B) {
			for b.Loop() {
				Log1p(dst, x)
			}
		})
		Use(prev)
	}
}
