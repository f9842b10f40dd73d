package sweep

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"strings"

	"github.com/neural-adb/nadb/internal/stats"
)

// The ablation's tables (plus-ablation): every ablated learner against the
// full learner — not against the row's best, which would test each
// ingredient against a different comparator chosen after the runs — paired
// by seed, two-sided (removing an ingredient may help as well as hurt), by
// the test DecidingTest names for the metric (the Wilcoxon signed-rank test
// for the worst gap, the t-test for the mean gap; the other shown beside),
// with Holm's correction across the whole family (every ablation, problem
// and metric of the figure).

// AblationTest is one ablated learner against the full learner on one
// problem and metric.
type AblationTest struct {
	Row, Label, Metric string
	Mean, Half         float64 // the ablated learner's mean and 95% t half-width
	Diff               float64 // mean of (ablated − full) over seeds
	Deciding           Test
	P, POther          float64 // two-sided p-values, deciding and other test
	Adjusted           float64 // Holm-adjusted P across the family
}

// Reading says what the test found at level 5%: "worse", "better" (than
// the full learner) or "not resolved".
func (a AblationTest) Reading() string {
	switch {
	case math.IsNaN(a.Adjusted):
		return "n/a"
	case a.Adjusted >= 0.05:
		return "not resolved"
	case (a.Diff > 0) != higherIsBetter(a.Metric):
		return "worse"
	}
	return "better"
}

// twoSided returns the two-sided p-value of test from its one-sided ones.
func twoSided(test Test, a, b []float64) float64 {
	return math.Min(1, 2*math.Min(PairedLess(test, a, b), PairedLess(test, b, a)))
}

// AblationTests compares every curve of every row of f but the first (the
// full learner, Curves[0]) with the first, at the last checkpoint, for
// every metric; Holm-adjusted across all of them.
func AblationTests(f Figure, load Loader) ([]AblationTest, [][]SummaryRow, error) {
	var out []AblationTest
	var summaries [][]SummaryRow
	for i := range f.Rows {
		one := f
		one.Rows = f.Rows[i : i+1]
		s, vals, err := summaryValues(one, load, -1)
		if err != nil {
			return nil, nil, err
		}
		summaries = append(summaries, s.Rows)
		for ci := 1; ci < len(f.Rows[i].Curves); ci++ {
			for mi, m := range f.Metrics {
				t := AblationTest{Row: f.Rows[i].Title, Label: f.Rows[i].Curves[ci].Label, Metric: m, Mean: s.Rows[ci].Mean[mi], Half: s.Rows[ci].Half[mi], Deciding: DecidingTest(m)}
				a, full := vals[ci][mi], vals[0][mi]
				t.Diff = stats.PairedTLess(a, full).MeanDiff
				other := TTest
				if t.Deciding == TTest {
					other = SignedRank
				}
				t.P, t.POther = twoSided(t.Deciding, a, full), twoSided(other, a, full)
				out = append(out, t)
			}
		}
	}
	p := make([]float64, len(out))
	for i, t := range out {
		p[i] = t.P
	}
	for i, adj := range stats.Holm(p) {
		out[i].Adjusted = adj
	}
	return out, summaries, nil
}

// writeAblationTables is plus-ablation's Tables hook: per problem, every
// ablation's mean with its difference from the full learner and the
// Holm-adjusted p-value; the CSV of every test; the seeds file.
func writeAblationTables(f Figure, c *Cache, out string) ([]string, error) {
	load := CacheLoader(c)
	tests, sums, err := AblationTests(f, load)
	if err != nil {
		return nil, err
	}
	var md strings.Builder
	md.WriteString("# " + f.ID + "\n\n" + f.Caption + "\n\n")
	k := 0
	for ri, r := range f.Rows {
		fmt.Fprintf(&md, "## %s\n\n| algorithm (T = %d, %d seeds) |", r.Title, f.Rows[ri].Curves[0].Spec.T, f.Seeds)
		for _, m := range f.Metrics {
			title, _ := MetricLabel(m)
			fmt.Fprintf(&md, " %s ↓ | vs full: Δ, Holm-adjusted p (%s) |", title, DecidingTest(m))
		}
		md.WriteString("\n|---|" + strings.Repeat("---|---|", len(f.Metrics)) + "\n")
		for ci, c := range r.Curves {
			fmt.Fprintf(&md, "| %s |", c.Label)
			for mi := range f.Metrics {
				row := sums[ri][ci]
				fmt.Fprintf(&md, " %.3f ± %.3f |", row.Mean[mi], row.Half[mi])
				if ci == 0 {
					md.WriteString(" (the full learner) |")
					continue
				}
				t := tests[k]
				k++
				fmt.Fprintf(&md, " %+.3f, %s: %s |", t.Diff, fmtP(t.Adjusted), t.Reading())
			}
			md.WriteString("\n")
		}
		md.WriteString("\n")
	}
	fmt.Fprintf(&md, "Mean ± half-width of the 95%% t-interval over %d seeds at the last checkpoint. Each ablation is tested against the full learner (the first row) on the same seeds: two-sided paired tests, the Wilcoxon signed-rank test for the worst gap (heavy-tailed across seeds) and the t-test for the mean gap (declared in verify/prereg before the runs), Holm-corrected across all %d tests of the figure; \"worse\" or \"better\" at a Holm-adjusted p below 0.05, else \"not resolved\". The p-values of both tests, unadjusted and adjusted: the -summary.csv beside this file; per-seed values: the -seeds.csv.\n", f.Seeds, len(tests))
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"row", "algorithm", "metric", "mean", "ci95_half", "mean_diff_vs_full", "deciding_test", "p_two_sided", "p_two_sided_other_test", "p_holm", "reading"})
	for _, t := range tests {
		w.Write([]string{t.Row, t.Label, t.Metric, fmtFloat(t.Mean), fmtFloat(t.Half), fmtFloat(t.Diff), string(t.Deciding), fmtFloat(t.P), fmtFloat(t.POther), fmtFloat(t.Adjusted), t.Reading()})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, err
	}
	return writeSummaryFiles(f, load, out, md.String(), buf.Bytes(), lastCheckpoint)
}
