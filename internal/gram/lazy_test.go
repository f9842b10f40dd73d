package gram

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/mlp"
)

// sameBits reports whether x and y hold the same float64 bit patterns.
func sameBits(x, y []float64) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
			return false
		}
	}
	return true
}

// compareReads compares every read of a and b (blocks, pair and row norms,
// max pairs with and without a predicate, the last r̃) bit for bit.
func compareReads(t *testing.T, when string, a, b *Confidence, rng *rand.Rand) {
	t.Helper()
	K := a.Arms
	// Read in a random order of methods so that each kind of read is the
	// first one after an update (and so settles the refresh) some of the time.
	for _, m := range rng.Perm(5) {
		switch m {
		case 0:
			for ctx := range a.Contexts {
				if !sameBits(a.Block(ctx), b.Block(ctx)) {
					t.Fatalf("%s: Block(%d) differs", when, ctx)
				}
			}
		case 1:
			for ctx := range a.Contexts {
				for x := range K {
					if g, w := a.RowNorm2(ctx, x), b.RowNorm2(ctx, x); math.Float64bits(g) != math.Float64bits(w) {
						t.Fatalf("%s: RowNorm2(%d, %d) = %v, want %v", when, ctx, x, g, w)
					}
					for y := range K {
						if g, w := a.Norm2(ctx, x, y), b.Norm2(ctx, x, y); math.Float64bits(g) != math.Float64bits(w) {
							t.Fatalf("%s: Norm2(%d, %d, %d) = %v, want %v", when, ctx, x, y, g, w)
						}
					}
				}
			}
		case 2:
			for ctx := range a.Contexts {
				ga, gb, gv := a.MaxPair(ctx)
				wa, wb, wv := b.MaxPair(ctx)
				if ga != wa || gb != wb || math.Float64bits(gv) != math.Float64bits(wv) {
					t.Fatalf("%s: MaxPair(%d) = (%d, %d, %v), want (%d, %d, %v)", when, ctx, ga, gb, gv, wa, wb, wv)
				}
			}
		case 3:
			ok := func(x, y int) bool { return (x+y)%3 != 0 }
			for ctx := range a.Contexts {
				ga, gb, gv := a.MaxPairFunc(ctx, ok)
				wa, wb, wv := b.MaxPairFunc(ctx, ok)
				if ga != wa || gb != wb || math.Float64bits(gv) != math.Float64bits(wv) {
					t.Fatalf("%s: MaxPairFunc(%d) = (%d, %d, %v), want (%d, %d, %v)", when, ctx, ga, gb, gv, wa, wb, wv)
				}
			}
		case 4:
			if !sameBits(a.Row(), b.Row()) {
				t.Fatalf("%s: Row differs", when)
			}
		}
	}
}

// TestLazyRefreshMatchesEager drives a lazily refreshing instance
// (RefreshEvery) and one refreshed explicitly right after the same updates
// through a random sequence of pair and row updates crossing several
// refreshes, reading after some updates and not after others, and requires
// every read to agree bit for bit. It also checks that a scheduled refresh
// that nothing reads is never run.
func TestLazyRefreshMatchesEager(t *testing.T) {
	const contexts, arms, every, updates = 12, 4, 7, 60
	for _, dense := range []bool{false, true} {
		t.Run(fmt.Sprintf("dense=%v", dense), func(t *testing.T) {
			p := newPool(t, 11, contexts, arms, mlp.Arch{In: 3, Width: 6, Depth: 2}, false)
			var k Kernel = NewCached(p.feat)
			if dense {
				k = &Dense{N: p.feat.Rows(), Data: p.feat.GramTo(nil)}
			}
			lazy := New(k, contexts, arms, 0.7)
			lazy.RefreshEvery = every
			eager := New(k, contexts, arms, 0.7)
			rng := rand.New(rand.NewPCG(12, 12))
			refreshes, skipped := 0, 0
			for s := range updates {
				if rng.IntN(4) == 0 {
					i := rng.IntN(contexts * arms)
					lazy.AddRow(i)
					eager.AddRow(i)
				} else {
					pr := randomPairs(rng, contexts, arms, 1)[0]
					lazy.Add(pr[0], pr[1])
					eager.Add(pr[0], pr[1])
				}
				if (s+1)%every == 0 {
					if err := eager.Refresh(); err != nil {
						t.Fatal(err)
					}
					if !lazy.stale {
						t.Fatalf("after update %d: no refresh scheduled", s+1)
					}
					refreshes++
				}
				if rng.IntN(3) == 0 {
					if lazy.stale {
						skipped++ // the next update runs it
					}
					continue
				}
				compareReads(t, fmt.Sprintf("after update %d", s+1), lazy, eager, rng)
				if lazy.stale {
					t.Fatalf("after update %d: a read left the refresh pending", s+1)
				}
			}
			if refreshes < 5 || skipped == 0 {
				t.Fatalf("the sequence crossed %d refreshes, %d of them run by an update; want ≥ 5 and ≥ 1", refreshes, skipped)
			}
			// Bring the count to the next multiple of every without reading:
			// the refresh this schedules stays pending until the reads.
			pr := randomPairs(rng, contexts, arms, every-updates%every)
			for _, x := range pr {
				lazy.Add(x[0], x[1])
				eager.Add(x[0], x[1])
			}
			if err := eager.Refresh(); err != nil {
				t.Fatal(err)
			}
			if !lazy.stale {
				t.Fatal("the refresh after the last update ran without a read")
			}
			compareReads(t, "after the last update", lazy, eager, rng)
		})
	}
}
