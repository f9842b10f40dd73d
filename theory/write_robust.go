package theory

import (
	"fmt"
	"io"
	"strings"
)

// readingSplit sorts the synthetic generators that violate Theorem 1 as
// stated by whether they still do when Σ_s is read as the unconditional
// moment E[z_s z_sᵀ] (both) or only under the conditional reading the
// proof's martingale needs (conditionalOnly).
func (r *Results) readingSplit() (both, conditionalOnly []string) {
	if r.Synthetic == nil {
		return nil, nil
	}
	for _, g := range r.Synthetic.Generators {
		lit, _ := r.Synthetic.Verdict(g.Name, Literal)
		unc, _ := r.Synthetic.Verdict(g.Name, LiteralUnconditional)
		switch {
		case lit.Verdict == Fails && unc.Verdict == Fails:
			both = append(both, g.Name)
		case lit.Verdict == Fails:
			conditionalOnly = append(conditionalOnly, g.Name)
		}
	}
	return both, conditionalOnly
}

// writeRobust writes the counterexamples that rest on no degenerate sequence:
// the non-degenerate deterministic one, the continuous random one, the
// monotonicity argument, and which failures depend on reading Σ_s as a
// conditional moment. pre and post enclose verbatim blocks (Markdown fences
// or nothing).
func (r *Results) writeRobust(w io.Writer, heading func(key, title string), pre, post string) {
	// para writes a paragraph, followed by a blank line in Markdown.
	para := func(format string, args ...any) {
		fmt.Fprintf(w, format+"\n", args...)
		if pre != "" {
			fmt.Fprintln(w)
		}
	}
	if ce := r.NonDegenerate; ce.Generator != nil {
		heading("non-degenerate", "Theorem 1 as stated on a deterministic sequence that never vanishes")
		fmt.Fprintf(w, "%s%s\n%s", pre, ce.String(), post)
	}
	if rep := r.Continuous; rep != nil && len(rep.Generators) == 1 {
		o := rep.Options
		heading("continuous-random", fmt.Sprintf("Theorem 1 as stated on z_1 = 1, then z_s i.i.d. uniform on (−1, 1): d = 1, λ = %g, L = 1, δ = %g, %d sequences; Σmax = 1 = Σ_1 (the least valid one in d = 1), Σ_s = 1/3 for s ≥ 2", o.Lambda, o.Delta, o.Seeds))
		fmt.Fprint(w, pre)
		for _, p := range rep.Points {
			cp := p.Claims[Literal]
			fmt.Fprintf(w, "T = %d: violated by %d of %d sequences (frequency %.2f, 95%% CI %.3f–%.3f); bound L/G_T %s, max |z|/√V_T %.4g ± %.2g\n",
				p.T, cp.Violations, p.N, cp.Freq, cp.FreqLo, cp.FreqHi, shortBound(cp.Bound), p.MaxNorm, p.MaxNormHalf)
		}
		fmt.Fprint(w, post)
	}
	if len(r.Monotone) > 0 {
		m0 := r.Monotone[0]
		heading("monotonicity", "every sequence violates Theorem 1 as stated once Σmax = M·I with M large enough")
		para("Σmax = M·I is admissible for every M ≥ L² (Σ_s ⪯ L²·I), and a larger Σmax is a weaker hypothesis; yet the bound L/√(T·M − τ), τ = √(8·T·L⁴·log(d/δ)), falls towards 0 as M grows, while every sequence has max_{‖z‖≤L} ‖z‖_{V_T⁻¹} ≥ L/√(λ + T·L²) (V_T ⪯ (λ + T·L²)·I). Beyond M* = (λ + T·L² + τ)/T every sequence with ‖z_s‖ ≤ L violates the statement, with probability 1.")
		fmt.Fprintf(w, "%sd = %d, λ = %g, L = %g, δ = %g:\n", pre, m0.Dim, m0.Lambda, m0.L, m0.Delta)
		last := -1
		for _, row := range r.Monotone {
			if row.T != last {
				fmt.Fprintf(w, "T = %d: M* = %.4g; floor L/√(λ + T·L²) = %.4g\n", row.T, row.MStar, row.Floor)
				last = row.T
			}
			verdict := "not by every sequence"
			if row.Universal {
				verdict = "violated by every sequence"
			}
			fmt.Fprintf(w, "  M = %g: bound %s, %s\n", row.M, shortBound(row.Bound), verdict)
		}
		fmt.Fprint(w, post)
	}
	if both, cond := r.readingSplit(); len(both)+len(cond) > 0 {
		heading("conditional-reading", "which failures depend on reading Σ_s as the conditional moment E[z_s z_sᵀ | F_{s−1}]")
		para("Fail under both readings (conditional, and the unconditional E[z_s z_sᵀ]): %s.", orNone(both))
		para("Fail only under the conditional reading, hold under the unconditional one (Σmax = (L²/d)·I by rotation invariance): %s.", orNone(cond))
	}
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
