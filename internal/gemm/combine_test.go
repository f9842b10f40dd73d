package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCombineBitIdentical runs ScaleShift, AddProduct, Axpy and ScaleTo on every
// path of this machine over lengths around the vector blocks, with values of
// varied magnitude (signed zeros, subnormals, huge values), and requires the
// bits of the formulas evaluated one correctly rounded operation at a time.
func TestCombineBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	special := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1e-300, 1e300, -1e300, 1, -1}
	mix := func(n int) []float64 {
		x := randSlice(rng, n)
		for i := range x {
			if rng.IntN(5) == 0 {
				x[i] = special[rng.IntN(len(special))]
			}
		}
		return x
	}
	for _, p := range Available() {
		prev := Use(p)
		for n := range 40 {
			a, b, c := rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
			if n%3 == 0 {
				a, b, c = 2, 2, 0 // the constants of the kernel entries
			}
			x, d, h := mix(n), mix(n), mix(n)
			got, want := append([]float64(nil), x...), append([]float64(nil), x...)
			ScaleShift(got, a, b)
			for i, v := range want {
				prod := float64(a * v) // float64: no fused multiply–add (GOAMD64=v3, arm64)
				want[i] = prod + b
			}
			checkBits(t, p, "ScaleShift", n, got, want)
			got, want = append([]float64(nil), x...), append([]float64(nil), x...)
			AddProduct(got, d, h, a, b, c)
			for i := range want {
				l := a * d[i]
				r := float64(b * h[i])
				r += c
				l = float64(l * r)
				want[i] += l
			}
			checkBits(t, p, "AddProduct", n, got, want)
			got, want = append([]float64(nil), x...), append([]float64(nil), x...)
			Axpy(got, d, a)
			for i := range want {
				prod := float64(a * d[i])
				want[i] += prod
			}
			checkBits(t, p, "Axpy", n, got, want)
			got = make([]float64, n)
			ScaleTo(got, x, a)
			for i, v := range x {
				want[i] = v * a
			}
			checkBits(t, p, "ScaleTo", n, got, want[:n])
		}
		Use(prev)
	}
}

func checkBits(t *testing.T, p Path, name string, n int, got, want []float64) {
	t.Helper()
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
			t.Fatalf("%v %s n=%d: element %d = %v, want %v", p, name, n, i, got[i], want[i])
		}
	}
}

// TestMarkAboveBitIdentical runs MarkAbove on every path over lengths
// around the groups of 4, with thresholds that split the values and special
// values (zeros, NaN, infinities), and requires the bits the comparison
// gives one element at a time, the other bits of the mask kept.
func TestMarkAboveBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	special := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 5e-324, 1e300}
	for _, p := range Available() {
		prev := Use(p)
		for n := range 30 {
			x, s, y := randSlice(rng, n), randSlice(rng, n), randSlice(rng, n)
			for i := range x {
				if rng.IntN(6) == 0 {
					x[i] = special[rng.IntN(len(special))]
				}
			}
			g := math.Abs(rng.NormFloat64())
			mask := make([]uint8, (n+3)/4)
			for i := range mask {
				mask[i] = uint8(rng.IntN(16)) & 0b1010 // bits already set stay set
			}
			want := append([]uint8(nil), mask...)
			for j := range n {
				d := x[j] * s[j]
				d -= y[j]
				if g < 8*math.Abs(d) {
					want[j/4] |= 1 << (j % 4)
				}
			}
			MarkAbove(mask, x, s, y, 8, g)
			for i := range want {
				if mask[i] != want[i] {
					t.Fatalf("%v n=%d: mask byte %d = %04b, want %04b", p, n, i, mask[i], want[i])
				}
			}
		}
		Use(prev)
	}
}
