package sweep

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/pool"
	_ "github.com/neural-adb/nadb/experiments/realdata" // the problems cems and shuttle
	"github.com/neural-adb/nadb/internal/fsutil"
	"github.com/neural-adb/nadb/internal/stats"
)

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

// SummaryAt loads the runs of the first row of f and summarises the
// checkpoint at round t (the last checkpoint if t < 0).
func SummaryAt(f Figure, load Loader, t int) (*Summary, error) {
	s, _, err := summaryValues(f, load, t)
	return s, err
}

// summaryValues is SummaryAt with the per-seed values it summarises,
// [curve][metric][seed].
func summaryValues(f Figure, load Loader, t int) (*Summary, [][][]float64, error) {
	s := &Summary{Figure: f, Metrics: f.Metrics, T: t}
	vals := make([][][]float64, len(f.Rows[0].Curves)) // [curve][metric][seed]
	for ci, c := range f.Rows[0].Curves {
		vals[ci] = make([][]float64, len(f.Metrics))
		for seed := 1; seed <= f.Seeds; seed++ {
			spec := c.Spec
			spec.Seed = uint64(seed)
			res, err := load(spec)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", f.ID, err)
			}
			k := len(res.Checkpoints) - 1
			if t >= 0 {
				for k >= 0 && res.Checkpoints[k].T != t {
					k--
				}
				if k < 0 {
					return nil, nil, fmt.Errorf("%s: %s seed %d has no checkpoint at t = %d", f.ID, c.Label, seed, t)
				}
			}
			s.T = res.Checkpoints[k].T
			for mi, m := range f.Metrics {
				v, err := experiments.Metric(res, res.Checkpoints[k], m)
				if err != nil {
					return nil, nil, fmt.Errorf("%s: %w", f.ID, err)
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
	return s, vals, nil
}

// WriteCSV writes the summary as algorithm,t,metric,mean,ci95_half,n,p_vs_best rows.
func (s *Summary) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"algorithm", "t", "metric", "mean", "ci95_half", "n", "p_vs_best"})
	for _, r := range s.Rows {
		for mi, m := range s.Metrics {
			cw.Write([]string{r.Label, strconv.Itoa(s.T), m, fmtFloat(r.Mean[mi]), fmtFloat(r.Half[mi]), strconv.Itoa(r.N[mi]), fmtFloat(r.PBest[mi])})
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

// writeSummaryTables writes dir/ID-summary.md and dir/ID-summary.csv for a
// real-data figure: per-algorithm tables at T = 250 and at the end (mean ±
// 95% t-interval, paired tests against the best), diagnostics, and reference
// levels of non-learners on the same seeds. It is the figure's Tables hook,
// so "nadb figures" regenerates the summaries with the figure.
func writeSummaryTables(f Figure, c *Cache, out string) ([]string, error) {
	load := CacheLoader(c)
	{
		var md strings.Builder
		md.WriteString("# " + f.ID + "\n\n" + f.Caption + "\n\n")
		var all bytes.Buffer
		// An early checkpoint (a quarter of the duels: 250 at paper scale)
		// and the last one.
		spec := f.Rows[0].Curves[0].Spec
		early := spec.T / 4 / spec.Every * spec.Every
		for i, at := range []int{early, -1} {
			s, err := SummaryAt(f, load, at)
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
		s, err := SummaryAt(diag, load, -1)
		if err != nil {
			return nil, err
		}
		md.WriteString("Diagnostics (where the duels went, and how many answers were coins):\n\n" + s.Markdown() + "\n")
		refs, err := cachedReferences(f, c)
		if err != nil {
			return nil, err
		}
		md.WriteString(refs)
		seeds := f
		seeds.Metrics = slices.Concat(f.Metrics, diag.Metrics)
		return writeSummaryFiles(seeds, load, out, md.String(), all.Bytes(), func(*experiments.Result) []int { return []int{early, -1} })
	}
}

// lastCheckpoint selects the last checkpoint of a run for WriteSeedsCSV.
func lastCheckpoint(*experiments.Result) []int { return []int{-1} }

// writeSummaryFiles writes a figure's summary, dir/ID-summary.md and
// dir/ID-summary.csv, and beside them dir/ID-seeds.csv: every run's values
// of f's metrics at the checkpoints at selects, from which every paired
// test of the summary can be recomputed.
func writeSummaryFiles(f Figure, load Loader, dir, md string, csvData []byte, at func(*experiments.Result) []int) ([]string, error) {
	var seeds bytes.Buffer
	if err := WriteSeedsCSV(&seeds, f, load, at); err != nil {
		return nil, err
	}
	base := filepath.Join(dir, f.ID)
	paths := []string{base + "-summary.md", base + "-summary.csv", base + "-seeds.csv"}
	for i, data := range [][]byte{[]byte(md), csvData, seeds.Bytes()} {
		if err := fsutil.WriteFile(paths[i], data); err != nil {
			return paths[:i], err
		}
	}
	return paths, nil
}

// referencesMarkdown returns the Markdown table of the non-learner reference
// levels of a real-data figure (pool.References) on its seeds.
func referencesMarkdown(f Figure) (string, error) {
	cols, refs, err := pool.References(f.Rows[0].Curves[0].Spec.Problem, f.Seeds)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("References (not active learners; same seeds):\n\n| reference |")
	for _, c := range cols {
		title, _ := MetricLabel(c)
		b.WriteString(" " + title + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(cols)) + "\n")
	for _, r := range refs {
		b.WriteString("| " + r.Name + noteSuffix(r.Notes) + " |")
		for k := range cols {
			var v []float64
			for _, seed := range r.Values {
				v = append(v, seed[k])
			}
			m, h := stats.MeanCI(v, 0.95)
			b.WriteString(fmt.Sprintf(" %.3f ± %.3f |", m, h))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n" + pool.ReferenceNote + "\n")
	return b.String(), nil
}

// noteSuffix returns ": London" or ": London ×7, Paris ×3" for the per-seed
// notes of a reference (in order of first appearance), "" without notes.
func noteSuffix(notes []string) string {
	count := map[string]int{}
	var order []string
	for _, n := range notes {
		if n == "" {
			continue
		}
		if count[n] == 0 {
			order = append(order, n)
		}
		count[n]++
	}
	if len(order) == 0 {
		return ""
	}
	if len(order) == 1 {
		return ": " + order[0]
	}
	parts := make([]string, len(order))
	for i, n := range order {
		parts[i] = fmt.Sprintf("%s ×%d", n, count[n])
	}
	return ": " + strings.Join(parts, ", ")
}

func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
