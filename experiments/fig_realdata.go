package experiments

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/stats"
)

// The real-data benchmarks of "make figures" (ours: the paper has none).
//
//	real-cems     CEMSChoice, real human answers replayed (cems.go): held-out
//	              accuracy, log-loss and Copeland gap of the chosen school, and
//	              the training students' mean Copeland gap, vs T
//	real-shuttle  Statlog Shuttle as a dueling bandit (shuttle.go): pool mean
//	              gap, average regret, held-out accuracy and balanced accuracy
//
// Every registered algorithm is a curve, with the default Config, T and seeds
// of the scale (paper: T = 1000, seeds 1…10 = 10 random splits or pools).
// RealDataSummary turns the cached runs into the per-algorithm table of
// figures/realdata/.

// RealDataFigures are the ids of the real-data figures.
var RealDataFigures = []string{"real-cems", "real-shuttle"}

func init() {
	for name, l := range map[string][2]string{
		"test_accuracy":          {"Held-out accuracy", "share predicted correctly"},
		"test_logloss":           {"Held-out log-loss", "nats per answer"},
		"test_copeland_gap":      {"Held-out Copeland gap", "Copeland points (of 5)"},
		"test_balanced_accuracy": {"Held-out balanced accuracy", "mean recall over classes"},
		"answer_accuracy":        {"Recorded-answer accuracy", "share of answers"},
		"answer_logloss":         {"Recorded-answer log-loss", "nats per answer"},
		"tie_share":              {"Duels answered by a coin (tie)", "share of duels"},
		"unrecorded_share":       {"Duels answered by a coin (no record)", "share of duels"},
	} {
		if _, taken := metricLabels[name]; !taken {
			metricLabels[name] = l
		}
	}
	RegisterFigure("real-cems", func(sc Scale) Figure {
		return Figure{
			Caption: "CEMSChoice (real human answers replayed, ours; K = 6 schools, d = 58): held-out pairwise accuracy (share of recorded strict answers predicted), log-loss and Copeland gap of the chosen school on 101 held-out students, and the mean Copeland gap (MAE panel) on the 202 training students, vs duels; 10 random splits. Borda learners score Borda estimates, so their log-loss is not a likelihood.",
			Paper:   "ours",
			Metrics: []string{"test_accuracy", "test_logloss", "test_copeland_gap", "mean_gap"},
			Seeds:   sc.Seeds,
			Rows:    []Row{realDataRow(sc, "CEMSChoice", ProblemSpec{Name: "cems"})},
			Dir:     "realdata",
			Tables:  writeRealDataSummary,
		}
	})
	RegisterFigure("real-shuttle", func(sc Scale) Figure {
		return Figure{
			Caption: "Statlog Shuttle as a dueling bandit (ours; 300 contexts, K = 7 classes, d = 70, utility 2 for the true class, 0 otherwise): pool mean gap (2 x error rate), average regret, and held-out classification accuracy and balanced accuracy on 2,000 samples, vs duels; 10 random pools.",
			Paper:   "ours",
			Metrics: []string{"mean_gap", "avg_regret", "test_accuracy", "test_balanced_accuracy"},
			Seeds:   sc.Seeds,
			Rows:    []Row{realDataRow(sc, "Statlog Shuttle", ProblemSpec{Name: "shuttle"})},
			Dir:     "realdata",
			Tables:  writeRealDataSummary,
		}
	})
}

// realDataRow is one row with a curve for every registered algorithm.
func realDataRow(sc Scale, title string, p ProblemSpec) Row {
	r := Row{Title: title}
	for _, a := range algorithms.Names() {
		r.Curves = append(r.Curves, Curve{Label: DisplayName(a), Spec: Spec{Algorithm: a, Problem: p, Config: algorithms.Default(), T: sc.T, Every: sc.Every}})
	}
	return r
}

// SummaryRow is one algorithm's values at the summarised checkpoint, per
// metric: the mean over seeds ± the half-width of its 95% t-interval, and
// the two-sided p-value of a paired t-test against the best algorithm (the
// seeds share splits or pools, so the comparison is paired; NaN for the best
// itself).
type SummaryRow struct {
	Label      string
	Mean, Half []float64
	PBest      []float64
	N          []int // seeds with a finite value
}

// Summary is the per-algorithm table of a figure's first row at one checkpoint.
type Summary struct {
	Figure  Figure
	T       int
	Metrics []string
	Rows    []SummaryRow
	Best    []int // per metric, the row with the best mean (−1 if none)
}

// higherIsBetter reports the direction of a metric.
func higherIsBetter(metric string) bool { return strings.Contains(metric, "accuracy") }

// diagnostic reports metrics with no better direction (no best is marked).
func diagnostic(metric string) bool {
	switch metric {
	case "distinct_contexts", "top_context_share", "tie_share", "unrecorded_share":
		return true
	}
	return false
}

// RealDataSummary loads the runs of the first row of f and summarises the
// checkpoint at round t (the last checkpoint if t < 0).
func RealDataSummary(f Figure, load Loader, t int) (*Summary, error) {
	s := &Summary{Figure: f, Metrics: f.Metrics, T: t}
	vals := make([][][]float64, len(f.Rows[0].Curves)) // [curve][metric][seed]
	for ci, c := range f.Rows[0].Curves {
		vals[ci] = make([][]float64, len(f.Metrics))
		for seed := 1; seed <= f.Seeds; seed++ {
			spec := c.Spec
			spec.Seed = uint64(seed)
			res, err := load(spec)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f.ID, err)
			}
			k := len(res.Checkpoints) - 1
			if t >= 0 {
				for k >= 0 && res.Checkpoints[k].T != t {
					k--
				}
				if k < 0 {
					return nil, fmt.Errorf("%s: %s seed %d has no checkpoint at t = %d", f.ID, c.Label, seed, t)
				}
			}
			s.T = res.Checkpoints[k].T
			for mi, m := range f.Metrics {
				v, err := Metric(res, res.Checkpoints[k], m)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", f.ID, err)
				}
				vals[ci][mi] = append(vals[ci][mi], v)
			}
		}
	}
	s.Best = make([]int, len(f.Metrics))
	for ci, c := range f.Rows[0].Curves {
		r := SummaryRow{Label: c.Label}
		for mi := range f.Metrics {
			v := vals[ci][mi]
			n := 0
			for _, x := range v {
				if !math.IsNaN(x) {
					n++
				}
			}
			m, h := math.NaN(), math.NaN()
			if n == len(v) {
				m, h = stats.MeanCI(v, 0.95)
			}
			r.Mean, r.Half, r.N = append(r.Mean, m), append(r.Half, h), append(r.N, n)
		}
		s.Rows = append(s.Rows, r)
	}
	for mi, m := range f.Metrics {
		best := -1
		for ri, r := range s.Rows {
			v := r.Mean[mi]
			if math.IsNaN(v) || diagnostic(m) {
				continue
			}
			if best < 0 || (higherIsBetter(m) && v > s.Rows[best].Mean[mi]) || (!higherIsBetter(m) && v < s.Rows[best].Mean[mi]) {
				best = ri
			}
		}
		s.Best[mi] = best
		for ri := range s.Rows {
			p := math.NaN()
			if best >= 0 && ri != best && !math.IsNaN(s.Rows[ri].Mean[mi]) {
				pt := stats.PairedTLess(vals[ri][mi], vals[best][mi])
				p = 2 * math.Min(pt.P, 1-pt.P)
			}
			s.Rows[ri].PBest = append(s.Rows[ri].PBest, p)
		}
	}
	return s, nil
}

// WriteCSV writes the summary as algorithm,t,metric,mean,ci95_half,n,p_vs_best rows.
func (s *Summary) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"algorithm", "t", "metric", "mean", "ci95_half", "n", "p_vs_best"})
	for _, r := range s.Rows {
		for mi, m := range s.Metrics {
			cw.Write([]string{r.Label, strconv.Itoa(s.T), m, formatFloat(r.Mean[mi]), formatFloat(r.Half[mi]), strconv.Itoa(r.N[mi]), formatFloat(r.PBest[mi])})
		}
	}
	cw.Flush()
	return cw.Error()
}

// Markdown returns the summary as a Markdown table of mean ± 95% half-width:
// the best mean of each metric in bold, and "≈" on the rows a paired t-test
// cannot tell from the best at the 5% level (two-sided, uncorrected).
func (s *Summary) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "| algorithm (T = %d, %d seeds) |", s.T, s.Figure.Seeds)
	for _, m := range s.Metrics {
		title, _ := MetricLabel(m)
		dir := "↓"
		switch {
		case diagnostic(m):
			dir = ""
		case higherIsBetter(m):
			dir = "↑"
		}
		fmt.Fprintf(&b, " %s |", strings.TrimSpace(title+" "+dir))
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(s.Metrics)) + "\n")
	for ri, r := range s.Rows {
		fmt.Fprintf(&b, "| %s |", r.Label)
		for mi := range s.Metrics {
			cell := fmt.Sprintf("%.3f ± %.3f", r.Mean[mi], r.Half[mi])
			switch {
			case math.IsNaN(r.Mean[mi]):
				cell = "n/a"
			case ri == s.Best[mi]:
				cell = "**" + cell + "**"
			case !math.IsNaN(r.PBest[mi]) && r.PBest[mi] >= 0.05:
				cell += " ≈"
			}
			fmt.Fprintf(&b, " %s |", cell)
		}
		b.WriteString("\n")
	}
	return b.String()
}
