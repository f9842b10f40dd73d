package lockon

// CSV and Markdown renderings of the lock-on study's tables.

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"strconv"
	"strings"
)

func fmtG(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

func fmtP(p float64) string {
	switch {
	case math.IsNaN(p):
		return "–"
	case p < 1e-4:
		return fmt.Sprintf("%.1e", p)
	}
	return fmt.Sprintf("%.4f", p)
}

func csvBytes(header []string, rows [][]string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(header)
	w.WriteAll(rows)
	return b.Bytes()
}

func statCols(s Stat) []string { return []string{fmtG(s.Mean), fmtG(s.Half)} }

// MainCSV renders the main table as CSV.
func MainCSV(rows []LockonRow) []byte {
	h := []string{"problem", "algorithm", "comparator", "repair", "seeds",
		"distinct", "distinct_ci", "top_share", "top_share_ci", "mean_gap", "mean_gap_ci", "worst_gap", "worst_gap_ci",
		"p_less_mean", "p_less_worst", "holm_less_mean", "holm_less_worst", "p_worse_mean", "p_worse_worst", "passes_bar",
		"mde_mean", "mde_worst", "seeds_needed_mean", "seeds_needed_worst",
		"coverage", "median_err_over_sigma", "nu95", "spearman", "rule_coverage", "rule_median_err_over_sigma", "rule_nu95", "rule_spearman"}
	var out [][]string
	for _, r := range rows {
		rec := []string{r.Problem, r.Algorithm, r.Comparator, strconv.FormatBool(r.Repair), strconv.Itoa(r.MeanGap.N)}
		for _, s := range []Stat{r.Distinct, r.TopShare, r.MeanGap, r.WorstGap} {
			rec = append(rec, statCols(s)...)
		}
		rec = append(rec, fmtG(r.LessMean.P), fmtG(r.LessWorst.P), fmtG(r.HolmMean), fmtG(r.HolmWorst), fmtG(r.WorseMean.P), fmtG(r.WorseWorst.P), strconv.FormatBool(r.Passes()),
			fmtG(r.MDEMean), fmtG(r.MDEWorst), strconv.Itoa(r.SeedsMean), strconv.Itoa(r.SeedsWorst))
		for _, s := range []Stat{r.Coverage, r.MedianZ, r.Nu95, r.Spearman, r.RuleCoverage, r.RuleMedianZ, r.RuleNu95, r.RuleSpearman} {
			rec = append(rec, fmtG(s.Mean))
		}
		out = append(out, rec)
	}
	return csvBytes(h, out)
}

// MainMarkdown renders the main table as two Markdown tables: outcomes with
// tests, and calibration.
func MainMarkdown(rows []LockonRow) []byte {
	var b strings.Builder
	b.WriteString("| problem | algorithm | distinct contexts | top-context share | pool mean gap | worst gap | p (mean < random ctx) | p (worst < random ctx) | Holm (mean, worst) | bar |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		pm, pw, holm, bar := "–", "–", "–", "–"
		if r.Comparator != "" {
			pm, pw = fmtP(r.LessMean.P), fmtP(r.LessWorst.P)
			holm = fmtP(r.HolmMean) + ", " + fmtP(r.HolmWorst)
			if r.Repair {
				bar = "no"
				if r.Passes() {
					bar = "**yes**"
				}
			}
		}
		fmt.Fprintf(&b, "| %s | `%s` | %v | %v | %v | %v | %s | %s | %s | %s |\n", r.Problem, r.Algorithm, r.Distinct, r.TopShare, r.MeanGap, r.WorstGap, pm, pw, holm, bar)
	}
	b.WriteString("\nPower: the mean paired difference to the random-context comparator (negative = better), the smallest difference a one-sided paired t-test at α = 0.05 would detect with 80% power given the observed spread, and the seeds the observed difference would need to reach it (– if it is not an improvement).\n\n")
	b.WriteString("| problem | algorithm | Δ mean gap | detectable Δ (mean) | seeds needed (mean) | Δ worst gap | detectable Δ (worst) | seeds needed (worst) |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	seeds := func(n int) string {
		switch {
		case n == 0:
			return "–"
		case n < 0:
			return "> 10,000"
		}
		return strconv.Itoa(n)
	}
	for _, r := range rows {
		if r.Comparator == "" {
			continue
		}
		fmt.Fprintf(&b, "| %s | `%s` | %.3g | %.3g | %s | %.3g | %.3g | %s |\n", r.Problem, r.Algorithm,
			r.LessMean.MeanDiff, -r.MDEMean, seeds(r.SeedsMean), r.LessWorst.MeanDiff, -r.MDEWorst, seeds(r.SeedsWorst))
	}
	b.WriteString("\nCalibration at T (mean over seeds): how often (h_a − h_b) ± νσ covers f_a − f_b over every arm pair of every context in the pool; median |error|/σ; the ν that would cover 95%; Spearman correlation of σ with |error|. \"rule σ\": the repaired context rule's own uncertainty (ν fitted, already applied).\n\n")
	b.WriteString("| problem | algorithm | coverage (paper σ, ν=1) | median \\|err\\|/σ | ν for 95% | Spearman(σ, \\|err\\|) | rule σ coverage | rule median \\|err\\|/σ | rule ν for 95% | rule Spearman |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | `%s` | %.3g | %.3g | %.3g | %.2g | %s | %s | %s | %s |\n", r.Problem, r.Algorithm,
			r.Coverage.Mean, r.MedianZ.Mean, r.Nu95.Mean, r.Spearman.Mean, optG(r.RuleCoverage.Mean), optG(r.RuleMedianZ.Mean), optG(r.RuleNu95.Mean), optG(r.RuleSpearman.Mean))
	}
	return []byte(b.String())
}

func optG(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.3g", x)
}

// SensitivityCSV renders the sensitivity grid as CSV.
func SensitivityCSV(rows []SensitivityRow) []byte {
	h := []string{"reading", "problem", "seeds", "distinct", "distinct_ci", "top_share", "top_share_ci", "mean_gap", "mean_gap_ci", "worst_gap", "worst_gap_ci",
		"randctx_mean_gap", "randctx_mean_gap_ci", "randctx_worst_gap", "randctx_worst_gap_ci", "p_randctx_better_mean", "p_randctx_better_worst"}
	var out [][]string
	for _, r := range rows {
		rec := []string{r.Reading, r.Problem, strconv.Itoa(r.MeanGap.N)}
		for _, s := range []Stat{r.Distinct, r.TopShare, r.MeanGap, r.WorstGap, r.RandMean, r.RandWorst} {
			rec = append(rec, statCols(s)...)
		}
		rec = append(rec, fmtG(r.RandBetterMean.P), fmtG(r.RandBetterWorst.P))
		out = append(out, rec)
	}
	return csvBytes(h, out)
}

// SensitivityMarkdown renders the sensitivity grid as Markdown.
func SensitivityMarkdown(rows []SensitivityRow, rule, random string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "`%s` as written under each reading, against `%s` under the same reading (T at the study's scale; mean ± 95%% t-interval over seeds; p: one-sided paired t-test that random contexts do better).\n\n", rule, random)
	b.WriteString("| reading | problem | distinct | top share | mean gap | worst gap | random ctx: mean gap | random ctx: worst gap | p (random better, mean) | p (random better, worst) |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %v | %v | %v | %v | %v | %v | %s | %s |\n", r.Reading, r.Problem, r.Distinct, r.TopShare, r.MeanGap, r.WorstGap, r.RandMean, r.RandWorst, fmtP(r.RandBetterMean.P), fmtP(r.RandBetterWorst.P))
	}
	return []byte(b.String())
}

// CurvesCSV renders curves in long form.
func CurvesCSV(pts []CurvePoint) []byte {
	var out [][]string
	for _, p := range pts {
		out = append(out, []string{p.Problem, p.Algorithm, p.Metric, strconv.Itoa(p.T), fmtG(p.Stat.Mean), fmtG(p.Stat.Half), strconv.Itoa(p.Stat.N)})
	}
	return csvBytes([]string{"problem", "algorithm", "metric", "t", "mean", "ci_half", "n"}, out)
}
