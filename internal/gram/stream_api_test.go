package gram

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/neural-adb/nadb/internal/mlp"
)

// streamWithUpdates returns a Stream over a gradient-feature rig after
// `rounds` rounds of the protocol with one pair update each, with the fresh
// rows set to the given pool contexts.
func streamWithUpdates(t *testing.T, rig *streamRig, rounds int, fresh []int) *Stream {
	K := rig.arms
	s := NewStream(rig.kernel, K, 1)
	rng := rand.New(rand.NewPCG(17, 1))
	for c := range rounds {
		rig.commit(c)
		a := rng.IntN(K)
		s.Add(c*K+a, c*K+(a+1+rng.IntN(K-1))%K)
	}
	rig.fresh(fresh)
	s.SetFresh(len(fresh))
	return s
}

// TestStreamLazyEqualsBatched checks that a block is the same, bit for bit,
// whether its context is solved alone, in a run with others, or in SolveAll.
func TestStreamLazyEqualsBatched(t *testing.T) {
	const K, rounds, m = 5, 70, 60 // t spans several blocks of L; m·K rows span several batches
	var fresh []int
	for c := range m {
		fresh = append(fresh, rounds+c)
	}
	rig := ntkRig(t, rounds+m, K, mlp.Arch{In: 4, Width: 8, Depth: 2}, mlp.InitHe)
	all := streamWithUpdates(t, rig, rounds, fresh)
	all.SolveAll()
	_, _, want := all.FreshR()
	want = slices.Clone(want)
	wantQ := slices.Clone(all.q)

	rig2 := ntkRig(t, rounds+m, K, mlp.Arch{In: 4, Width: 8, Depth: 2}, mlp.InitHe)
	lazy := streamWithUpdates(t, rig2, rounds, fresh)
	rng := rand.New(rand.NewPCG(3, 3))
	order := rng.Perm(m)
	for _, c := range order[:m/2] { // half one at a time, in random order
		lazy.Block(c)
	}
	_, _, got := lazy.FreshR() // the rest in runs
	if !slices.Equal(got, want) || !slices.Equal(lazy.q, wantQ) {
		t.Fatal("blocks or r̃ solved one context at a time differ from SolveAll")
	}
}

// TestStreamSetFreshInvalidates replaces the fresh rows by others of the same
// count: every block must be recomputed, never served from the last round.
func TestStreamSetFreshInvalidates(t *testing.T) {
	const K = 4
	rig := ntkRig(t, 20, K, mlp.Arch{In: 3, Width: 6, Depth: 2}, mlp.InitMirrored)
	s := streamWithUpdates(t, rig, 6, []int{10, 11})
	conf := New(rig.pool, 20, K, 1)
	for _, u := range s.ups { // committed context k is pool context k
		conf.Add(u.i, u.j)
	}
	first := slices.Clone(s.Block(0))
	if e := relErr(first, conf.Block(10)); e > 1e-10 {
		t.Fatalf("round 1: relative error %.3g", e)
	}
	rig.fresh([]int{15, 16})
	s.SetFresh(2)
	for c, pc := range []int{15, 16} {
		if e := relErr(s.Block(c), conf.Block(pc)); e > 1e-10 {
			t.Fatalf("round 2, context %d: relative error %.3g (stale block?)", c, e)
		}
	}
	if slices.Equal(first, s.Block(0)) {
		t.Fatal("round 2 returned round 1's block")
	}
}

// TestStreamMaxPairTies uses rows whose pair norms tie exactly: the first
// pair in row-major order wins, as in Confidence.
func TestStreamMaxPairTies(t *testing.T) {
	x := []float64{
		1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, // ‖·‖² of pairs: 0, 2, 2, 2, 2, 2 → (0, 2)
		0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, // 0, 1, 4, 1, 4, 5 → (2, 3)
	}
	k := NewLinearStream(3)
	k.SetFresh(x)
	s := NewStream(k, 4, 1)
	s.SetFresh(2)
	conf := New(NewCached(&Linear{X: x, Dim: 3}), 2, 4, 1)
	for c, want := range [][3]float64{{0, 2, 2}, {2, 3, 5}} {
		a, b, v := s.MaxPair(c)
		if a != int(want[0]) || b != int(want[1]) || v != want[2] {
			t.Errorf("context %d: MaxPair = (%d, %d, %g), want %v", c, a, b, v, want)
		}
		if ca, cb, cv := conf.MaxPair(c); ca != a || cb != b || cv != v {
			t.Errorf("context %d: Confidence.MaxPair = (%d, %d, %g), Stream (%d, %d, %g)", c, ca, cb, cv, a, b, v)
		}
	}
}

func TestStreamPanics(t *testing.T) {
	newStream := func() *Stream {
		k := NewLinearStream(2)
		k.Commit([]float64{1, 0, 0, 1, 1, 1})         // 3 committed rows
		k.SetFresh([]float64{1, 2, 3, 4, 5, 6, 7, 8}) // 2 contexts × 2 arms
		return NewStream(k, 2, 1)
	}
	for _, tc := range []struct {
		name string
		fn   func(s *Stream)
	}{
		{"zero regulariser", func(s *Stream) { NewStream(s.k, 2, 0) }},
		{"no arms", func(s *Stream) { NewStream(s.k, 0, 1) }},
		{"Add same row", func(s *Stream) { s.Add(1, 1) }},
		{"Add negative row", func(s *Stream) { s.Add(-1, 0) }},
		{"Add uncommitted row", func(s *Stream) { s.Add(0, 3) }},
		{"AddRow uncommitted row", func(s *Stream) { s.AddRow(3) }},
		{"Block before SetFresh", func(s *Stream) { s.Block(0) }},
		{"SetFresh wrong count", func(s *Stream) { s.SetFresh(1) }},
		{"Block out of range", func(s *Stream) { s.SetFresh(2); s.Block(2) }},
		{"Norm2 negative context", func(s *Stream) { s.SetFresh(2); s.Norm2(-1, 0, 1) }},
		{"partial row", func(s *Stream) { s.k.(*LinearStream).Commit([]float64{1}) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStream()
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			tc.fn(s)
		})
	}
}
