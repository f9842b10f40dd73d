package gram_test

import (
	"fmt"

	"github.com/neural-adb/nadb/internal/gram"
)

// ExampleStream plays two rounds of the fresh-context protocol with the
// linear kernel: each round two fresh contexts of two arms are drawn, the
// context with the most uncertain pair is queried and committed, and its pair
// joins V.
func ExampleStream() {
	k := gram.NewLinearStream(2)
	s := gram.NewStream(k, 2, 1) // two arms, V = 1·I + Σ ψψᵀ
	rounds := [][]float64{
		{1, 0, 0, 1 /* context 0 */, 1, 1, 1, 1 /* context 1: twin arms */},
		{0, 1, 1, 0 /* context 0 */, 2, 0, 0, 0 /* context 1 */},
	}
	for r, x := range rounds {
		k.SetFresh(x)
		s.SetFresh(2)
		best, bestNorm := 0, -1.0
		for c := range 2 {
			_, _, v := s.MaxPair(c)
			fmt.Printf("round %d, context %d: ‖φ_0 − φ_1‖²_{V⁻¹} = %.4f\n", r, c, v)
			if v > bestNorm {
				best, bestNorm = c, v
			}
		}
		n := k.Committed()
		k.Commit(x[best*4 : (best+1)*4]) // the queried context's rows become rows n, n+1
		s.Add(n, n+1)
	}
	fmt.Println("updates:", s.Len())
	// Output:
	// round 0, context 0: ‖φ_0 − φ_1‖²_{V⁻¹} = 2.0000
	// round 0, context 1: ‖φ_0 − φ_1‖²_{V⁻¹} = 0.0000
	// round 1, context 0: ‖φ_0 − φ_1‖²_{V⁻¹} = 0.6667
	// round 1, context 1: ‖φ_0 − φ_1‖²_{V⁻¹} = 2.6667
	// updates: 2
}
