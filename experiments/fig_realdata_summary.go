package experiments

import (
	"bytes"
	"fmt"
	"github.com/neural-adb/nadb/internal/fsutil"
	"path/filepath"
	"slices"
	"strings"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/stats"
)

// writeRealDataSummary writes dir/ID-summary.md and dir/ID-summary.csv for a
// real-data figure: per-algorithm tables at T = 250 and at the end (mean ±
// 95% t-interval, paired tests against the best), diagnostics, and reference
// levels of non-learners on the same seeds. It is the figure's Tables hook,
// so "nadb figures" regenerates the summaries with the figure.
func writeRealDataSummary(f Figure, load Loader, out string) ([]string, error) {
	{
		var md strings.Builder
		md.WriteString("# " + f.ID + "\n\n" + f.Caption + "\n\n")
		var all bytes.Buffer
		// An early checkpoint (a quarter of the duels: 250 at paper scale)
		// and the last one.
		spec := f.Rows[0].Curves[0].Spec
		early := spec.T / 4 / spec.Every * spec.Every
		for i, at := range []int{early, -1} {
			s, err := RealDataSummary(f, load, at)
			if err != nil {
				return nil, err
			}
			md.WriteString(s.Markdown() + "\n")
			var b bytes.Buffer
			if err := s.WriteCSV(&b); err != nil {
				return nil, err
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
		s, err := RealDataSummary(diag, load, -1)
		if err != nil {
			return nil, err
		}
		md.WriteString("Diagnostics (where the duels went, and how many answers were coins):\n\n" + s.Markdown() + "\n")
		refs, err := realDataReferences(f)
		if err != nil {
			return nil, err
		}
		md.WriteString(refs)
		mdPath, csvPath := filepath.Join(out, f.ID+"-summary.md"), filepath.Join(out, f.ID+"-summary.csv")
		if err := fsutil.WriteFile(mdPath, []byte(md.String())); err != nil {
			return nil, err
		}
		if err := fsutil.WriteFile(csvPath, all.Bytes()); err != nil {
			return nil, err
		}
		return []string{mdPath, csvPath}, nil
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
func realDataReferences(f Figure) (string, error) {
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
			return "", err
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
				return "", err
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
	return b.String(), nil
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
