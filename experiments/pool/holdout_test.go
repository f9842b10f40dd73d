package pool

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/logistic"
	"github.com/neural-adb/nadb/internal/poolfile"
)

// linearScorer is a learner stub whose model scores a row θ·x.
type linearScorer struct {
	algorithms.Learner
	theta []float64
}

func (s linearScorer) Score(dst, x []float64) []float64 {
	d := len(s.theta)
	out := make([]float64, len(x)/d)
	for n := range out {
		for k, v := range s.theta {
			out[n] += v * x[n*d+k]
		}
	}
	return out
}

// tinySetup is a problem of 2 training and 2 held-out contexts, K = 3 arms
// named x, y, z in every context, one feature.
func tinySetup(t *testing.T) Setup {
	t.Helper()
	ids := []string{"x", "y", "z", "x", "y", "z"}
	part := func(x, u []float64, recs ...poolfile.Answer) Part {
		ans := poolfile.NewAnswers(2, 3)
		for _, r := range recs {
			ans.Add(r)
		}
		return Part{Pool: poolOf(2, 3, 1, x), IDs: ids, Utility: u, Answers: ans}
	}
	train := part([]float64{0, 1, 2, 2, 0, 1}, []float64{0, 3, 1, 4, 0, 4},
		rec(0, 1, 0, 1),   // y beat x
		rec(0, 0, 2, 0.5), // x and z tie
		rec(1, 0, 1, 1),   // x beat y
		rec(1, 2, 0, 1))   // z beat x
	test := part([]float64{1, 2, 3, 3, 2, 1}, []float64{0, 1, 5, 0, 2, 1},
		rec(0, 2, 0, 1),   // z beat x
		rec(0, 0, 1, 0.5), // tie
		rec(1, 0, 2, 1),   // x beat z
		rec(1, 1, 0, 1))   // y beat x
	return Setup{Name: "tiny", Train: train, Test: &test, Seed: 1}
}

func sp(x float64) float64 { return logistic.Softplus(x) }

// TestHeldOutMetrics: the extra columns of a tiny split problem equal their
// hand-computed values, for a model and for a constant one (ties averaged).
func TestHeldOutMetrics(t *testing.T) {
	prob, err := NewProblem(tinySetup(t))
	if err != nil {
		t.Fatal(err)
	}
	ev := prob.Evaluator.(experiments.ExtraEvaluator)
	want := []string{"answer_accuracy", "answer_logloss", "test_accuracy", "test_logloss", "test_choice_accuracy", "test_mean_gap", "test_worst_gap", "tie_share", "unrecorded_share"}
	if cols := ev.ExtraColumns(); !slices.Equal(cols, want) {
		t.Fatalf("columns %v, want %v", cols, want)
	}
	nan := math.NaN()
	for _, tc := range []struct {
		name  string
		model algorithms.Learner
		want  []float64
	}{
		// h = x. In-sample: y>x (d = 1), x>y (d = 2), z>x (d = −1); the tie
		// is left out. Held out: z>x (2), x>z (2), y>x (−1). Gaps: held-out
		// context 0 picks z (utility 5 = best), context 1 picks x (0 of 2):
		// a best arm in one context of two.
		{"h = x", linearScorer{theta: []float64{1}}, []float64{
			2.0 / 3, (sp(-1) + sp(-2) + sp(1)) / 3,
			2.0 / 3, (sp(-2) + sp(-2) + sp(1)) / 3,
			0.5, (0 + 2) / 2.0, 2, nan, nan}},
		// A constant model: every pair ½, gaps averaged over the three arms:
		// context 0 (5 + 4 + 0)/3, context 1 (2 + 0 + 1)/3; one best arm of
		// three tied in each.
		{"constant", linearScorer{theta: []float64{0}}, []float64{
			0.5, math.Ln2, 0.5, math.Ln2, 1.0 / 3, (3 + 1) / 2.0, 3, nan, nan}},
		{"no Scorer", nil, []float64{nan, nan, nan, nan, nan, nan, nan, nan, nan}},
	} {
		got := ev.Extra(nil, tc.model)
		if len(got) != len(tc.want) {
			t.Fatalf("%s: %d values, want %d", tc.name, len(got), len(tc.want))
		}
		for i := range got {
			if !(math.Abs(got[i]-tc.want[i]) <= 1e-15 || math.IsNaN(got[i]) && math.IsNaN(tc.want[i])) {
				t.Errorf("%s: %s = %v, want %v", tc.name, want[i], got[i], tc.want[i])
			}
		}
	}

	// Without utilities the held-out gap is against the held-out contexts'
	// Copeland scores, over the contexts with a record.
	s := tinySetup(t)
	s.Train.Utility, s.Test.Utility = nil, nil
	prob, err = NewProblem(s)
	if err != nil {
		t.Fatal(err)
	}
	ev = prob.Evaluator.(experiments.ExtraEvaluator)
	cols := ev.ExtraColumns()
	if i := slices.Index(cols, "test_copeland_gap"); i < 0 || slices.Contains(cols, "test_mean_gap") {
		t.Fatalf("columns %v, want test_copeland_gap instead of the utility gaps", cols)
	}
	// Copeland of the held-out answers: context 0: x = ½ (tie with y) + 0,
	// y = ½ + ½ (z unrecorded), z = 1 + ½; context 1: x = 1 + 0, y = 1 + ½
	// (z unrecorded), z = 0 + ½. h = x picks z (best, gap 0) and x (1.5 − 1).
	got := ev.Extra(nil, linearScorer{theta: []float64{1}})
	if g := got[slices.Index(cols, "test_copeland_gap")]; g != (0+0.5)/2 {
		t.Errorf("test_copeland_gap = %v, want 0.25", g)
	}
}

// TestReferences: the reference rows of the tiny split problem, by hand.
func TestReferences(t *testing.T) {
	prob, err := NewProblem(tinySetup(t))
	if err != nil {
		t.Fatal(err)
	}
	cols, refs, ok := HeldOutReferences(prob)
	if !ok || !slices.Equal(cols, []string{"test_accuracy", "test_logloss", "test_choice_accuracy", "test_mean_gap", "test_worst_gap"}) || len(refs) != 4 {
		t.Fatalf("references: %v %v %d", ok, cols, len(refs))
	}
	check := func(r Reference, name string, want []float64) {
		t.Helper()
		if !strings.HasPrefix(r.Name, name) {
			t.Errorf("reference %q, want %q", r.Name, name)
		}
		for i := range want {
			if math.Abs(r.Values[i]-want[i]) > 1e-9 {
				t.Errorf("%s: %s = %v, want %v", name, cols[i], r.Values[i], want[i])
			}
		}
	}

	// Linear BT on the feature: duels give z = x_w − x_l = 1, 2, −1, so θ
	// minimises sp(−θ) + sp(−2θ) + sp(θ) + θ²/2; found here by bisection on
	// its derivative. θ > 0 ranks the held-out arms like h = x.
	grad := func(th float64) float64 {
		return -logistic.Sigmoid(-th) - 2*logistic.Sigmoid(-2*th) + logistic.Sigmoid(th) + th
	}
	lo, hi := 0.0, 5.0
	for range 200 {
		if m := (lo + hi) / 2; grad(m) < 0 {
			lo = m
		} else {
			hi = m
		}
	}
	th := (lo + hi) / 2
	check(refs[0], "linear BT", []float64{2.0 / 3, (2*sp(-2*th) + sp(th)) / 3, 0.5, 1, 2})

	// The global ranking: one utility per identifier from y>x, x>y, z>x;
	// it must be LinearBT's on identifier indicators, and z > y > x.
	onehot := poolOf(2, 3, 3, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1})
	cfg := algorithms.Default()
	cfg.RetrainEvery, cfg.MLEIters = 1<<30, 100
	lin := algorithms.NewLinearBT(algorithms.Env{Pool: onehot, Config: cfg, Seed: 1})
	lin.AddDuel(0, 1, 0)
	lin.AddDuel(1, 0, 1)
	lin.AddDuel(1, 2, 0)
	lin.Fit()
	s := fitRanking([]duel{{0, 1, 0}, {1, 0, 1}, {1, 2, 0}}, func(c, a int) string { return []string{"x", "y", "z"}[a] }, 1)
	for i, id := range []string{"x", "y", "z"} {
		if math.Abs(s[id]-lin.Theta[i]) > 1e-9 {
			t.Errorf("ranking utility of %s = %v, LinearBT on indicators %v", id, s[id], lin.Theta[i])
		}
	}
	if !(s["z"] > s["y"] && s["y"] > s["x"]) {
		t.Errorf("ranking %v, want z > y > x", s)
	}
	// Held out: z>x right, x>z wrong, y>x right; the ranking picks z in both
	// contexts: gaps 0 and 2 − 1.
	x, y, z := s["x"], s["y"], s["z"]
	check(refs[1], "global ranking", []float64{2.0 / 3, (sp(x-z) + sp(z-x) + sp(x-y)) / 3, 0.5, 0.5, 1})

	// Majority: y is best in training context 0, x and z share context 1:
	// y (1) beats x (½) and z (½). Held out it ties z>x and x>z (½ each) and
	// gets y>x right; it picks y: gaps 5 − 1 and 2 − 2.
	check(refs[2], "majority arm", []float64{2.0 / 3, (2*math.Ln2 + sp(-1)) / 3, 0.5, 2, 4})
	if refs[2].Note != "y" {
		t.Errorf("majority arm %q, want y", refs[2].Note)
	}
	check(refs[3], "constant model", []float64{0.5, math.Ln2, 1.0 / 3, 2, 3})
}

// hiddenPool writes a pool of n contexts whose every context is recognisable
// by its feature (1000 + its number), with answers for some pairs.
func hiddenPool(t *testing.T, n, K int, seed uint64) (poolFile, answersFile string) {
	rng := rand.New(rand.NewPCG(seed, 1))
	var p, a strings.Builder
	p.WriteString("context,arm,f,g\n")
	a.WriteString("context,arm1,arm2,y\n")
	for c := range n {
		for k := range K {
			fmt.Fprintf(&p, "c%d,arm%d,%d,%v\n", c, k, 1000+c, rng.Float64())
		}
		if c%4 == 3 {
			continue // a context without any record
		}
		for i := range K {
			for j := i + 1; j < K; j++ {
				for range rng.IntN(3) { // 0, 1 or 2 records of the pair
					fmt.Fprintf(&a, "c%d,arm%d,arm%d,%v\n", c, i, j, []float64{0, 0.5, 1}[rng.IntN(3)])
				}
			}
		}
	}
	return writeTemp(t, "pool.csv", p.String()), writeTemp(t, "answers.csv", a.String())
}

// TestHoldoutHidesContexts: the learner's pool holds exactly the training
// contexts of the seed's split; no held-out context's features reach it,
// and no query is about one.
func TestHoldoutHidesContexts(t *testing.T) {
	const n = 24
	pf, af := hiddenPool(t, n, 3, 1)
	for seed := uint64(1); seed <= 3; seed++ {
		spec := experiments.ProblemSpec{Name: "pool", Pool: pf, Answers: af, Holdout: 0.25}
		prob, err := spec.Build(seed)
		if err != nil {
			t.Fatal(err)
		}
		train, test := experiments.Split(n, 6, n-6, seed)
		seen := map[int]bool{} // contexts whose features the learner's pool holds
		for r := range prob.Pool.Rows() {
			seen[int(prob.Pool.RowTo(nil, r)[0])-1000] = true
		}
		for _, c := range test {
			if seen[c] {
				t.Errorf("seed %d: held-out context c%d is in the learner's pool", seed, c)
			}
		}
		if len(seen) != len(train) || prob.Pool.Contexts != len(train) {
			t.Errorf("seed %d: the learner's pool has %d contexts (%d distinct), want the %d training ones", seed, prob.Pool.Contexts, len(seen), len(train))
		}
		setup, _ := SetupOf(prob)
		for i, c := range test {
			if setup.Test.Contexts[i] != fmt.Sprintf("c%d", c) || setup.Test.Pool.FeatureTo(nil, i, 0)[0] != float64(1000+c) {
				t.Fatalf("seed %d: held-out context %d is %s, want c%d", seed, i, setup.Test.Contexts[i], c)
			}
		}
		cfg := algorithms.Default()
		cfg.Width = 8
		_, err = experiments.RunProblem(context.Background(), experiments.Spec{Algorithm: "neural-adb-ucb-randctx", Config: cfg, T: 40, Every: 40, Seed: seed}, prob, nil)
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestMaskHonoured: under the default rule every registered learner asks
// only recorded pairs of a small replayed pool with held-out contexts
// (experiments.Loop refuses any other query), so no answer is a coin for a
// missing record.
func TestMaskHonoured(t *testing.T) {
	pf, af := hiddenPool(t, 16, 4, 2)
	prob0, err := experiments.ProblemSpec{Name: "pool", Pool: pf, Answers: af, Holdout: 4}.Build(3)
	if err != nil {
		t.Fatal(err)
	}
	setup, _ := SetupOf(prob0)
	n, _ := setup.Train.Answers.Missing()
	if n == 0 || len(prob0.Offer.Contexts) == prob0.Pool.Contexts {
		t.Fatalf("the test pool must have unrecorded pairs (%d) and contexts without records (%d of %d offered)", n, len(prob0.Offer.Contexts), prob0.Pool.Contexts)
	}
	cfg := algorithms.Default()
	cfg.Width = 8
	for _, name := range algorithms.Names() {
		prob, err := experiments.ProblemSpec{Name: "pool", Pool: pf, Answers: af, Holdout: 4}.Build(3)
		if err != nil {
			t.Fatal(err)
		}
		res, err := experiments.RunProblem(context.Background(), experiments.Spec{Algorithm: name, Config: cfg, T: 60, Every: 60, Seed: 3}, prob, nil)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		r := prob.Oracle.(*Replay)
		if r.Unrecorded != 0 || r.Asked != 60 {
			t.Errorf("%s: %d of %d answers were coins for unrecorded pairs", name, r.Unrecorded, r.Asked)
		}
		for c, k := range res.Counts {
			if k > 0 && !slices.Contains(prob.Offer.Contexts, c) {
				t.Errorf("%s: %d duels on context %d, which has no record", name, k, c)
			}
		}
	}
}

// poolOf returns the float64 pool of x, which must be valid.
func poolOf(contexts, arms, dim int, x []float64) *algorithms.Pool {
	p, err := algorithms.NewPool(contexts, arms, dim, x)
	if err != nil {
		panic(err)
	}
	return p
}

// TestChoiceAccuracy: ties among the chosen arms count as the share that is
// best; several best arms all count.
func TestChoiceAccuracy(t *testing.T) {
	for _, tc := range []struct {
		h, f []float64
		want float64
	}{
		{[]float64{3, 1, 2}, []float64{5, 0, 1}, 1},
		{[]float64{3, 1, 2}, []float64{0, 5, 1}, 0},
		{[]float64{2, 2, 1}, []float64{0, 5, 1}, 0.5}, // a tie between a best arm and another
		{[]float64{1, 2, 2}, []float64{0, 5, 5}, 1},   // two best arms, both tied
		{[]float64{0, 0, 0, 1, 0, 0}, []float64{1, 0, 0, 1, 1, 0}, (1.0/3 + 1) / 2},
		{[]float64{math.NaN(), 1, 0}, []float64{9, 0, 0}, 0}, // a NaN score is never chosen
	} {
		if got := ChoiceAccuracy(tc.h, tc.f, 3); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("ChoiceAccuracy(%v, %v) = %v, want %v", tc.h, tc.f, got, tc.want)
		}
	}
}
