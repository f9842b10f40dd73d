package experiments_test

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	. "github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/internal/runtest"
)

// TestDeterminism: the same seed gives the same CSV bytes (apart from elapsed
// time), whatever GOMAXPROCS. The problem is large enough (d = 20, w = 50,
// 100 contexts × 10 arms) for gonum's matrix products to split work across
// goroutines.
func TestDeterminism(t *testing.T) {
	for _, algo := range []string{"neural-adb-ucb", "neural-adb-ts", "neural-adb-tsctx-ucb", "neural-adb-lookahead-ucb", "apo"} {
		spec := Spec{Algorithm: algo, Problem: ProblemSpec{Name: "square", Dim: 20, Arms: 10, Contexts: 100, Theta: "sphere"},
			Config: algorithms.Default(), T: 200, Every: 50, Seed: 3}
		prev := runtime.GOMAXPROCS(1)
		one := runtest.CSV(t, spec)
		again := runtest.CSV(t, spec)
		runtime.GOMAXPROCS(2)
		two := runtest.CSV(t, spec)
		runtime.GOMAXPROCS(prev)
		if one != again {
			t.Errorf("%s: same seed, different CSV:\n%s\nvs\n%s", algo, one, again)
		}
		if one != two {
			t.Errorf("%s: GOMAXPROCS=1 and 2 differ:\n%s\nvs\n%s", algo, one, two)
		}
		if !strings.HasPrefix(one, "t,worst_gap,mean_gap,queried_gap,avg_regret,distinct_contexts,elapsed_s") {
			t.Errorf("CSV header = %q", strings.SplitN(one, "\n", 2)[0])
		}
		spec.Seed = 4
		if runtest.CSV(t, spec) == one {
			t.Errorf("%s: seeds 3 and 4 gave identical runs", algo)
		}
	}
}

// TestNeuralADBLearns is the does-it-learn check at reduced scale (d = 5,
// K = 5, 50 contexts, w = 20, T = 500, 3 seeds): the pool mean gap of the
// final policy must fall well below that of the uniformly random policy.
func TestNeuralADBLearns(t *testing.T) {
	cfg := algorithms.Default()
	cfg.Width = 20
	for _, algo := range []string{"neural-adb-ucb", "neural-adb-ts"} {
		var got, random float64
		const seeds = 3
		for seed := uint64(1); seed <= seeds; seed++ {
			ps := ProblemSpec{Name: "square", Dim: 5, Arms: 5, Contexts: 50, Theta: "sphere"}
			prob, err := ps.Build(seed)
			if err != nil {
				t.Fatal(err)
			}
			res, err := RunProblem(context.Background(), Spec{Algorithm: algo, Problem: ps, Config: cfg, T: 500, Every: 500, Seed: seed}, prob, nil)
			if err != nil {
				t.Fatal(err)
			}
			got += res.Checkpoints[len(res.Checkpoints)-1].MeanGap / seeds
			random += prob.Evaluator.(*Latent).RandomPolicyGap() / seeds
		}
		t.Logf("%s: final mean gap %.3f, uniformly random policy %.3f", algo, got, random)
		if got > 0.5*random {
			t.Errorf("%s: final mean gap %.3f is not below half the random policy's %.3f", algo, got, random)
		}
	}
}

func TestSyntheticValidate(t *testing.T) {
	good := Synthetic{Function: Square, Dim: 20, Arms: 10, Contexts: 300, Theta: ThetaSphere}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mod  func(*Synthetic)
		flag string
	}{
		{func(s *Synthetic) { s.Arms = 1 }, "experiments: K "},
		{func(s *Synthetic) { s.Dim = 0 }, "experiments: d "},
		{func(s *Synthetic) { s.Contexts = 0 }, "experiments: contexts "},
		{func(s *Synthetic) { s.Function = "cube" }, "experiments: unknown function"},
		{func(s *Synthetic) { s.Theta = "ball" }, "experiments: theta:"},
	} {
		s := good
		tc.mod(&s)
		err := s.Validate()
		if err == nil || !strings.HasPrefix(err.Error(), tc.flag) {
			t.Errorf("%+v: error %v, want one naming %s", s, err, tc.flag)
		}
	}
}

// TestPaperScaleInstance checks the drawn Square instance against the scale
// of the t = 0 rows of figures/fig1-main.csv (worst gap ≈ 34 and mean gap
// ≈ 9 for a random policy at d = 20, K = 10, 300 contexts).
func TestPaperScaleInstance(t *testing.T) {
	p, err := DefaultProblem().Build(1)
	if err != nil {
		t.Fatal(err)
	}
	lat := p.Evaluator.(*Latent)
	if g := lat.RandomPolicyGap(); g < 7 || g > 11 {
		t.Errorf("random-policy mean gap %.2f, want within [7, 11]", g)
	}
	for _, v := range p.Pool.RowsTo(nil, 0, p.Pool.Rows()) {
		if v <= -1 || v >= 1 {
			t.Fatalf("feature %v outside (−1, 1)", v)
		}
	}
}

// TestExperimentStreamsAreReserved: the problem and feedback streams lie in
// the id range algorithms.NewStream refuses to learners.
func TestExperimentStreamsAreReserved(t *testing.T) {
	for _, id := range []uint64{StreamProblem, StreamFeedback} {
		if id < algorithms.ReservedStreams || id >= algorithms.FirstExternalStream {
			t.Errorf("stream %d is outside the reserved range [%d, %d)", id, algorithms.ReservedStreams, algorithms.FirstExternalStream)
		}
	}
}
