package gram

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPrimalMatchesKernelRoute: on raw features, the explicit V⁻¹ gives the
// blocks of the kernel route to rounding, for pair and single-row updates.
func TestPrimalMatchesKernelRoute(t *testing.T) {
	const contexts, arms, dim = 7, 4, 3
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, contexts*arms*dim)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	row := func(n int) []float64 { return x[n*dim : (n+1)*dim] }
	ref := New(NewCached(&Linear{X: x, Dim: dim}), contexts, arms, 0.7)
	pr := NewPrimal(dim, arms, 0.7, row)
	for s := range 40 {
		i := rng.IntN(contexts * arms)
		if s%5 == 4 {
			ref.AddRow(i)
			pr.AddRow(i)
			continue
		}
		j := (i/arms)*arms + (i%arms+1+rng.IntN(arms-1))%arms
		ref.Add(i, j)
		pr.Add(i, j)
	}
	for c := range contexts {
		want := ref.Block(c)
		got := pr.Block(c)
		for k := range want {
			if d := math.Abs(got[k] - want[k]); d > 1e-10*math.Max(1, math.Abs(want[k])) {
				t.Fatalf("context %d entry %d: primal %v, kernel route %v", c, k, got[k], want[k])
			}
		}
		a1, b1, n1 := ref.MaxPair(c)
		a2, b2, n2 := pr.MaxPair(c)
		if a1 != a2 || b1 != b2 || math.Abs(n1-n2) > 1e-10 {
			t.Fatalf("context %d: MaxPair (%d,%d,%v) vs (%d,%d,%v)", c, a2, b2, n2, a1, b1, n1)
		}
	}
}
