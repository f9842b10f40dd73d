package algorithms

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/gemm"
)

// TestTargetKGAdd: gemm.SlopeKeys' count with tgKGAdd defers the same
// calls and segments, bit for bit, as kgScratch.add when the count is at
// least 2, and no segment otherwise, over random lines with ties, zeros,
// NaN and infinite values mixed in.
func TestTargetKGAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 17))
	special := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 1e-300}
	var ws, want kgScratch
	ws.keys = new([16]int64)
	added := 0
	for trial := range 20000 {
		K := 2 + rng.IntN(kgNetArms-1)
		mu, b := make([]float64, K), make([]float64, K)
		for a := range K {
			mu[a] = float64(rng.IntN(5)) + rng.NormFloat64()*float64(trial%3)
			b[a] = float64(rng.IntN(3)) * math.Pow(10, float64(rng.IntN(5)-4))
			if trial%2 == 0 {
				b[a] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(5)-4))
			}
			if rng.IntN(20) == 0 {
				b[a] = special[rng.IntN(len(special))]
			}
			if rng.IntN(40) == 0 {
				mu[a] = special[rng.IntN(len(special))]
			}
		}
		best := plusArgmax(mu)
		n := gemm.SlopeKeys(ws.keys, mu, b, best)
		want.add(trial, mu, b, best)
		if n < 2 {
			if c := want.calls[len(want.calls)-1]; c.segs != 0 {
				t.Fatalf("trial %d: %d lines pass, but plusKG has %d segments", trial, n, c.segs)
			}
			want.calls, want.db, want.cs = want.calls[:0], want.db[:0], want.cs[:0]
			continue
		}
		added++
		tgKGAdd(&ws, trial, mu, b, n)
		if ws.calls[0] != want.calls[0] || len(ws.db) != len(want.db) || len(ws.cs) != len(want.cs) {
			t.Fatalf("trial %d: call %v, %d segments; want %v, %d", trial, ws.calls[0], len(ws.db), want.calls[0], len(want.db))
		}
		for k := range ws.db {
			if math.Float64bits(ws.db[k]) != math.Float64bits(want.db[k]) || math.Float64bits(ws.cs[k]) != math.Float64bits(want.cs[k]) {
				t.Fatalf("trial %d segment %d: (%v, %v), want (%v, %v)", trial, k, ws.db[k], ws.cs[k], want.db[k], want.cs[k])
			}
		}
		ws.calls, ws.db, ws.cs = ws.calls[:0], ws.db[:0], ws.cs[:0]
		want.calls, want.db, want.cs = want.calls[:0], want.db[:0], want.cs[:0]
	}
	if added == 0 || added == 20000 {
		t.Errorf("%d of 20000 trials add: the test does not cover both cases", added)
	}
}
