package sweep

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
)

// TestRealDataFigures: both figures have a curve for every algorithm but
// neural-adb-plus (which has its own, plus-real-cems and plus-real-shuttle),
// and every metric they plot is a column of their problem's runs.
func TestRealDataFigures(t *testing.T) {
	figs, err := Figures(Quick, []string{"real-cems", "real-shuttle"})
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 2 {
		t.Fatalf("%d figures", len(figs))
	}
	for _, f := range figs {
		var algos []string
		for _, c := range f.Rows[0].Curves {
			algos = append(algos, c.Spec.Algorithm)
		}
		want := slices.DeleteFunc(algorithms.Names(), func(a string) bool { return a == "neural-adb-plus" })
		if !slices.Equal(algos, want) {
			t.Errorf("%s: curves %v, want every algorithm", f.ID, algos)
		}
		spec := f.Rows[0].Curves[0].Spec
		spec.T, spec.Every, spec.Seed = 5, 5, 1
		spec.Algorithm = "random"
		res, err := experiments.Run(context.Background(), spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range f.Metrics {
			if _, err := experiments.Metric(res, res.Checkpoints[1], m); err != nil {
				t.Errorf("%s: %v", f.ID, err)
			}
			if title, _ := MetricLabel(m); title == m {
				t.Errorf("%s: metric %s has no label", f.ID, m)
			}
		}
	}
}

// TestSummaryAt checks the summary on made-up results: means, t
// intervals, the best row per metric and the paired test against it.
func TestSummaryAt(t *testing.T) {
	f := Figure{ID: "x", Seeds: 3, Metrics: []string{"test_accuracy", "mean_gap"}, Rows: []Row{{Curves: []Curve{
		{Label: "a", Spec: experiments.Spec{Algorithm: "a"}}, {Label: "b", Spec: experiments.Spec{Algorithm: "b"}}, {Label: "c", Spec: experiments.Spec{Algorithm: "c"}},
	}}}}
	acc := map[string][]float64{"a": {0.6, 0.7, 0.8}, "b": {0.61, 0.72, 0.83}, "c": {0.30, 0.31, 0.33}}
	gap := map[string][]float64{"a": {1, 2, 3}, "b": {3, 4, 5}, "c": {math.NaN(), 1, 1}}
	load := func(s experiments.Spec) (*experiments.Result, error) {
		i := s.Seed - 1
		return &experiments.Result{ExtraColumns: []string{"test_accuracy"}, Checkpoints: []experiments.Checkpoint{
			{T: 0, MeanGap: 9, Extra: []float64{0.5}},
			{T: 10, MeanGap: gap[s.Algorithm][i], Extra: []float64{acc[s.Algorithm][i]}},
		}}, nil
	}
	s, err := SummaryAt(f, load, -1)
	if err != nil {
		t.Fatal(err)
	}
	if s.T != 10 || !slices.Equal(s.Best, []int{1, 0}) {
		t.Fatalf("T %d, best %v; want 10, [1 0] (b on accuracy, a on gap)", s.T, s.Best)
	}
	if m, h := s.Rows[0].Mean[1], s.Rows[0].Half[1]; m != 2 || math.Abs(h-4.302652729749464*1/math.Sqrt(3)) > 1e-9 {
		t.Errorf("a's gap %v ± %v; want 2 ± t(0.975, 2)·1/√3", m, h)
	}
	// b − a on accuracy is 0.01, 0.02, 0.03: consistent, p ≈ 0.074 two-sided.
	if p := s.Rows[0].PBest[0]; !(p > 0.05 && p < 0.1) {
		t.Errorf("p(a vs b on accuracy) = %v", p)
	}
	if p := s.Rows[2].PBest[0]; !(p < 0.05) {
		t.Errorf("p(c vs b on accuracy) = %v, want < 0.05", p)
	}
	if !math.IsNaN(s.Rows[2].Mean[1]) || s.Rows[2].N[1] != 2 {
		t.Errorf("a NaN seed must void the mean: %v (n = %d)", s.Rows[2].Mean[1], s.Rows[2].N[1])
	}
	md := s.Markdown()
	for _, want := range []string{"| a | 0.700 ± 0.248 ≈ | **2.000 ± 2.484** |", "| c | 0.313 ± 0.038 | n/a |", "Held-out accuracy ↑"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	if s0, err := SummaryAt(f, load, 0); err != nil || s0.Rows[0].Mean[1] != 9 {
		t.Errorf("summary at t = 0: %v", err)
	}
	if _, err := SummaryAt(f, load, 5); err == nil {
		t.Error("a checkpoint that does not exist was summarised")
	}
}

// TestReferencesMarkdown: the references table of a real-data summary has
// the four reference rows, the constant model at accuracy ½ and log-loss
// ln 2, and names the majority arm of every seed.
func TestReferencesMarkdown(t *testing.T) {
	figs, err := Figures(Quick, []string{"real-cems"})
	if err != nil {
		t.Fatal(err)
	}
	md, err := referencesMarkdown(figs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| reference | Held-out accuracy | Held-out log-loss | Held-out Copeland gap |",
		"| linear BT fitted to all training answers at once (λ = 1) |",
		"| global ranking of arm identifiers (BT, λ = 1) |",
		"| majority arm always: ",
		"| constant model (every pair 50/50) | 0.500 ± 0.000 | 0.693 ± 0.000 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("references lack %q:\n%s", want, md)
		}
	}
	for _, tc := range []struct {
		notes []string
		want  string
	}{
		{nil, ""}, {[]string{"", ""}, ""}, {[]string{"a", "a"}, ": a"}, {[]string{"a", "b", "a"}, ": a ×2, b ×1"},
	} {
		if got := noteSuffix(tc.notes); got != tc.want {
			t.Errorf("noteSuffix(%q) = %q, want %q", tc.notes, got, tc.want)
		}
	}
}
