package lockon

import (
	"bytes"
	"context"
	"math"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/sweep"
)

// fakeUncertainty has fixed scores and a constant σ.
type fakeUncertainty struct {
	h     []float64
	arms  int
	sigma float64
}

func (f fakeUncertainty) Scores(c int) []float64 { return f.h[c*f.arms : (c+1)*f.arms] }
func (f fakeUncertainty) Sigma2(c, a, b int) float64 {
	return f.sigma * f.sigma
}

// TestMeasureCalibration checks coverage, the median and 95% ratios and the
// rank correlation on a case worked by hand: one context, three arms, so the
// pairs (0,1), (0,2), (1,2) have errors 1, 3 and 2.
func TestMeasureCalibration(t *testing.T) {
	lat := &experiments.Latent{Arms: 3, F: []float64{0, 0, 0}}
	u := fakeUncertainty{h: []float64{3, 2, 0}, arms: 3, sigma: 2}
	got := MeasureCalibration(u, lat, 1)
	if got.Pairs != 3 || math.Abs(got.Coverage-2.0/3) > 1e-12 || got.MedianZ != 1 || got.Nu95 != 1.5 {
		t.Errorf("calibration = %+v, want 3 pairs, coverage 2/3, median 1, ν95 1.5", got)
	}
	if !math.IsNaN(got.Spearman) {
		t.Errorf("constant σ: Spearman = %v, want NaN", got.Spearman)
	}
	if got := MeasureCalibration(u, lat, 1.5); math.Abs(got.Coverage-1) > 1e-12 {
		t.Errorf("ν = 1.5: coverage %v, want 1", got.Coverage)
	}
	if r := spearman([]float64{1, 2, 3, 4}, []float64{10, 20, 20, 40}); math.Abs(r-math.Sqrt(0.9)) > 1e-12 {
		t.Errorf("spearman with a tie = %v, want √0.9", r)
	}
}

// tinyStudy is a lock-on study small enough for unit tests.
func tinyStudy() LockonStudy {
	s := QuickLockon()
	s.Problem = experiments.ProblemSpec{Name: "square", Dim: 5, Arms: 5, Contexts: 40, Theta: "sphere"}
	s.Config.Width = 8
	s.Seeds, s.T, s.Every = 2, 60, 30
	s.Rules = []LockonRule{{Algorithm: "neural-adb-ucb", Comparator: "neural-adb-ucb-randctx"}, {Algorithm: "neural-adb-ucb-randctx"}}
	s.Readings = []Reading{LockonReadings[0], {Name: "nu=10", Set: [][2]string{{"nu", "10"}}}}
	s.ReadingSeeds = 2
	return s
}

// TestLockonWorkersIndependent: the tables are the same bytes for 1 and 3
// workers, with and without a cache (second pass loads every run).
func TestLockonWorkersIndependent(t *testing.T) {
	s := tinyStudy()
	render := func(workers int, cache *sweep.Cache) string {
		res, err := s.Run(context.Background(), workers, cache, nil)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		b.Write(MainCSV(res.Main()))
		b.Write(SensitivityCSV(res.Sensitivity()))
		b.Write(CurvesCSV(res.Curves()))
		return b.String()
	}
	one := render(1, nil)
	cache := &sweep.Cache{Dir: t.TempDir()}
	if three := render(3, cache); three != one {
		t.Errorf("3 workers gave other tables than 1:\n%s\nvs\n%s", three, one)
	}
	if cached := render(2, cache); cached != one {
		t.Errorf("tables from the cache differ:\n%s\nvs\n%s", cached, one)
	}
}

// TestAsWrittenLocksOn is the lock-on at reduced scale (d = 5, K = 5, 50
// contexts, w = 16, T = 200, 3 seeds): the paper's rule spends a larger share
// of the rounds on one context and visits fewer contexts than random contexts
// with the same arm rule, and the largest-norm pair of its top context is
// queried far less often than the pair the arm rule keeps asking for.
func TestAsWrittenLocksOn(t *testing.T) {
	cfg := algorithms.Default()
	cfg.Width = 16
	ps := experiments.ProblemSpec{Name: "square", Dim: 5, Arms: 5, Contexts: 50, Theta: "sphere"}
	var top, topRand, distinct, distinctRand float64
	for seed := uint64(1); seed <= 3; seed++ {
		for _, algo := range []string{"neural-adb-ucb", "neural-adb-ucb-randctx"} {
			res, err := experiments.Run(context.Background(), experiments.Spec{Algorithm: algo, Problem: ps, Config: cfg, T: 200, Every: 200, Seed: seed}, nil)
			if err != nil {
				t.Fatal(err)
			}
			cp := final(res)
			if algo == "neural-adb-ucb" {
				top, distinct = top+cp.TopShare/3, distinct+float64(cp.Distinct)/3
			} else {
				topRand, distinctRand = topRand+cp.TopShare/3, distinctRand+float64(cp.Distinct)/3
			}
		}
		m, err := MeasureMechanism(context.Background(), experiments.Spec{Algorithm: "neural-adb-ucb", Problem: ps, Config: cfg, T: 200, Every: 200, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if 5*m.MaxPairQueried >= m.QueriedPairCount {
			t.Errorf("seed %d: the top context's largest-norm pair was queried %d times, its most-queried pair %d times", seed, m.MaxPairQueried, m.QueriedPairCount)
		}
	}
	t.Logf("top-context share %.3f vs %.3f; distinct contexts %.1f vs %.1f", top, topRand, distinct, distinctRand)
	if top < 3*topRand || distinct > 0.7*distinctRand {
		t.Errorf("as written: top share %.3f, %.1f contexts; random contexts: %.3f, %.1f — no lock-on", top, distinct, topRand, distinctRand)
	}
}
