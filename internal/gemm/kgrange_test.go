package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestScaleColsRange: every path gives the bits of a column-by-column
// reference (kgScratch.keep's loop) on the live columns, for 1 to 16 rows,
// 0 to 40 columns (every tail), random live masks, ties, signed zeros,
// infinities and NaNs of both signs; and writes nothing past x or r.
func TestScaleColsRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	nanNeg := math.Float64frombits(math.Float64bits(math.NaN()) | 1<<63)
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), nanNeg, 1e300, -1e300, 5e-324, -5e-324}
	const f = 0.3989422804014328
	for trial := range 5000 {
		k, m := 1+rng.IntN(16), rng.IntN(41)
		x0, s := make([]float64, k*m+1), make([]float64, m)
		for i := range x0 {
			switch r := rng.IntN(30); {
			case r == 0:
				x0[i] = special[rng.IntN(len(special))]
			case r < 4 && i > 0:
				x0[i] = x0[rng.IntN(i)]
			default:
				x0[i] = rng.NormFloat64()
			}
		}
		for j := range s {
			s[j] = math.Abs(rng.NormFloat64())
			if rng.IntN(20) == 0 {
				s[j] = special[rng.IntN(len(special))]
			}
		}
		live := make([]uint8, (m+3)/4)
		for i := range live {
			live[i] = uint8(rng.IntN(256))
		}
		if trial%3 == 0 {
			for i := range live {
				live[i] = 15
			}
		}
		want, wr := append([]float64(nil), x0...), make([]float64, m)
		for j := range m {
			lo, hi := math.Inf(1), math.Inf(-1)
			lok, hik := int64(math.MaxInt64), int64(math.MinInt64)
			for a := range k {
				v := want[a*m+j] * s[j]
				want[a*m+j] = v
				if o := rangeKey(v); o < lok {
					lok, lo = o, v
				}
				if o := rangeKey(v); o > hik {
					hik, hi = o, v
				}
			}
			wr[j] = (hi - lo) * f
		}
		for _, p := range Available() {
			prev := Use(p)
			x := append([]float64(nil), x0...)
			r := make([]float64, m+1)
			r[m] = float64(trial)
			ScaleColsRange(x, s, r, live, k, m, f)
			Use(prev)
			for j := range m {
				if live[j/4]>>(j%4)&1 == 0 {
					continue
				}
				if math.Float64bits(r[j]) != math.Float64bits(wr[j]) && !(math.IsNaN(r[j]) && math.IsNaN(wr[j])) {
					t.Fatalf("%v trial %d (k %d m %d) column %d: r %v, want %v", p, trial, k, m, j, r[j], wr[j])
				}
				for a := range k {
					if math.Float64bits(x[a*m+j]) != math.Float64bits(want[a*m+j]) {
						t.Fatalf("%v trial %d column %d row %d: %v, want %v", p, trial, j, a, x[a*m+j], want[a*m+j])
					}
				}
			}
			if r[m] != float64(trial) || math.Float64bits(x[k*m]) != math.Float64bits(x0[k*m]) {
				t.Fatalf("%v: wrote past x or r", p)
			}
		}
	}
}

// BenchmarkScaleColsRange: a 10 × 32 block (knowledgeGradient's on the
// paper's pool) on every path, all columns live.
func BenchmarkScaleColsRange(b *testing.B) {
	const k, m = 10, 32
	rng := rand.New(rand.NewPCG(5, 6))
	x, s, r := make([]float64, k*m), make([]float64, m), make([]float64, m)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	for j := range s {
		s[j] = 1
	}
	live := make([]uint8, m/4)
	for i := range live {
		live[i] = 15
	}
	for _, p := range Available() {
		b.Run(fmt.Sprintf("path=%v", p), func(b *testing.B) {
			prev := Use(p)
			defer Use(prev)
			for b.Loop() {
				ScaleColsRange(x, s, r, live, k, m, 1)
			}
		})
	}
}
