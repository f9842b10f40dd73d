package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSlopeKeys: every path gives slopeKeysGo's keys and count, for 1 to 16
// arms, any best, ties, signed zeros, infinities and NaNs; and the keys
// without their low 4 bits never order two passing slopes the wrong way.
func TestSlopeKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1e300, -1e300, 5e-324, -5e-324}
	pick := func(prev []float64) float64 {
		switch r := rng.IntN(12); {
		case r == 0:
			return special[rng.IntN(len(special))]
		case r < 3 && len(prev) > 0:
			return prev[rng.IntN(len(prev))]
		default:
			return rng.NormFloat64()
		}
	}
	for trial := range 100000 {
		n := 1 + rng.IntN(16)
		mu, b := make([]float64, n), make([]float64, n)
		for a := range n {
			mu[a], b[a] = pick(mu[:a]), pick(b[:a])
		}
		best := rng.IntN(n)
		var want [16]int64
		wn := slopeKeysGo(&want, mu, b, best)
		for _, p := range Available() {
			prev := Use(p)
			var got [16]int64
			for i := range got {
				got[i] = int64(trial) // overwritten
			}
			gn := SlopeKeys(&got, mu, b, best)
			Use(prev)
			if gn != wn || got != want {
				t.Fatalf("%v: mu %v b %v best %d: %d %x, want %d %x", p, mu, b, best, gn, got, wn, want)
			}
		}
		for a := range n {
			for c := range n {
				if want[a] != math.MaxInt64 && want[c] != math.MaxInt64 && b[a] < b[c] && want[a]&^15 > want[c]&^15 {
					t.Fatalf("b %v: keys %x out of order", b, want)
				}
			}
		}
	}
}
