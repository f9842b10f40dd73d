package gemm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/xmath"
)

// TestNormalLossBitIdentical: NormalLoss gives normalLoss1's bits on every
// available path, for values at and a few ulps around the boundaries of
// math.Erfc's ranges (in c = √2·x) and of the kernel's, random values from
// 1e-300 to 40, signed zeros, subnormals, negative values, infinities and
// NaN, at lengths around the vector width.
func TestNormalLossBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var cs []float64
	for _, x := range []float64{1.0 / (1 << 56), 0.25, 0.84375, 1.25, 1 / 0.35, 6, 28} {
		for _, c := range []float64{x * math.Sqrt2, x * 1.4142135623730951} {
			for _, dir := range []float64{-1, 1} {
				v := c
				for range 6 {
					cs = append(cs, v)
					v = math.Nextafter(v, math.Inf(int(dir)))
				}
			}
		}
	}
	for _, c := range []float64{37, 36.999999, 38.5, 39.6, 40} {
		cs = append(cs, c, math.Nextafter(c, 0), math.Nextafter(c, 100))
	}
	cs = append(cs, 0, math.Copysign(0, -1), 5e-324, 1e-310, -1, -1e-300, math.Inf(1), math.Inf(-1), math.NaN())
	for range 200000 {
		switch rng.IntN(3) {
		case 0:
			cs = append(cs, 40*rng.Float64())
		case 1:
			cs = append(cs, 4*rng.Float64())
		default:
			cs = append(cs, math.Pow(10, -300*rng.Float64()))
		}
	}
	rng.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
	for _, p := range Available() {
		prev := Use(p)
		for _, n := range []int{len(cs), 1, 7, 8, 9, 15, 16, 17} {
			got := make([]float64, n)
			NormalLoss(got, cs[:n])
			for i, c := range cs[:n] {
				want := float64(0.5*xmath.Erfc(c/math.Sqrt2)*(-c)) + xmath.Exp(-c*c/2)/math.Sqrt(2*math.Pi)
				if math.Float64bits(got[i]) != math.Float64bits(want) && !(math.IsNaN(got[i]) && math.IsNaN(want)) {
					t.Fatalf("%v, c = %v (%#x): %v (%#x), want %v (%#x)", p, c, math.Float64bits(c), got[i], math.Float64bits(got[i]), want, math.Float64bits(want))
				}
			}
		}
		Use(prev)
	}
}

func BenchmarkNormalLoss(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	c := make([]float64, 256)
	for i := range c {
		c[i] = 6 * rng.Float64()
	}
	dst := make([]float64, len(c))
	for _, p := range Available() {
		b.Run(p.String(), func(b *testing.B) {
			prev := Use(p)
			defer Use(prev)
			for b.Loop() {
				NormalLoss(dst, c)
			}
		})
	}
}
