package gemm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/logistic"
)

// TestSigmoidToBitIdentical requires logistic.Sigmoid's bits from SigmoidTo
// on every path of the machine, for values across the whole range (signed
// zeros, subnormals, the kernel's bound ±700 and beyond, infinities and NaN)
// and lengths around the vectors.
func TestSigmoidToBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 11))
	special := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1e-300, -1e-300, 0.5, -0.5,
		699.9999999999999, 700, -700, math.Nextafter(700, 800), -math.Nextafter(700, 800),
		708, -708, 709.8, -709.8, 745.2, -745.2, 800, -800, 1e300, -1e300,
		math.Inf(1), math.Inf(-1), math.NaN()}
	value := func() float64 {
		switch rng.IntN(4) {
		case 0:
			return special[rng.IntN(len(special))]
		case 1:
			return (rng.Float64()*2 - 1) * 40
		case 2:
			return (rng.Float64()*2 - 1) * 720
		default:
			return rng.NormFloat64() * math.Ldexp(1, rng.IntN(41)-30)
		}
	}
	for _, p := range Available() {
		prev := Use(p)
		for _, n := range []int{0, 1, 7, 8, 9, 16, 31, 100, 1000} {
			for range 20 {
				x := make([]float64, n)
				for i := range x {
					x[i] = value()
				}
				dst := make([]float64, n+2)
				dst[n], dst[n+1] = -3, -3
				SigmoidTo(dst, x)
				for i, v := range x {
					if got, want := math.Float64bits(dst[i]), math.Float64bits(logistic.Sigmoid(v)); got != want {
						t.Fatalf("%v n=%d: SigmoidTo(%v) bits %#x (%v), want %#x", p, n, v, got, dst[i], want)
					}
				}
				if dst[n] != -3 || dst[n+1] != -3 {
					t.Fatalf("%v n=%d: wrote past dst", p, n)
				}
			}
		}
		// A dense sweep of [−40, 40] and of the bound.
		x := make([]float64, 0, 1<<16)
		for i := range 1 << 15 {
			x = append(x, -40+80*float64(i)/(1<<15), 690+15*float64(i)/(1<<15)*float64(1-2*(i&1)))
		}
		dst := make([]float64, len(x))
		SigmoidTo(dst, x)
		for i, v := range x {
			if got, want := math.Float64bits(dst[i]), math.Float64bits(logistic.Sigmoid(v)); got != want {
				t.Fatalf("%v: SigmoidTo(%v) bits %#x, want %#x", p, v, got, want)
			}
		}
		Use(prev)
	}
}
