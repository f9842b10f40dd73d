package sweep

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/fsutil"
)

// The tables of figures/choice: per figure ID-summary.md and ID-summary.csv
// (every metric of every row: the learner against its twin at T, both
// paired tests in both directions, labels-to-match, area) and ID-seeds.csv
// (every run's values on the grid); across the figures savings.md and
// savings.csv (SavingsTable).

// SavingsRow is one row of the savings table: a learner against its twin
// on one problem and metric.
type SavingsRow struct {
	Learner string // algorithm
	Problem ChoiceProblem
	Savings
}

// choiceRows computes the savings rows of a choice figure, every metric
// of every row (the rows of f are ChoiceProblems of the figure's group).
func choiceRows(f Figure, load Loader) ([]SavingsRow, error) {
	var out []SavingsRow
	for _, r := range f.Rows {
		own := r.Curves[0].Spec
		p, ok := problemOfRow(r)
		if !ok {
			return nil, fmt.Errorf("%s: row %q is not a choice problem", f.ID, r.Title)
		}
		for _, m := range f.Metrics {
			c, err := LoadTwinCurves(load, own, f.Seeds, m, LogGrid(own.T))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f.ID, err)
			}
			out = append(out, SavingsRow{Learner: own.Algorithm, Problem: p, Savings: c.Compare()})
		}
	}
	return out, nil
}

// problemOfRow returns the choice problem a figure row was built for.
func problemOfRow(r Row) (ChoiceProblem, bool) {
	for _, p := range ChoiceProblems {
		if p.Title == r.Title {
			return p, true
		}
	}
	return ChoiceProblem{}, false
}

// primaryNames are the short names of the primary metrics.
var primaryNames = map[string]string{"mean_gap": "pool mean gap", "test_logloss": "held-out log-loss", "test_mean_gap": "held-out mean gap"}

// savingsHeader is the header of the savings CSVs.
var savingsHeader = []string{"learner", "problem", "metric", "primary", "t", "seeds", "untrained_mean", "learner_mean", "learner_ci95_half", "twin_mean", "twin_ci95_half",
	"deciding_test", "p_learner_better", "p_twin_better", "p_learner_better_other_test", "p_twin_better_other_test",
	"labels_to_match", "labels_to_match_lo95", "labels_to_match_hi95", "share_of_twin_labels", "area", "area_ci95_half", "verdict"}

func writeSavingsCSV(buf *bytes.Buffer, rows []SavingsRow) error {
	w := csv.NewWriter(buf)
	w.Write(savingsHeader)
	for _, r := range rows {
		s := r.Savings
		w.Write([]string{r.Learner, r.Problem.ID, s.Metric, strconv.FormatBool(s.Metric == r.Problem.Metric), strconv.Itoa(s.T), strconv.Itoa(s.Seeds),
			fmtFloat(s.Start), fmtFloat(s.Own), fmtFloat(s.OwnHalf), fmtFloat(s.Twin), fmtFloat(s.TwinHalf),
			string(s.Deciding), fmtFloat(s.PBetter), fmtFloat(s.PWorse), fmtFloat(s.PBetterOther), fmtFloat(s.PWorseOther),
			fmtFloat(s.Match), fmtFloat(s.MatchLo), fmtFloat(s.MatchHi), fmtFloat(s.Share()), fmtFloat(s.Area), fmtFloat(s.AreaHalf), string(s.Verdict)})
	}
	w.Flush()
	return w.Error()
}

// fmtP writes a p-value for a table.
func fmtP(p float64) string {
	switch {
	case math.IsNaN(p):
		return "n/a"
	case p < 1e-4:
		return "< 1e-4"
	}
	return fmt.Sprintf("%.2g", p)
}

// fmt3 writes a value with three significant digits.
func fmt3(x float64) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

// shareText writes labels-to-match as a share of the twin's labels.
func shareText(s Savings) string {
	switch {
	case math.IsNaN(s.Match):
		return "n/a"
	case math.IsInf(s.Match, 1):
		return "never"
	}
	return fmt.Sprintf("%.2f", s.Share())
}

// writeChoiceTables is the Tables hook of a choice figure: ID-summary.md,
// ID-summary.csv and ID-seeds.csv.
func writeChoiceTables(f Figure, c *Cache, out string) ([]string, error) {
	load := CacheLoader(c)
	rows, err := choiceRows(f, load)
	if err != nil {
		return nil, err
	}
	var md strings.Builder
	md.WriteString("# " + f.ID + "\n\n" + f.Caption + "\n\n")
	i := 0
	for _, r := range f.Rows {
		fmt.Fprintf(&md, "## %s\n\n", r.Title)
		fmt.Fprintf(&md, "| metric (T = %d, %d seeds) | %s | passive twin | p learner better (deciding / other test) | p twin better (deciding / other) | labels-to-match [95%%] | share of twin's labels | area between curves | verdict |\n|---|---|---|---|---|---|---|---|---|\n",
			rows[i].T, f.Seeds, DisplayName(rows[i].Learner))
		for range f.Metrics {
			s := rows[i].Savings
			title, _ := MetricLabel(s.Metric)
			dir := "↓"
			if higherIsBetter(s.Metric) {
				dir = "↑"
			}
			fmt.Fprintf(&md, "| %s %s | %s ± %s | %s ± %s | %s / %s | %s / %s | %s | %s | %s ± %s | %s |\n",
				title, dir, fmt3(s.Own), fmt3(s.OwnHalf), fmt3(s.Twin), fmt3(s.TwinHalf),
				fmtP(s.PBetter), fmtP(s.PBetterOther), fmtP(s.PWorse), fmtP(s.PWorseOther),
				s.MatchText(), shareText(s), fmt3(s.Area), fmt3(s.AreaHalf), s.Verdict)
			i++
		}
		md.WriteString("\n")
	}
	md.WriteString(savingsNote(f.Seeds))
	var sum bytes.Buffer
	if err := writeSavingsCSV(&sum, rows); err != nil {
		return nil, err
	}
	return writeSummaryFiles(f, load, out, md.String(), sum.Bytes(), func(res *experiments.Result) []int { return LogGrid(res.Spec.T) })
}

// savingsNote explains the columns of the choice tables.
func savingsNote(seeds int) string {
	return fmt.Sprintf("Mean ± half-width of the 95%% t-interval over %d seeds at the last checkpoint T; the learner and its passive twin share every seed's problem instance, initialisation and random streams, so the tests are paired: one-sided, at 5%%, uncorrected here (the claims in verify correct for multiplicity), by the test that decides for the metric (the Wilcoxon signed-rank test for worst gaps, the t-test otherwise; declared in verify/prereg before the runs) and by the other. Labels-to-match: the duels at which the learner's mean first reaches its twin's mean at T, interpolated linearly on the grid 0, 25, 50, 100, 200, 400, 700, 1000 (> T: not reached), with a 95%% percentile bootstrap interval over seeds (%d resamples); share: labels-to-match / T. Area: the mean over seeds of the integral of the twin's minus the learner's curve over the grid, divided by T (the learner's average lead over the budget, in the metric's units; sign flipped for accuracies). Verdict: \"%s\" when the twin is significantly better at T, else \"%s\" when the twin's mean at T is no better than the untrained model's at t = 0 (nothing to match: labels-to-match is 0 by definition), else \"%s\" when the whole interval of labels-to-match lies below T, else \"%s\". Per-seed values on the grid: the -seeds.csv beside this file.\n", seeds, BootstrapResamples, TwinBetter, TwinNoGain, SavesLabels, NotResolved)
}

// WriteSeedsCSV writes the per-seed values of every run of f at the
// checkpoints at(res) returns for it (−1: the last) as CSV:
// row,curve,algorithm,collect,seed,t and one column per metric of f. Every
// paired test of a summary can be recomputed from it.
func WriteSeedsCSV(buf *bytes.Buffer, f Figure, load Loader, at func(*experiments.Result) []int) error {
	w := csv.NewWriter(buf)
	w.Write(append([]string{"row", "curve", "algorithm", "collect", "seed", "t"}, f.Metrics...))
	for _, r := range f.Rows {
		for _, c := range r.Curves {
			for seed := 1; seed <= f.Seeds; seed++ {
				s := c.Spec
				s.Seed = uint64(seed)
				res, err := load(s)
				if err != nil {
					return fmt.Errorf("%s: %w", f.ID, err)
				}
				for _, t := range at(res) {
					k := len(res.Checkpoints) - 1
					for t >= 0 && k >= 0 && res.Checkpoints[k].T != t {
						k--
					}
					if k < 0 {
						return fmt.Errorf("%s: %s seed %d has no checkpoint at t = %d", f.ID, c.Label, seed, t)
					}
					cp := res.Checkpoints[k]
					rec := []string{r.Title, c.Label, s.Algorithm, string(s.Config.Collect.Rule()), strconv.Itoa(seed), strconv.Itoa(cp.T)}
					for _, m := range f.Metrics {
						v, err := experiments.Metric(res, cp, m)
						if err != nil {
							return fmt.Errorf("%s: %w", f.ID, err)
						}
						rec = append(rec, fmtFloat(v))
					}
					w.Write(rec)
				}
			}
		}
	}
	w.Flush()
	return w.Error()
}

// A Collection is a table written from the runs of several figures once
// they are drawn: the savings table of figures/choice.
type Collection struct {
	ID  string
	Dir string // subfolder of the output directory
	// Figures are the ids of the figures it reads, at every scale.
	Figures []string
	// Write writes the collection's files into dir from the figures (in the
	// order of Figures) and the cache, and returns the paths written.
	Write func(figs []Figure, c *Cache, dir string) ([]string, error)
}

// Collections lists the collections of "nadb figures".
func Collections() []Collection {
	var ids []string
	for _, fs := range choiceFigures() {
		ids = append(ids, fs.ID)
	}
	return []Collection{{ID: "savings", Dir: "choice", Figures: ids, Write: writeSavings}}
}

// WriteCollections writes, into out, every collection whose figures are all
// among figs (so "nadb figures -only" with some of them writes none), and
// returns the paths written.
func WriteCollections(figs []Figure, c *Cache, out string) ([]string, error) {
	byID := map[string]Figure{}
	for _, f := range figs {
		byID[f.ID] = f
	}
	var paths []string
	for _, col := range Collections() {
		var mine []Figure
		for _, id := range col.Figures {
			if f, ok := byID[id]; ok {
				mine = append(mine, f)
			}
		}
		if len(mine) != len(col.Figures) {
			continue
		}
		more, err := col.Write(mine, c, filepath.Join(out, col.Dir))
		paths = append(paths, more...)
		if err != nil {
			return paths, fmt.Errorf("%s: %w", col.ID, err)
		}
	}
	return paths, nil
}

// SavingsTable returns the savings rows of every choice figure in figs:
// every learner of ChoiceLearners against its twin on every problem and
// metric, in the order of ChoiceLearners and ChoiceProblems.
func SavingsTable(figs []Figure, load Loader) ([]SavingsRow, error) {
	var all []SavingsRow
	for _, f := range figs {
		rows, err := choiceRows(f, load)
		if err != nil {
			return nil, err
		}
		all = append(all, rows...)
	}
	return all, nil
}

// writeSavings writes savings.md (the primary metric of every learner and
// problem) and savings.csv (every metric).
func writeSavings(figs []Figure, c *Cache, dir string) ([]string, error) {
	rows, err := SavingsTable(figs, CacheLoader(c))
	if err != nil {
		return nil, err
	}
	var md strings.Builder
	md.WriteString("# What choosing buys: label savings against the passive twin\n\n")
	md.WriteString("Each learner against its passive twin (the same learner, configuration and seeds, trained on uniformly random duels) on the primary metric of each problem: the pool mean gap on the synthetic problems (fixed pool and fresh contexts), the held-out log-loss on CEMSChoice, the held-out mean gap on Statlog Shuttle (twice its error rate). Written by `nadb figures` from the runs of the choice-* figures beside this file.\n\n")
	md.WriteString("| learner | problem | metric | seeds | T | untrained (t = 0) | learner at T | twin at T | labels-to-match [95%] | share of twin's labels | area between curves | p twin better | verdict |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		if r.Metric != r.Problem.Metric {
			continue
		}
		s := r.Savings
		fmt.Fprintf(&md, "| %s | %s | %s | %d | %d | %s | %s ± %s | %s ± %s | %s | %s | %s ± %s | %s | %s |\n",
			DisplayName(r.Learner), r.Problem.Title, primaryNames[s.Metric], s.Seeds, s.T, fmt3(s.Start), fmt3(s.Own), fmt3(s.OwnHalf), fmt3(s.Twin), fmt3(s.TwinHalf),
			s.MatchText(), shareText(s), fmt3(s.Area), fmt3(s.AreaHalf), fmtP(s.PWorse), s.Verdict)
	}
	md.WriteString("\n" + strings.Replace(savingsNote(0), " over 0 seeds", " over the row's seeds", 1))
	md.WriteString("Every metric of every problem, with both tests in both directions: savings.csv; per figure: choice-*-summary.md.\n")
	var buf bytes.Buffer
	if err := writeSavingsCSV(&buf, rows); err != nil {
		return nil, err
	}
	mdPath, csvPath := filepath.Join(dir, "savings.md"), filepath.Join(dir, "savings.csv")
	if err := fsutil.WriteFile(mdPath, []byte(md.String())); err != nil {
		return nil, err
	}
	if err := fsutil.WriteFile(csvPath, buf.Bytes()); err != nil {
		return []string{mdPath}, err
	}
	return []string{mdPath, csvPath}, nil
}
