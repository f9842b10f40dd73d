package gram

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/mlp"
)

// TestMaxPairBound reads the bound of random contexts between updates and
// then the value itself: the bound must never be below it, must equal it bit
// for bit when it says so (a current context, or no allowed pair), and must
// say so exactly when the context is current.
func TestMaxPairBound(t *testing.T) {
	const contexts, arms, updates = 30, 5, 300
	p := newPool(t, 21, contexts, arms, mlp.Arch{In: 4, Width: 8, Depth: 2}, false)
	k := &Dense{N: p.feat.Rows(), Data: p.feat.GramTo(nil)}
	c := New(k, contexts, arms, 0.6)
	c.RefreshEvery = 70
	rng := rand.New(rand.NewPCG(22, 22))
	filters := []func(a, b int) bool{
		nil,
		func(a, b int) bool { return (a+b)%2 == 1 },
		func(a, b int) bool { return false },
	}
	inexact := 0
	for range updates {
		pr := randomPairs(rng, contexts, arms, 1)[0]
		c.Add(pr[0], pr[1])
		for range 4 {
			ctx, f := rng.IntN(contexts), rng.IntN(len(filters))
			if rng.IntN(3) == 0 {
				c.MaxPairBound(rng.IntN(contexts), nil) // fill the cache of another context
			}
			ok := filters[f]
			current := c.ver[ctx] == len(c.pairs) || c.stale // a pending refresh runs first
			bound, exact := c.MaxPairBound(ctx, ok)
			if again, ex := c.MaxPairBound(ctx, ok); math.Float64bits(again) != math.Float64bits(bound) || ex != exact {
				t.Fatalf("context %d, filter %d: a second bound %v (%v) after %v (%v)", ctx, f, again, ex, bound, exact)
			}
			var v float64
			if ok == nil {
				_, _, v = c.MaxPair(ctx)
			} else {
				_, _, v = c.MaxPairFunc(ctx, ok)
			}
			switch {
			case exact && math.Float64bits(bound) != math.Float64bits(v):
				t.Fatalf("context %d, filter %d: exact bound %v, value %v", ctx, f, bound, v)
			case v > bound:
				t.Fatalf("context %d, filter %d: value %v above its bound %v", ctx, f, v, bound)
			case current != exact && f != 2:
				t.Fatalf("context %d, filter %d: exact = %v for a context that is current = %v", ctx, f, exact, current)
			}
			if !exact {
				inexact++
			}
		}
	}
	if inexact < updates {
		t.Fatalf("only %d bounds of contexts behind the updates", inexact)
	}
}
