package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestScaleColsMark: every path gives the live mask (every byte), and on
// the live columns the scaled x and r, of MarkAbove and ScaleColsRange
// called as documented on the pure-Go path, for 1 to 12 rows, 0 to 40
// columns (every tail), every best, gaps of zero and ties, signed zeros,
// infinities and NaNs; and writes nothing past x, r or live.
func TestScaleColsMark(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1e300, -1e300, 5e-324}
	pick := func() float64 {
		if rng.IntN(40) == 0 {
			return special[rng.IntN(len(special))]
		}
		return rng.NormFloat64()
	}
	const c, f = 8, 0.3989422804014328
	for trial := range 5000 {
		k, m := 1+rng.IntN(12), rng.IntN(41)
		best := rng.IntN(k)
		x0, s, mu := make([]float64, k*m+1), make([]float64, m), make([]float64, k)
		for i := range x0 {
			x0[i] = pick() * 0.1
		}
		for j := range s {
			s[j] = math.Abs(pick())
		}
		for a := range mu {
			mu[a] = pick()
			if a > 0 && rng.IntN(4) == 0 {
				mu[a] = mu[a-1]
			}
		}
		mu[best] = math.Abs(mu[best]) + float64(rng.IntN(2)) // often the largest
		nl := (m + 3) / 4
		type out struct {
			x, r []float64
			live []uint8
		}
		run := func(p Path) out {
			prev := Use(p)
			defer Use(prev)
			o := out{append([]float64(nil), x0...), make([]float64, m+1), make([]uint8, nl+1)}
			o.r[m], o.live[nl] = 7, 0xa5
			for i := range nl {
				o.live[i] = 0xff // cleared by the call
			}
			ScaleColsMark(o.x, s, make([]float64, m), o.r[:m], mu, o.live[:nl], best, k, m, c, f)
			return o
		}
		want := run(PureGo)
		for _, p := range Available() {
			got := run(p)
			for i := range nl + 1 {
				if got.live[i] != want.live[i] {
					t.Fatalf("%v trial %d (k %d m %d best %d): live[%d] %#x, want %#x", p, trial, k, m, best, i, got.live[i], want.live[i])
				}
			}
			if got.r[m] != 7 || math.Float64bits(got.x[k*m]) != math.Float64bits(x0[k*m]) {
				t.Fatalf("%v: wrote past x or r", p)
			}
			for j := range m {
				if want.live[j/4]>>(j%4)&1 == 0 {
					continue
				}
				if math.Float64bits(got.r[j]) != math.Float64bits(want.r[j]) && !(math.IsNaN(got.r[j]) && math.IsNaN(want.r[j])) {
					t.Fatalf("%v trial %d column %d: r %v, want %v", p, trial, j, got.r[j], want.r[j])
				}
				for a := range k {
					if math.Float64bits(got.x[a*m+j]) != math.Float64bits(want.x[a*m+j]) {
						t.Fatalf("%v trial %d column %d row %d: %v, want %v", p, trial, j, a, got.x[a*m+j], want.x[a*m+j])
					}
				}
			}
		}
	}
}
