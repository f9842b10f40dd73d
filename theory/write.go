package theory

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/neural-adb/nadb/internal/fsutil"
)

// Write writes every table and figure of r into dir and returns the paths:
// theorem1.csv, theorem1_summary.csv, theorem1_seeds.csv (every sequence's
// values at every checkpoint, from which the other two are computed),
// effective_dimension.csv, kappa.csv,
// counterexample.txt, summary.md and the figures theorem1_bounds,
// theorem1_violations and effective_dimension (PNG, SVG and PDF). Equal
// results give equal bytes.
func (r *Results) Write(dir string) ([]string, error) {
	var paths []string
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{"theorem1.csv", r.writeTheorem1CSV},
		{"theorem1_summary.csv", r.writeSummaryCSV},
		{"theorem1_seeds.csv", r.writeSeedsCSV},
		{"effective_dimension.csv", r.writePaperCSV},
		{"kappa.csv", r.writeKappaCSV},
		{"counterexample.txt", r.writeCounterexamples},
		{"summary.md", r.WriteMarkdown},
	}
	for _, f := range files {
		var buf bytes.Buffer
		if err := f.write(&buf); err != nil {
			return paths, fmt.Errorf("%s: %w", f.name, err)
		}
		path := filepath.Join(dir, f.name)
		if err := fsutil.WriteFile(path, buf.Bytes()); err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	ps, err := r.writeFigures(dir)
	return append(paths, ps...), err
}

// writeFigures writes the figures of r into dir (PNG, SVG and PDF).
func (r *Results) writeFigures(dir string) ([]string, error) {
	var paths []string
	for _, nf := range r.figures() {
		ps, err := nf.fig.Save(filepath.Join(dir, nf.name))
		paths = append(paths, ps...)
		if err != nil {
			return paths, fmt.Errorf("%s: %w", nf.name, err)
		}
	}
	return paths, nil
}

func itoa(i int) string { return strconv.Itoa(i) }

// fmtSlope writes a slope as value and half-width, or "n/a" twice.
func fmtSlope(s Slope) []string {
	if !s.OK {
		return []string{"n/a", "n/a"}
	}
	return []string{fmtFloat(s.Value), fmtFloat(s.Half)}
}

func (r *Results) reports() []*Theorem1Report {
	var out []*Theorem1Report
	for _, rep := range []*Theorem1Report{r.Synthetic, r.Neural} {
		if rep != nil {
			out = append(out, rep)
		}
	}
	return out
}

func dimOf(rep *Theorem1Report, name string) int {
	for _, g := range rep.Generators {
		if g.Name == name {
			return g.Dim
		}
	}
	return 0
}

func (r *Results) writeTheorem1CSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"generator", "dim", "T", "seeds", "max_norm_mean", "max_norm_ci", "max_norm_ball_mean", "lambda_min_V_mean", "L_mean"}
	for _, c := range Claims {
		n := c.String()
		head = append(head, n+"_bound", n+"_defined", n+"_violations", n+"_violation_freq", n+"_freq_lo", n+"_freq_hi", n+"_ball_violations")
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, rep := range r.reports() {
		for _, p := range rep.Points {
			rec := []string{p.Generator, itoa(dimOf(rep, p.Generator)), itoa(p.T), itoa(p.N), fmtFloat(p.MaxNorm), fmtFloat(p.MaxNormHalf), fmtFloat(p.MaxNormBall), fmtFloat(p.LambdaMinV), fmtFloat(p.L)}
			for _, c := range Claims {
				cp := p.Claims[c]
				rec = append(rec, cp.Bound.String(), itoa(cp.Defined), itoa(cp.Violations), fmtFloat(cp.Freq), fmtFloat(cp.FreqLo), fmtFloat(cp.FreqHi), itoa(cp.BallViolations))
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeSeedsCSV writes one row per drawn sequence and checkpoint: the
// values theorem1.csv averages and counts (its means, intervals and
// violation counts, and so theorem1_summary.csv's slopes and verdicts, can
// be recomputed from it). A claim's bound is "undefined" where it is, and
// violated is 1 when the bound is defined and max_norm exceeds it.
func (r *Results) writeSeedsCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"generator", "dim", "seed", "T", "max_norm", "max_norm_ball", "lambda_min_V", "L"}
	for _, c := range Claims {
		n := c.String()
		head = append(head, n+"_bound", n+"_violated")
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, rep := range r.reports() {
		for _, sq := range rep.Sequences {
			for k, q := range sq.Q {
				rec := []string{sq.Generator, itoa(dimOf(rep, sq.Generator)), strconv.FormatUint(sq.Seed, 10), itoa(rep.Options.T[k]),
					fmtFloat(q.MaxNorm), fmtFloat(q.MaxNormBall), fmtFloat(q.LambdaMinV), fmtFloat(q.L)}
				for _, c := range Claims {
					v := "0"
					if q.Violated(c) {
						v = "1"
					}
					rec = append(rec, q.Bounds[c].String(), v)
				}
				if err := cw.Write(rec); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func (r *Results) writeSummaryCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"generator", "dim", "empirical_slope", "empirical_slope_ci", "claim", "verdict", "first_fail_T", "worst_freq", "worst_T", "defined_from_T", "bound_slope", "bound_slope_ci"}); err != nil {
		return err
	}
	for _, rep := range r.reports() {
		for _, g := range rep.Generators {
			for _, cs := range g.Claims {
				rec := []string{g.Name, itoa(g.Dim)}
				rec = append(rec, fmtSlope(g.EmpiricalSlope)...)
				rec = append(rec, cs.Claim.String(), string(cs.Verdict), itoa(cs.FirstFailT), fmtFloat(cs.WorstFreq), itoa(cs.WorstT), itoa(cs.DefinedFrom))
				rec = append(rec, fmtSlope(cs.BoundSlope)...)
				if err := cw.Write(rec); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func (r *Results) writePaperCSV(w io.Writer) error {
	if r.Paper == nil {
		return nil
	}
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"algorithm", "T", "seeds", "distinct_contexts", "d_tilde", "d_tilde_ci", "brief_bound", "brief_exceeded", "pairs_bound", "trace_bound",
		"max_norm_pool", "max_norm_pool_ci", "max_norm_ball", "L", "literal_bound_L2I", "literal_violations"}); err != nil {
		return err
	}
	for _, p := range r.Paper.Points {
		rec := []string{p.Algorithm, itoa(p.T), itoa(p.N), fmtFloat(p.Distinct), fmtFloat(p.DTilde), fmtFloat(p.DTildeHalf), fmtFloat(p.BriefBound), itoa(p.BriefExceeded),
			fmtFloat(p.PairsBound), fmtFloat(p.TraceBound), fmtFloat(p.MaxNorm), fmtFloat(p.MaxNormHalf), fmtFloat(p.MaxNormBall), fmtFloat(p.L), p.Literal.String(), itoa(p.LiteralViolations)}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func (r *Results) writeKappaCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"problem", "seeds", "kappa_mu_min", "kappa_mu_median", "kappa_mu_max", "max_within_context_gap_median", "nu_T_lower_bound"}); err != nil {
		return err
	}
	for _, k := range r.Kappa {
		if err := cw.Write([]string{k.Problem, itoa(k.Seeds), fmtFloat(k.Min), fmtFloat(k.Median), fmtFloat(k.Max), fmtFloat(k.MaxGap), fmtFloat(k.NuLower)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func (r *Results) writeCounterexamples(w io.Writer) error {
	for i, ce := range r.Counterexamples {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "[%s] %s\n", ce.Claim, ce.Claim.Describe())
		fmt.Fprintln(w, ce.String())
	}
	r.writeRobust(w, func(key, title string) { fmt.Fprintf(w, "\n[%s] %s\n", key, title) }, "", "")
	return nil
}

// cell formats a claim summary for the Markdown table.
func cell(cs ClaimSummary) string {
	switch cs.Verdict {
	case Fails:
		return fmt.Sprintf("**fails** from T = %d (violated in %.0f%% of seeds at T = %d)", cs.FirstFailT, 100*cs.WorstFreq, cs.WorstT)
	case Holds:
		return fmt.Sprintf("holds (defined from T = %d; worst violation rate %.1f%%)", cs.DefinedFrom, 100*cs.WorstFreq)
	}
	return "vacuous (G_T undefined at every T)"
}

// WriteMarkdown writes the human-readable summary of every check.
func (r *Results) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	mode := "full run"
	if r.Quick {
		mode = "quick run (reduced sizes: a smoke check, not the reported numbers)"
	}
	fmt.Fprintf(&b, "# Theorem 1 and the effective dimension, checked numerically\n\n")
	fmt.Fprintf(&b, "Generated by `nadb theory` (%s); do not edit by hand. Definitions and the repaired statement: `go doc ./theory`.\n\n", mode)
	for _, rep := range r.reports() {
		o := rep.Options
		fmt.Fprintf(&b, "## Theorem 1: %d seeds per generator, λ = %g, δ = %g, T = %d … %d\n\n", o.Seeds, o.Lambda, o.Delta, o.T[0], o.T[len(o.T)-1])
		fmt.Fprintf(&b, "A claim **fails** when at some T the share of seeds with max_{z∈Z} ‖z‖_{V_T⁻¹} > L/G_T exceeds δ with 95%% confidence (Clopper–Pearson). Slopes are log–log over the %d largest T (95%% CI); Theorem 1 predicts −0.5.\n\n", o.SlopePoints)
		b.WriteString("| generator | dim | slope of max‖z‖_{V⁻¹} |")
		for _, c := range Claims {
			fmt.Fprintf(&b, " %s |", c)
		}
		b.WriteString("\n|---|---|---|" + strings.Repeat("---|", len(Claims)) + "\n")
		for _, g := range rep.Generators {
			fmt.Fprintf(&b, "| %s | %d | %s |", g.Name, g.Dim, g.EmpiricalSlope)
			for _, cs := range g.Claims {
				fmt.Fprintf(&b, " %s |", cell(cs))
			}
			b.WriteString("\n")
		}
		b.WriteString("\nLargest T:\n\n| generator | T | max‖z‖_{V⁻¹} (mean ± CI) | L/√λmin(V_T) | literal L/G_T | literal-L2I | repaired |\n|---|---|---|---|---|---|---|\n")
		last := o.T[len(o.T)-1]
		for _, p := range rep.Points {
			if p.T != last {
				continue
			}
			fmt.Fprintf(&b, "| %s | %d | %.4g ± %.2g | %.4g | %s | %s | %s |\n", p.Generator, p.T, p.MaxNorm, p.MaxNormHalf, p.MaxNormBall,
				shortBound(p.Claims[Literal].Bound), shortBound(p.Claims[LiteralScalar].Bound), shortBound(p.Claims[Repaired].Bound))
		}
		b.WriteString("\n")
	}
	b.WriteString("## Claims\n\n")
	for _, c := range Claims {
		fmt.Fprintf(&b, "- `%s`: %s\n", c, c.Describe())
	}
	b.WriteString("\n## How each generator's quantities are obtained\n\n| generator | rule | Z | Σ_s | Σmax (literal) | Σmax (unconditional reading) | Σmin (repaired) |\n|---|---|---|---|---|---|---|\n")
	for _, rep := range r.reports() {
		for _, g := range rep.Generators {
			d := g.Doc
			unc := d.SigmaMaxUnconditional
			if unc == "" {
				unc = "as literal"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", g.Name, d.Rule, d.Z, d.Sigma, d.SigmaMax, unc, d.SigmaMin)
		}
	}
	b.WriteString("\n## Smallest counterexamples\n\n")
	for _, ce := range r.Counterexamples {
		fmt.Fprintf(&b, "`%s`:\n\n```\n%s\n```\n\n", ce.Claim, ce.String())
	}
	b.WriteString("## Counterexamples that rest on no degenerate sequence\n\n")
	r.writeRobust(&b, func(key, title string) { fmt.Fprintf(&b, "### %s (`%s`)\n\n", title, key) }, "```\n", "```\n\n")
	if p := r.Paper; p != nil {
		o := p.Options
		fmt.Fprintf(&b, "## Paper scale: %s, d = %d, K = %d, %d contexts, width %d (p = %d), κ/λ = %g, %d seeds\n\n",
			o.Problem.Name, o.Problem.Dim, o.Problem.Arms, o.Problem.Contexts, o.Config.Width, p.P, p.Alpha, o.Seeds)
		b.WriteString("d̃ = log det(I + (κ/λ)𝕍) (eq. 9) exactly (dual Cholesky); `brief` = p·log(1 + αTL²/p) (one pair per round), `pairs` = the same with T·K(K−1)/2 pairs, `trace` = r·log(1 + α·tr𝕍/r). Theorem 1 on Z = the pool's pair differences, with Σmax = L²·I in dimension p; λmin(V_T) = λ/κ exactly since T < p.\n\n")
		b.WriteString("| algorithm | T | distinct contexts | d̃ (mean ± CI) | brief | seeds with d̃ > brief | pairs | trace | max_{z∈Z}‖z‖_{V⁻¹} | literal L/G_T | seeds violating |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
		for _, pt := range p.Points {
			fmt.Fprintf(&b, "| %s | %d | %.1f | %.4g ± %.2g | %.4g | %d/%d | %.4g | %.4g | %.4g ± %.2g | %s | %d/%d |\n", pt.Algorithm, pt.T, pt.Distinct, pt.DTilde, pt.DTildeHalf,
				pt.BriefBound, pt.BriefExceeded, pt.N, pt.PairsBound, pt.TraceBound, pt.MaxNorm, pt.MaxNormHalf, shortBound(pt.Literal), pt.LiteralViolations, pt.N)
		}
		fmt.Fprintf(&b, "\nLog–log slopes over the %d largest T (95%% CI):\n\n| algorithm | d̃ | √(d̃/T) (the rate of Theorems 2–3) | max_{z∈Z}‖z‖_{V⁻¹} |\n|---|---|---|---|\n", o.SlopePoints)
		for _, s := range p.Summaries {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", s.Algorithm, s.DTildeSlope, s.RateSlope, s.MaxNormSlope)
		}
		b.WriteString("\n")
	}
	if len(r.Kappa) > 0 {
		b.WriteString("## κ_μ of the synthetic problems (paper scale)\n\n| problem | seeds | κ_μ min | median | max | largest within-context gap (median) | ν_T ≥ (at median κ_μ) |\n|---|---|---|---|---|---|---|\n")
		for _, k := range r.Kappa {
			fmt.Fprintf(&b, "| %s | %d | %.3g | %.3g | %.3g | %.4g | %.3g |\n", k.Problem, k.Seeds, k.Min, k.Median, k.Max, k.MaxGap, k.NuLower)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func shortBound(b Bound) string {
	if !b.Defined {
		return "undefined"
	}
	return fmt.Sprintf("%.4g", b.Value)
}
