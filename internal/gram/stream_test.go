package gram

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/neural-adb/nadb/internal/mlp"
)

var _ StreamKernel = (*mlp.StreamKernel)(nil)

// streamRig holds a pool of contexts × arms rows seen two ways: as one fixed
// pool under Confidence (the reference), and as a StreamKernel whose
// committed rows are pool contexts appended in some order and whose fresh
// rows are any set of pool contexts.
type streamRig struct {
	contexts, arms int
	kernel         StreamKernel
	pool           Kernel
	commit         func(ctx int)    // append the rows of pool context ctx as committed rows
	fresh          func(ctxs []int) // make the rows of these pool contexts the fresh rows
}

func ntkRig(t testing.TB, contexts, arms int, a mlp.Arch, init mlp.Init) *streamRig {
	rng := rand.New(rand.NewPCG(11, 2))
	net := mlp.NewNet(a)
	if err := net.Initialize(init, 1, rng); err != nil {
		t.Fatal(err)
	}
	x := make([]float64, contexts*arms*a.In)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	scale := 1 / float64(a.Width)
	all := net.NewFeatures(x, scale)
	theta0 := net.Clone()
	committed := mlp.NewEmptyFeatures(a, scale)
	k := mlp.NewStreamKernel(committed, nil)
	rows := func(ctxs []int) []float64 {
		var out []float64
		for _, c := range ctxs {
			out = append(out, x[c*arms*a.In:(c+1)*arms*a.In]...)
		}
		return out
	}
	return &streamRig{
		contexts: contexts, arms: arms, kernel: k,
		pool:   &Dense{N: contexts * arms, Data: all.GramTo(nil)},
		commit: func(c int) { committed.Append(theta0, rows([]int{c})) },
		fresh:  func(cs []int) { k.SetFresh(theta0.NewFeatures(rows(cs), scale)) },
	}
}

func linearRig(contexts, arms, dim int) *streamRig {
	rng := rand.New(rand.NewPCG(12, 2))
	x := make([]float64, contexts*arms*dim)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	k := NewLinearStream(dim)
	rows := func(ctxs []int) []float64 {
		var out []float64
		for _, c := range ctxs {
			out = append(out, x[c*arms*dim:(c+1)*arms*dim]...)
		}
		return out
	}
	return &streamRig{
		contexts: contexts, arms: arms, kernel: k,
		pool:   NewCached(&Linear{X: x, Dim: dim}),
		commit: func(c int) { k.Commit(rows([]int{c})) },
		fresh:  func(cs []int) { k.SetFresh(rows(cs)) },
	}
}

type streamScenario struct {
	rounds, fresh int
	perRound      int // updates per round
	reg           float64
	refresh       int
}

// run plays the fresh-context protocol: each round M fresh contexts are drawn
// from the pool contexts not committed yet, every fresh block is compared
// with Confidence on the whole pool, one fresh context is committed, and
// perRound updates (pairs within the new context, pairs across committed
// rows, single committed rows) are applied to both.
func (rig *streamRig) run(t *testing.T, sc streamScenario) {
	K := rig.arms
	conf := New(rig.pool, rig.contexts, K, sc.reg)
	s := NewStream(rig.kernel, K, sc.reg)
	s.RefreshEvery = sc.refresh
	rng := rand.New(rand.NewPCG(13, uint64(sc.perRound)))
	var committed []int // pool context of the k-th committed context
	pool := func(n int) int { return committed[n/K]*K + n%K }
	free := rng.Perm(rig.contexts)
	var fresh []int
	for round := range sc.rounds {
		m := min(sc.fresh, len(free))
		fresh = slices.Clone(free[:m])
		rig.fresh(fresh)
		s.SetFresh(m)
		compareStream(t, fmt.Sprintf("round %d (t = %d, %d committed rows)", round, s.Len(), len(committed)*K), s, conf, fresh)
		pick := rng.IntN(m)
		committed = append(committed, fresh[pick])
		free = slices.Delete(free, pick, pick+1)
		rig.commit(fresh[pick])
		n := len(committed) * K
		for range sc.perRound {
			switch r := rng.Float64(); {
			case r < 0.6:
				a := rng.IntN(K)
				b := (a + 1 + rng.IntN(K-1)) % K
				s.Add(n-K+a, n-K+b)
				conf.Add(pool(n-K+a), pool(n-K+b))
			case r < 0.8:
				i := rng.IntN(n)
				j := (i + 1 + rng.IntN(n-1)) % n
				s.Add(i, j)
				conf.Add(pool(i), pool(j))
			default:
				i := rng.IntN(n)
				s.AddRow(i)
				conf.AddRow(pool(i))
			}
		}
	}
	// After the last updates, without a new SetFresh: the blocks must follow V.
	compareStream(t, "after the last updates", s, conf, fresh)
	if len(free) > 0 {
		m := min(sc.fresh, len(free))
		rig.fresh(free[:m])
		s.SetFresh(m)
		compareStream(t, "final", s, conf, free[:m])
		if err := s.Refresh(); err != nil {
			t.Fatal(err)
		}
		compareStream(t, "after Refresh", s, conf, free[:m])
	}
}

// compareStream compares every fresh block, norm, max pair and r̃ vector of s
// with Confidence on the pool (fresh context c is pool context fresh[c]).
func compareStream(t *testing.T, when string, s *Stream, conf *Confidence, fresh []int) {
	t.Helper()
	const tol = 1e-10
	K := s.Arms()
	for c, pc := range fresh {
		got, want := s.Block(c), conf.Block(pc)
		if e := relErr(got, want); e > tol {
			t.Fatalf("%s: fresh context %d: block relative error %.3g > %g", when, c, e, tol)
		}
		for a := range K {
			if g, w := s.RowNorm2(c, a), conf.RowNorm2(pc, a); math.Abs(g-w) > tol*w {
				t.Fatalf("%s: RowNorm2(%d, %d) = %.17g, want %.17g", when, c, a, g, w)
			}
			for b := range K {
				if g, w := s.Norm2(c, a, b), conf.Norm2(pc, a, b); math.Abs(g-w) > tol*w {
					t.Fatalf("%s: Norm2(%d, %d, %d) = %.17g, want %.17g", when, c, a, b, g, w)
				}
			}
		}
		a, b, v := s.MaxPair(c)
		wa, wb, wv := conf.MaxPair(pc)
		if math.Abs(v-wv) > tol*wv {
			t.Fatalf("%s: MaxPair(%d) norm² %.17g, want %.17g", when, c, v, wv)
		}
		if (a != wa || b != wb) && math.Abs(conf.Norm2(pc, a, b)-wv) > 1e-9*wv {
			t.Fatalf("%s: MaxPair(%d) = (%d, %d), want (%d, %d)", when, c, a, b, wa, wb)
		}
	}
	if len(fresh) == 0 || s.Len() == 0 {
		return
	}
	rows, tt, r := s.FreshR()
	if rows != len(fresh)*K || tt != s.Len() {
		t.Fatalf("%s: FreshR shape %d × %d, want %d × %d", when, rows, tt, len(fresh)*K, s.Len())
	}
	var got, want []float64
	for x := range rows {
		for p := range tt {
			got = append(got, r[x*tt+p])
			want = append(want, conf.r[p*conf.n+fresh[x/K]*K+x%K])
		}
	}
	if e := relErr(got, want); e > tol {
		t.Fatalf("%s: r̃ relative error %.3g > %g", when, e, tol)
	}
}

// TestStreamMatchesConfidence drives the fresh-context protocol for the
// gradient-feature kernel and the linear kernel, with fewer and with more
// updates than committed rows, with and without periodic Refresh, and
// compares every fresh quantity with Confidence on the whole pool.
func TestStreamMatchesConfidence(t *testing.T) {
	const contexts, arms = 40, 5
	for _, tc := range []struct {
		name string
		rig  func(t testing.TB) *streamRig
	}{
		{"ntk/mirrored", func(t testing.TB) *streamRig {
			return ntkRig(t, contexts, arms, mlp.Arch{In: 4, Width: 8, Depth: 2}, mlp.InitMirrored)
		}},
		{"ntk/he/bias", func(t testing.TB) *streamRig {
			return ntkRig(t, contexts, arms, mlp.Arch{In: 4, Width: 8, Depth: 2, Bias: true}, mlp.InitHe)
		}},
		{"linear", func(testing.TB) *streamRig { return linearRig(contexts, arms, 6) }},
	} {
		for _, sc := range []streamScenario{
			{rounds: 30, fresh: 6, perRound: 1, reg: 1},
			{rounds: 30, fresh: 6, perRound: 8, reg: 0.5, refresh: 7}, // t > committed rows
			{rounds: 25, fresh: 4, perRound: 3, reg: 2, refresh: 40},
		} {
			t.Run(fmt.Sprintf("%s/updates=%d/a=%g/refresh=%d", tc.name, sc.perRound, sc.reg, sc.refresh), func(t *testing.T) {
				tc.rig(t).run(t, sc)
			})
		}
	}
}

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
	const K, rounds, m = 5, 70, 30 // t spans several panels; m·K rows span several chunks
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
		{"one arm", func(s *Stream) { NewStream(s.k, 1, 1) }},
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
