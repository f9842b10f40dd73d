package gram

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/neural-adb/nadb/internal/mlp"
)

// TestPrepareArgmaxPrunesExactly runs PrepareArgmax over the fresh
// contexts in a random walk order and in order (whose panels hold
// consecutive contexts, whose kernel rows are read in place), with and
// without a restriction of the pairs, against a stream that solves everything: every context it solves
// has the reference block bit for bit; every other has a bound at least its
// exact largest pair norm and below the largest exact norm before it in the
// walk (so the walk skips it without changing its result); some contexts
// are dropped; and a dropped context asked for later gets the reference
// block.
func TestPrepareArgmaxPrunesExactly(t *testing.T) {
	const K, rounds, m = 4, 2*pruneMinUpdates + 13, 48
	a := mlp.Arch{In: 5, Width: 8, Depth: 2}
	var fresh []int
	for c := range m {
		fresh = append(fresh, rounds+c)
	}
	ref := streamWithUpdates(t, ntkRig(t, rounds+m, K, a, mlp.InitMirrored), rounds, fresh)
	ref.SolveAll()
	for _, tc := range []struct{ restrict, inOrder bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		restrict := tc.restrict
		var ok func(c, a, b int) bool
		if restrict {
			ok = func(c, a, b int) bool { return (c+a+b)%3 != 0 }
		}
		exact := func(c int) float64 {
			q := ref.q[c*K*K : (c+1)*K*K]
			v := math.Inf(-1)
			for a := range K {
				for b := a + 1; b < K; b++ {
					if ok == nil || ok(c, a, b) {
						v = max(v, q[a*K+a]+q[b*K+b]-2*q[a*K+b])
					}
				}
			}
			return max(v, 0)
		}
		s := streamWithUpdates(t, ntkRig(t, rounds+m, K, a, mlp.InitMirrored), rounds, fresh)
		order := rand.New(rand.NewPCG(5, uint64(len(fresh)))).Perm(m)
		if tc.inOrder {
			slices.Sort(order)
		}
		s.PrepareArgmax(order, ok)
		run, dropped := math.Inf(-1), 0
		for _, c := range order {
			bound, solved := s.MaxPairBound(c)
			if solved {
				if !slices.Equal(s.q[c*K*K:(c+1)*K*K], ref.q[c*K*K:(c+1)*K*K]) {
					t.Fatalf("restrict=%v: context %d solved by PrepareArgmax differs from SolveAll", restrict, c)
				}
				run = max(run, exact(c))
				continue
			}
			if s.where[c] >= 0 {
				t.Fatalf("restrict=%v: context %d left half solved", restrict, c)
			}
			dropped++
			if !(bound >= exact(c)) || !(bound < run) {
				t.Fatalf("restrict=%v: context %d dropped with bound %v, exact norm %v, running maximum %v", restrict, c, bound, exact(c), run)
			}
		}
		if dropped == 0 {
			t.Errorf("restrict=%v: no context dropped", restrict)
		}
		for _, c := range order {
			if !slices.Equal(s.Block(c), ref.q[c*K*K:(c+1)*K*K]) {
				t.Fatalf("restrict=%v: context %d solved after PrepareArgmax differs from SolveAll", restrict, c)
			}
		}
		t.Logf("restrict=%v, in order=%v: %d of %d contexts dropped", restrict, tc.inOrder, dropped, m)
	}
}
