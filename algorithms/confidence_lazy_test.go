package algorithms

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/neural-adb/nadb/internal/gram"
)

// withLazyMinRows runs f with the lazy confidence state chosen above rows,
// solving one context at a time (so that the lazy rules skip contexts).
func withLazyMinRows(rows int, f func()) {
	oldRows, oldBatch := lazyMinRows, lazyBatchRows
	lazyMinRows, lazyBatchRows = rows, 1
	defer func() { lazyMinRows, lazyBatchRows = oldRows, oldBatch }()
	f()
}

// bothModels builds the neural model of env twice: with gram.Confidence and
// with lazyConfidence.
func bothModels(t *testing.T, env Env) (blocks, lazy *NeuralModel) {
	t.Helper()
	blocks, err := NewNeuralModel(env, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := blocks.Conf.(*gram.Confidence); !ok {
		t.Fatalf("pool of %d rows: got %T, want *gram.Confidence", env.Pool.Rows(), blocks.Conf)
	}
	withLazyMinRows(0, func() { lazy, err = NewNeuralModel(env, true) })
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := lazy.Conf.(*lazyConfidence); !ok {
		t.Fatalf("got %T, want *lazyConfidence", lazy.Conf)
	}
	return blocks, lazy
}

// TestLazyConfidenceMatchesBlocks: under the same updates (pairs and single
// rows, with refreshes), every block the lazy state solves equals
// gram.Confidence's to 1e-10, and the bounds it keeps are never below the
// current norms.
func TestLazyConfidenceMatchesBlocks(t *testing.T) {
	for _, unit := range []bool{false, true} {
		p := smallPool(t, 3, 40, 5, 3)
		cfg := Default()
		cfg.Width, cfg.RefreshEvery, cfg.Kappa = 8, 7, 0.5
		if unit {
			cfg.FeatureNorm = FeatureUnit
		}
		ref, lz := bothModels(t, Env{Pool: p, Config: cfg, Seed: 5})
		lc := lz.Conf.(*lazyConfidence)
		rng := rand.New(rand.NewPCG(8, 8))
		K := p.Arms
		check := func(step int, ctxs []int) {
			lc.Prepare(ctxs)
			for _, c := range ctxs {
				want, got := ref.Conf.Block(c), lc.Block(c)
				for i := range want {
					if math.Abs(got[i]-want[i]) > 1e-10 {
						t.Fatalf("unit=%v after %d updates: context %d entry %d: lazy %v, blocks %v", unit, step, c, i, got[i], want[i])
					}
				}
				_, _, n2 := ref.Conf.MaxPair(c)
				if b := lc.MaxPairBound(c); !(b >= n2) {
					t.Fatalf("unit=%v after %d updates: context %d: bound %v below the norm %v", unit, step, c, b, n2)
				}
				for a := range K {
					if b := lc.RowNorm2Bound(c, a); !(b >= ref.Conf.RowNorm2(c, a)) {
						t.Fatalf("unit=%v: context %d arm %d: row bound %v below %v", unit, c, a, b, ref.Conf.RowNorm2(c, a))
					}
				}
			}
		}
		check(0, []int{0, 1, 2, 39})
		for step := 1; step <= 30; step++ {
			c := rng.IntN(p.Contexts)
			a := rng.IntN(K)
			if step%4 == 0 {
				ref.Conf.AddRow(p.Row(c, a))
				lz.Conf.AddRow(p.Row(c, a))
			} else {
				b := (a + 1 + rng.IntN(K-1)) % K
				ref.Conf.Add(p.Row(c, a), p.Row(c, b))
				lz.Conf.Add(p.Row(c, a), p.Row(c, b))
			}
			if lz.Conf.Len() != step {
				t.Fatalf("Len %d after %d updates", lz.Conf.Len(), step)
			}
			check(step, []int{rng.IntN(p.Contexts), rng.IntN(p.Contexts), c})
		}
		all := make([]int, p.Contexts)
		for c := range all {
			all[c] = c
		}
		check(30, all)
		// Bounds of contexts solved long ago stay above their current norms.
		check(30, []int{0, 1, 2, 39})
	}
}

// TestLazyLearnersAgree: on a pool small enough for both states, every
// learner that reads the confidence state asks the same queries (one at a
// time and in batches, whose offers restrict the pairs) and ends with the
// same policy whichever state it keeps.
func TestLazyLearnersAgree(t *testing.T) {
	p, theta := testPool(t, 6, 30, 4, 3, 2)
	cfg := Default()
	cfg.Width, cfg.RetrainEvery, cfg.Steps, cfg.RefreshEvery = 8, 10, 5, 25
	for _, name := range []string{"neural-adb-ucb", "neural-adb-ts", "neural-adb-apo", "ae-borda-nn", "neural-adb-ucb-randctx", "neural-adb-tsctx-ucb"} {
		run := func() ([]Query, []int) {
			l := mustNew(t, name, p, cfg, 4)
			rng := rand.New(rand.NewPCG(2, 2))
			var qs []Query
			for round := range 40 {
				batch := []Query{l.Select(Offer{})}
				if round%5 == 4 {
					batch = SelectBatch(l, p, Offer{}, 3)
				}
				for _, q := range batch {
					qs = append(qs, q)
					l.Observe(q, btAnswer(p, theta, q, rng))
				}
			}
			return qs, l.Policy(nil)
		}
		wantQ, wantPi := run()
		var gotQ []Query
		var gotPi []int
		withLazyMinRows(0, func() { gotQ, gotPi = run() })
		if i := firstDiff(wantQ, gotQ); i >= 0 {
			t.Errorf("%s: query %d: lazy %v, blocks %v", name, i, gotQ[i], wantQ[i])
		}
		if !slices.Equal(wantPi, gotPi) {
			t.Errorf("%s: policies differ: lazy %v, blocks %v", name, gotPi, wantPi)
		}
	}
}

func firstDiff(a, b []Query) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

// TestLazyArgmax: with valid bounds, lazyArgmax returns ArgmaxRand's index
// and leaves the random stream where ArgmaxRand leaves it, for values
// without ties and with ties at the maximum; with exact bounds it evaluates
// only the first batch.
func TestLazyArgmax(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for trial := range 200 {
		n := 1 + rng.IntN(60)
		vals := make([]float64, n)
		slack := make([]float64, n)
		for i := range vals {
			vals[i] = math.Round(rng.NormFloat64() * 100)
			slack[i] = rng.ExpFloat64() * 50
		}
		if trial%3 == 0 { // several maxima
			top := slices.Max(vals)
			for range 3 {
				vals[rng.IntN(n)] = top
			}
		}
		top := slices.Max(vals)
		for i, v := range vals { // no ties below the maximum, as the rule assumes
			if v != top {
				vals[i] = v - float64(i)*1e-3
			}
		}
		evaluated := 0
		r1, r2 := rand.New(rand.NewPCG(uint64(trial), 3)), rand.New(rand.NewPCG(uint64(trial), 3))
		got := lazyArgmax(n, 4, func(i int) float64 { return vals[i] + slack[i] }, func(idx []int, out []float64) {
			for k, i := range idx {
				out[k] = vals[i]
				evaluated++
			}
		}, r1)
		want := ArgmaxRand(vals, -1, r2)
		if got != want {
			t.Fatalf("trial %d: lazyArgmax %d (%v), ArgmaxRand %d (%v)", trial, got, vals[got], want, vals[want])
		}
		if r1.Uint64() != r2.Uint64() {
			t.Fatalf("trial %d: the streams differ after the argmax", trial)
		}
		ties := 0
		for _, v := range vals {
			if v == vals[want] {
				ties++
			}
		}
		exact := 0
		lazyArgmax(n, 4, func(i int) float64 { return vals[i] }, func(idx []int, out []float64) {
			for k, i := range idx {
				out[k] = vals[i]
				exact++
			}
		}, rand.New(rand.NewPCG(1, 1)))
		if limit := max(4, ties+4); exact > limit || exact > n {
			t.Fatalf("trial %d: exact bounds evaluated %d of %d values (%d tied)", trial, exact, n, ties)
		}
	}
}
