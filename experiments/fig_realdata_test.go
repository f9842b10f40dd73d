package experiments

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/stats"
)

// TestRealDataFigures: both figures have a curve for every algorithm, and
// every metric they plot is a column of their problem's runs.
func TestRealDataFigures(t *testing.T) {
	figs, err := Figures(Quick, RealDataFigures)
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
		if !slices.Equal(algos, algorithms.Names()) {
			t.Errorf("%s: curves %v, want every algorithm", f.ID, algos)
		}
		spec := f.Rows[0].Curves[0].Spec
		spec.T, spec.Every, spec.Seed = 5, 5, 1
		spec.Algorithm = "random"
		res, err := Run(context.Background(), spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range f.Metrics {
			if _, err := Metric(res, res.Checkpoints[1], m); err != nil {
				t.Errorf("%s: %v", f.ID, err)
			}
			if title, _ := MetricLabel(m); title == m {
				t.Errorf("%s: metric %s has no label", f.ID, m)
			}
		}
	}
}

// TestRealDataSummary checks the summary on made-up results: means, t
// intervals, the best row per metric and the paired test against it.
func TestRealDataSummary(t *testing.T) {
	f := Figure{ID: "x", Seeds: 3, Metrics: []string{"test_accuracy", "mean_gap"}, Rows: []Row{{Curves: []Curve{
		{Label: "a", Spec: Spec{Algorithm: "a"}}, {Label: "b", Spec: Spec{Algorithm: "b"}}, {Label: "c", Spec: Spec{Algorithm: "c"}},
	}}}}
	acc := map[string][]float64{"a": {0.6, 0.7, 0.8}, "b": {0.61, 0.72, 0.83}, "c": {0.30, 0.31, 0.33}}
	gap := map[string][]float64{"a": {1, 2, 3}, "b": {3, 4, 5}, "c": {math.NaN(), 1, 1}}
	load := func(s Spec) (*Result, error) {
		i := s.Seed - 1
		return &Result{ExtraColumns: []string{"test_accuracy"}, Checkpoints: []Checkpoint{
			{T: 0, MeanGap: 9, Extra: []float64{0.5}},
			{T: 10, MeanGap: gap[s.Algorithm][i], Extra: []float64{acc[s.Algorithm][i]}},
		}}, nil
	}
	s, err := RealDataSummary(f, load, -1)
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
	if s0, err := RealDataSummary(f, load, 0); err != nil || s0.Rows[0].Mean[1] != 9 {
		t.Errorf("summary at t = 0: %v", err)
	}
	if _, err := RealDataSummary(f, load, 5); err == nil {
		t.Error("a checkpoint that does not exist was summarised")
	}
}

// TestWriteRealDataSummary regenerates figures/realdata/*-summary.{csv,md}
// from the run cache when NADB_REALDATA_CACHE names it (after "nadb figures
// -only real-cems,real-shuttle"). It is a generator, not a check: without
// the variable it does nothing.
func TestWriteRealDataSummary(t *testing.T) {
	dir := os.Getenv("NADB_REALDATA_CACHE")
	if dir == "" {
		t.Skip("set NADB_REALDATA_CACHE to the run cache to regenerate figures/realdata")
	}
	figs, err := Figures(Paper, RealDataFigures)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join("..", "figures", "realdata")
	for _, f := range figs {
		var md strings.Builder
		md.WriteString("# " + f.ID + "\n\n" + f.Caption + "\n\n")
		var all bytes.Buffer
		for i, at := range []int{250, -1} {
			s, err := RealDataSummary(f, CacheLoader(&Cache{Dir: dir}), at)
			if err != nil {
				t.Fatal(err)
			}
			md.WriteString(s.Markdown() + "\n")
			var b bytes.Buffer
			if err := s.WriteCSV(&b); err != nil {
				t.Fatal(err)
			}
			if i > 0 { // one header
				_, rest, _ := strings.Cut(b.String(), "\n")
				b.Reset()
				b.WriteString(rest)
			}
			all.Write(b.Bytes())
		}
		md.WriteString("Mean ± half-width of the 95% t-interval over seeds; bold: the best mean; ≈: a paired t-test (same splits) cannot tell the row from the best at the 5% level (two-sided, uncorrected for the number of rows). n/a: the learner has no Scorer or a seed gave NaN.\n\n")
		diag := f
		diag.Metrics = []string{"distinct_contexts", "top_context_share"}
		if f.ID == "real-cems" {
			diag.Metrics = append(diag.Metrics, "tie_share", "unrecorded_share")
		}
		s, err := RealDataSummary(diag, CacheLoader(&Cache{Dir: dir}), -1)
		if err != nil {
			t.Fatal(err)
		}
		md.WriteString("Diagnostics (where the duels went, and how many answers were coins):\n\n" + s.Markdown() + "\n")
		md.WriteString(realDataReferences(t, f))
		if err := writeAtomic(filepath.Join(out, f.ID+"-summary.md"), []byte(md.String())); err != nil {
			t.Fatal(err)
		}
		if err := writeAtomic(filepath.Join(out, f.ID+"-summary.csv"), all.Bytes()); err != nil {
			t.Fatal(err)
		}
	}
}

// scorerLearner adapts a Scorer to the Learner argument of ExtraEvaluator.
type scorerLearner struct {
	algorithms.Learner // nil: only Score is called
	algorithms.Scorer
}

// realDataReferences returns a Markdown table of reference levels that are
// not active learners, for the same seeds: the linear Bradley–Terry MLE fitted
// passively to all training information at once, and a constant model.
func realDataReferences(t *testing.T, f Figure) string {
	t.Helper()
	p := f.Rows[0].Curves[0].Spec.Problem
	var cols []string
	var rows = map[string][][]float64{} // name → [seed][column]
	names := []string{}
	add := func(name string, v []float64) {
		if _, ok := rows[name]; !ok {
			names = append(names, name)
		}
		rows[name] = append(rows[name], v)
	}
	for seed := 1; seed <= f.Seeds; seed++ {
		prob, err := p.Build(uint64(seed))
		if err != nil {
			t.Fatal(err)
		}
		ev := prob.Evaluator.(ExtraEvaluator)
		cols = ev.ExtraColumns()
		cfg := algorithms.Default()
		cfg.RetrainEvery, cfg.MLEIters = 1<<30, 100
		m := algorithms.NewLinearBT(algorithms.Env{Pool: prob.Pool, Config: cfg, Seed: uint64(seed)})
		K := prob.Pool.Arms
		switch e := prob.Evaluator.(type) {
		case *cemsEvaluator:
			for _, a := range e.replay.Answers.Strict() {
				if a.Y == 1 {
					m.AddDuel(a.Context, a.Arm1, a.Arm2)
				} else {
					m.AddDuel(a.Context, a.Arm2, a.Arm1)
				}
			}
		case *shuttleEvaluator:
			for c := range prob.Pool.Contexts {
				y := slices.Index(e.F[c*K:(c+1)*K], slices.Max(e.F[c*K:(c+1)*K]))
				for a := range K {
					if a != y {
						m.AddDuel(c, y, a)
					}
				}
			}
		}
		m.Fit()
		add("linear BT fitted to all training information at once (λ = 1)", ev.Extra(nil, scorerLearner{Scorer: m}))
		if e, ok := prob.Evaluator.(*cemsEvaluator); ok {
			// The same without covariates: school indicators only (a
			// population ranking of the schools).
			K, d := prob.Pool.Arms, prob.Pool.Dim
			x := make([]float64, prob.Pool.Rows()*K)
			for n := range prob.Pool.Rows() {
				copy(x[n*K:(n+1)*K], prob.Pool.X[n*d:n*d+K])
			}
			sub, err := algorithms.NewPool(prob.Pool.Contexts, K, K, x)
			if err != nil {
				t.Fatal(err)
			}
			ms := algorithms.NewLinearBT(algorithms.Env{Pool: sub, Config: cfg, Seed: uint64(seed)})
			for _, a := range e.replay.Answers.Strict() {
				if a.Y == 1 {
					ms.AddDuel(a.Context, a.Arm1, a.Arm2)
				} else {
					ms.AddDuel(a.Context, a.Arm2, a.Arm1)
				}
			}
			ms.Fit()
			add("the same on school indicators only (no covariates: a population ranking)", ev.Extra(nil, scorerLearner{Scorer: projected{ms, d, K}}))
		}
		add("constant model (every arm scored alike)", ev.Extra(nil, scorerLearner{Scorer: constRows{prob.Pool.Dim}}))
		if p.Name == "shuttle" {
			add("majority class (Rad.Flow) always", ev.Extra(nil, scorerLearner{Scorer: majority{}}))
		}
	}
	var keep []int // columns defined for references (not the coin shares)
	for k, c := range cols {
		if !diagnostic(c) {
			keep = append(keep, k)
		}
	}
	var b strings.Builder
	b.WriteString("References (not active learners; same seeds):\n\n| reference |")
	for _, k := range keep {
		title, _ := MetricLabel(cols[k])
		b.WriteString(" " + title + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(keep)) + "\n")
	for _, name := range names {
		b.WriteString("| " + name + " |")
		for _, k := range keep {
			var v []float64
			for _, r := range rows[name] {
				v = append(v, r[k])
			}
			m, h := stats.MeanCI(v, 0.95)
			b.WriteString(fmt.Sprintf(" %.3f ± %.3f |", m, h))
		}
		b.WriteString("\n")
	}
	b.WriteString("\nThe linear reference sees every training answer once (CEMS: all strict answers of the training students; Shuttle: for every pool sample, the true class beating each other class, noise-free), so it bounds what the linear learners can reach from a T-duel budget of actively chosen, noisy answers.\n")
	return b.String()
}

// projected scores rows of dim features with a scorer of their first k.
type projected struct {
	s      algorithms.Scorer
	dim, k int
}

func (p projected) Score(dst, x []float64) []float64 {
	n := len(x) / p.dim
	y := make([]float64, n*p.k)
	for i := range n {
		copy(y[i*p.k:(i+1)*p.k], x[i*p.dim:i*p.dim+p.k])
	}
	return p.s.Score(dst, y)
}

// constRows scores every row of dim features 0.
type constRows struct{ dim int }

func (c constRows) Score(dst, x []float64) []float64 { return make([]float64, len(x)/c.dim) }

// majority scores the first shuttle class (Rad.Flow, the majority) 1 and the
// others 0; rows have 7 blocks of 10 features and hold their arm's block.
type majority struct{}

func (majority) Score(dst, x []float64) []float64 {
	const dim = 70
	out := make([]float64, len(x)/dim)
	for n := range out {
		if n%7 == 0 {
			out[n] = 1
		}
	}
	return out
}
