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
			want = append(want, conf.r.row(p)[fresh[x/K]*K+x%K])
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
