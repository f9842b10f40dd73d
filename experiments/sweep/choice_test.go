package sweep

import (
	"math"
	"slices"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
)

func TestLogGrid(t *testing.T) {
	for _, tc := range []struct {
		T    int
		want []int
	}{
		{1000, []int{0, 25, 50, 100, 200, 400, 700, 1000}},
		{500, []int{0, 25, 50, 100, 200, 400, 500}},
		{250, []int{0, 25, 50, 100, 200, 250}},
		{1200, []int{0, 25, 50, 100, 200, 400, 700, 1000, 1200}},
	} {
		if got := LogGrid(tc.T); !slices.Equal(got, tc.want) {
			t.Errorf("LogGrid(%d) = %v, want %v", tc.T, got, tc.want)
		}
		for _, sc := range Scales {
			if g := GridEvery(sc); sc.T%g != 0 || 25%g != 0 && g != sc.Every {
				t.Errorf("%s: GridEvery %d does not divide T = %d", sc.Name, g, sc.T)
			}
		}
	}
}

// TestChoiceFiguresShareRuns: neural-adb-plus's own runs of figures/choice
// are runs of the plus-* figures (so no run is computed twice), every
// learner's twin differs from its run only in the collection rule, and
// every run checks on the log grid.
func TestChoiceFiguresShareRuns(t *testing.T) {
	for _, sc := range []Scale{Paper, Quick} {
		figs, err := Figures(sc, nil)
		if err != nil {
			t.Fatal(err)
		}
		plus := map[string]bool{}
		for _, f := range figs {
			if f.Dir == "plus" {
				for _, j := range f.Jobs() {
					plus[j.Spec.Key()] = true
				}
			}
		}
		n := 0
		for _, f := range figs {
			if f.Dir != "choice" {
				continue
			}
			for _, r := range f.Rows {
				own, twin := r.Curves[0].Spec, r.Curves[1].Spec
				if own.Config.Collect.Rule() != algorithms.CollectOwn || twin.Config.Collect != algorithms.CollectPassive {
					t.Errorf("%s, %s: collect %q and %q", f.ID, r.Title, own.Config.Collect, twin.Config.Collect)
				}
				if Twin(own) != twin {
					t.Errorf("%s, %s: the twin differs from the learner's run in more than the collection rule", f.ID, r.Title)
				}
				for _, g := range LogGrid(own.T) {
					if g%own.Every != 0 {
						t.Errorf("%s, %s: grid point %d is not a checkpoint (every %d)", f.ID, r.Title, g, own.Every)
					}
				}
				if own.Algorithm == "neural-adb-plus" {
					for s := 1; s <= f.Seeds; s++ {
						own.Seed = uint64(s)
						if !plus[own.Key()] {
							t.Errorf("%s scale, %s, %s, seed %d: not a run of the plus figures", sc.Name, f.ID, r.Title, s)
						}
					}
					n++
				}
			}
		}
		if n != len(ChoiceProblems) {
			t.Errorf("%s scale: %d rows of neural-adb-plus in figures/choice, want %d", sc.Name, n, len(ChoiceProblems))
		}
	}
}

// curves builds TwinCurves on LogGrid(1000) from per-seed values.
func curves(metric string, own, twin [][]float64) *TwinCurves {
	return &TwinCurves{Metric: metric, Grid: LogGrid(1000), Own: own, Twin: twin}
}

func TestLabelsToMatch(t *testing.T) {
	// grid:          0   25   50  100  200  400  700  1000
	twin := [][]float64{{10, 9, 8, 7, 6, 5, 4, 3}, {10, 9, 8, 7, 6, 5, 4, 3}}
	own := [][]float64{{10, 8, 6, 4, 2, 2, 2, 2}, {10, 8, 6, 4, 4, 2, 2, 2}}
	c := curves("mean_gap", own, twin)
	// Means: 10, 8, 6, 4, 3, …: reaches the twin's 3 at t = 200 exactly.
	if got := c.LabelsToMatch(nil); got != 200 {
		t.Errorf("labels-to-match %v, want 200", got)
	}
	// Seed 0 alone: 4 at 100, 2 at 200: 3 is reached halfway, t = 150.
	if got := c.LabelsToMatch([]int{0, 0}); got != 150 {
		t.Errorf("labels-to-match of seed 0 %v, want 150", got)
	}
	// Never reached: the learner stays above 3.
	c2 := curves("mean_gap", [][]float64{{10, 9, 9, 9, 9, 9, 9, 9}}, [][]float64{{10, 9, 8, 7, 6, 5, 4, 3}})
	if got := c2.LabelsToMatch(nil); !math.IsInf(got, 1) {
		t.Errorf("labels-to-match %v, want +Inf", got)
	}
	// Higher is better (accuracy): the same curves mirrored.
	acc := func(x [][]float64) [][]float64 {
		out := make([][]float64, len(x))
		for i, r := range x {
			for _, v := range r {
				out[i] = append(out[i], 1-v/10)
			}
		}
		return out
	}
	c3 := curves("test_accuracy", acc(own), acc(twin))
	if got := c3.LabelsToMatch(nil); math.Abs(got-200) > 1e-9 {
		t.Errorf("accuracy labels-to-match %v, want 200", got)
	}
	s := c3.Compare()
	if s.Area <= 0 {
		t.Errorf("accuracy: area %v, want positive (the learner is ahead)", s.Area)
	}
}

func TestAreas(t *testing.T) {
	// The twin is 1 above the learner from t = 25 on: the area is the
	// integral of the difference (a ramp 0→1 over [0, 25], then 1) / 1000.
	own := [][]float64{{5, 4, 4, 4, 4, 4, 4, 4}}
	twin := [][]float64{{5, 5, 5, 5, 5, 5, 5, 5}}
	got := curves("mean_gap", own, twin).Areas()
	want := (12.5 + 975) / 1000
	if math.Abs(got[0]-want) > 1e-12 {
		t.Errorf("area %v, want %v", got[0], want)
	}
}

// TestCompareVerdicts checks each reading on made-up seeds.
func TestCompareVerdicts(t *testing.T) {
	mk := func(final func(s int) (own, twin float64)) *TwinCurves {
		var own, twin [][]float64
		for s := range 10 {
			o, w := final(s)
			noise := float64(s%3) * 0.01
			own = append(own, []float64{10, 9, 8, 7, 6, 5, o + noise, o + noise})
			twin = append(twin, []float64{10, 9.5, 9, 8.5, 8, 7, w + noise, w + 2*noise})
		}
		return curves("mean_gap", own, twin)
	}
	for _, tc := range []struct {
		name string
		c    *TwinCurves
		want Verdict
	}{
		{"saves", mk(func(s int) (float64, float64) { return 1, 3 }), SavesLabels},
		{"twin better", mk(func(s int) (float64, float64) { return 5, 3 }), TwinBetter},
		{"twin no gain", curves("mean_gap", [][]float64{{1, 2, 2, 2, 2, 2, 2, 2}, {1, 2, 2, 2, 2, 2, 2, 2.1}}, [][]float64{{1, 3, 3, 3, 3, 3, 3, 3}, {1, 3, 3, 3, 3, 3, 3, 2.5}}), TwinNoGain},
		{"not resolved", mk(func(s int) (float64, float64) {
			if s%2 == 0 {
				return 2.9, 3
			}
			return 3.2, 3
		}), NotResolved},
	} {
		s := tc.c.Compare()
		if s.Verdict != tc.want {
			t.Errorf("%s: verdict %q, want %q (%+v)", tc.name, s.Verdict, tc.want, s)
		}
	}
}

// TestDecidingTest: worst gaps are decided by the signed-rank test, every
// other metric by the t-test.
func TestDecidingTest(t *testing.T) {
	for m, want := range map[string]Test{"worst_gap": SignedRank, "test_worst_gap": SignedRank, "mean_gap": TTest, "test_logloss": TTest, "test_accuracy": TTest} {
		if got := DecidingTest(m); got != want {
			t.Errorf("DecidingTest(%s) = %s, want %s", m, got, want)
		}
	}
}

// TestChoiceMetricsExist: every metric of a choice figure is a column of its
// problem's runs.
func TestChoiceMetricsExist(t *testing.T) {
	for _, p := range ChoiceProblems {
		s := ChoiceSpec(Quick, "random", p)
		s.T, s.Every, s.Seed = 4, 2, 1
		s.Problem.Candidates = min(s.Problem.Candidates, 3)
		res, err := experiments.Run(t.Context(), s, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range append([]string{p.Metric}, choiceMetrics[p.Group]...) {
			if _, err := experiments.Metric(res, res.Checkpoints[1], m); err != nil {
				t.Errorf("%s: %v", p.ID, err)
			}
		}
	}
}
