package gram

import (
	"math"
	"slices"
	"testing"

	"github.com/neural-adb/nadb/internal/gemm"
	"github.com/neural-adb/nadb/internal/mlp"
)

// TestStreamPathsAgree builds the same Stream on every kernel path of the
// machine (package gemm: the pure-Go twin and the vector kernels) and
// requires bit-identical factors L, vectors r̃ and blocks: the fresh-context
// confidence must not depend on the processor. The rounds span several
// blocks of L and the fresh rows several batches, with blocks asked for
// one at a time and in batches.
func TestStreamPathsAgree(t *testing.T) {
	type result struct{ l, r, q []float64 }
	run := func() result {
		const K, rounds, m = 5, 110, 60
		var fresh []int
		for c := range m {
			fresh = append(fresh, rounds+c)
		}
		rig := ntkRig(t, rounds+m, K, mlp.Arch{In: 4, Width: 8, Depth: 2, Bias: true}, mlp.InitHe)
		s := streamWithUpdates(t, rig, rounds, fresh)
		s.AddRow(17)
		s.Add(40, 3)
		s.Block(m - 1) // alone
		s.Block(5)     // with the contexts after it
		_, _, r := s.FreshR()
		n := s.Len()
		l := make([]float64, 0, n*(n+1)/2)
		for i := range n {
			l = append(l, s.l[i*s.ld:i*s.ld+i+1]...)
		}
		return result{l: l, r: slices.Clone(r), q: slices.Clone(s.q)}
	}
	prev := gemm.Use(gemm.PureGo)
	want := run()
	gemm.Use(prev)
	for _, p := range gemm.Available()[1:] {
		prev := gemm.Use(p)
		got := run()
		gemm.Use(prev)
		for _, c := range []struct {
			name      string
			got, want []float64
		}{{"L", got.l, want.l}, {"r̃", got.r, want.r}, {"blocks", got.q, want.q}} {
			if len(c.got) != len(c.want) {
				t.Fatalf("%v: %s has %d values, pure Go %d", p, c.name, len(c.got), len(c.want))
			}
			for i := range c.want {
				if math.Float64bits(c.got[i]) != math.Float64bits(c.want[i]) {
					t.Fatalf("%v: %s[%d] = %v, pure Go gives %v", p, c.name, i, c.got[i], c.want[i])
				}
			}
		}
	}
}
