package verify

import (
	"context"
	"fmt"
	"strings"

	"github.com/neural-adb/nadb/theory"
)

// theorem1 evaluates Theorem 1 (claim "5a" as stated, "5b" repaired) with the
// theory package's Monte Carlo over its synthetic generators (i.i.d.,
// greedy, adversarial) in d = 4: 30 sequences per generator at the reduced
// scale, 200 at the paper scale.
func theorem1(id string, c theory.Claim) Claim {
	stated := c == theory.Literal
	claim := Claim{
		ID:     id,
		Source: "Theorem 1 (Section 3.3) and its proof (Appendix A)",
		Statistic: "per generator and horizon T, the frequency over seeds of max_{z∈Z}‖z‖_{V_T⁻¹} > L/G_T (d = 4, and d = 1 for the two sequences z_1 = 1 then z_s = 1/√2 or z_s i.i.d. uniform on (−1, 1); L = λ = 1, δ = 0.05, " +
			"T = 8 … 4096 reduced / 16384 paper); generators respect ‖z‖ ≤ L and Σ_min ⪯ Σ_s ⪯ Σ_max with Σ_s = E[z_s z_sᵀ | F_{s−1}]",
		Test: "a generator violates the statement when some violation frequency exceeds δ with 95% Clopper–Pearson confidence; the claim holds if no generator does",
		Evaluate: func(ctx context.Context, sc Scale, _ Results) (Outcome, error) {
			rep, err := theory.CheckTheorem1(ctx, theory.DefaultTheorem1Options(sc.Name != "paper"))
			if err != nil {
				return Outcome{}, err
			}
			return theorem1Outcome(rep, c)
		},
	}
	if stated {
		claim.Claim = "Theorem 1 as stated: for an adapted sequence with E[z_s z_sᵀ] ⪯ Σ_max, max_{z∈Z}‖z‖_{V_T⁻¹} ≤ L/G_T with probability ≥ 1 − δ"
	} else {
		claim.Claim = "Theorem 1 repaired (ours): the same bound with the lower bound Σ_s ⪰ Σ_min in place of Σ_max holds with probability ≥ 1 − δ"
	}
	return claim
}

// theorem1Outcome decides claim c of Theorem 1 from a Monte Carlo report: it
// does not hold if some generator violates it, holds otherwise; undecided if
// some maximum norm or λ_min(V_T) of the report is not a number (a violation
// count cannot see a NaN norm).
func theorem1Outcome(rep *theory.Theorem1Report, c theory.Claim) (Outcome, error) {
	for _, p := range rep.Points {
		if anyNaN(p.MaxNorm, p.LambdaMinV) {
			return Outcome{Verdict: Undecided, Result: fmt.Sprintf("%s at T = %d: max norm %v, λ_min(V_T) %v are not numbers", p.Generator, p.T, p.MaxNorm, p.LambdaMinV)}, nil
		}
	}
	out := Outcome{Verdict: Holds}
	var fails, vacuous []string
	for _, g := range rep.Generators {
		cs, ok := rep.Verdict(g.Name, c)
		if !ok {
			return Outcome{}, fmt.Errorf("no %v verdict for generator %s", c, g.Name)
		}
		switch cs.Verdict {
		case theory.Fails:
			out.Verdict = DoesNotHold
			fails = append(fails, fmt.Sprintf("%s (from T = %d, worst frequency %.2f)", g.Name, cs.FirstFailT, cs.WorstFreq))
		case theory.Vacuous:
			vacuous = append(vacuous, g.Name)
		}
	}
	out.Result = fmt.Sprintf("violated by %d of %d generators", len(fails), len(rep.Generators))
	if len(fails) > 0 {
		out.Result += ": " + strings.Join(fails, "; ")
	}
	if len(vacuous) > 0 {
		out.Result += "; vacuous (bound undefined throughout) for " + strings.Join(vacuous, ", ")
	}
	if c == theory.Literal {
		var conditional []string
		for _, g := range rep.Generators {
			lit, _ := rep.Verdict(g.Name, theory.Literal)
			unc, _ := rep.Verdict(g.Name, theory.LiteralUnconditional)
			if lit.Verdict == theory.Fails && unc.Verdict != theory.Fails {
				conditional = append(conditional, g.Name)
			}
		}
		if len(conditional) > 0 {
			out.Result += "; the failures of " + strings.Join(conditional, " and ") + " depend on reading Σ_s as the conditional moment: with the unconditional E[z_s z_sᵀ] they hold"
		}
	}
	return out, nil
}

// dTildeBound is the slope of log d̃ on log T that claim 6 tests against: the
// rate Õ(√(d̃/T)) of Theorems 2 and 3 needs d̃ = õ(√T), a slope below 1/2.
const dTildeBound = 0.5

// The recorded verdicts of claim 6. At the paper's scale random contexts give
// a slope of 0.495 ± 0.105 (figures/theory/summary.md): the interval contains
// 1/2, so the claim is neither established nor contradicted there.
var (
	effectiveDimensionRecorded = both(NotResolved)
	effectiveDimensionWhy      = "d̃ of the queried sequences grows like T^0.06 as written (few contexts) but like T^0.50 with random contexts, whose interval (0.495 ± 0.105 at paper scale, figures/theory/summary.md) contains 1/2: d̃ = õ(√T) is neither shown nor contradicted"
)

// effectiveDimensionOutcome decides claim 6 from the slopes of d̃: it holds
// if every learner's interval lies below dTildeBound, does not hold if one
// lies at or above it, is not resolved if one contains it; undecided if a
// slope is missing or not a number (allParts).
func effectiveDimensionOutcome(rep *theory.PaperScaleReport, seeds int) Outcome {
	var out Outcome
	var parts []string
	var vs []Verdict
	for _, s := range rep.Summaries {
		sl := s.DTildeSlope
		v := Undecided
		if sl.OK {
			v = below(sl.Value, sl.Half, dTildeBound)
		}
		vs = append(vs, v)
		parts = append(parts, fmt.Sprintf("%s: slope of d̃ %s, of √(d̃/T) %s", s.Algorithm, sl, s.RateSlope))
	}
	out.Verdict = allParts(vs...)
	out.Result = strings.Join(parts, "; ") + fmt.Sprintf(" (p = %d, %d seeds)", rep.P, seeds)
	return out
}

// effectiveDimension: d̃ of eq. (9) grows sub-linearly in T.
func effectiveDimension() Claim {
	return Claim{
		ID:        "6",
		Claim:     "The effective dimension d̃ (eq. 9) grows like õ(√T), so that the rate Õ(√(d̃/T)) of Theorems 2 and 3 decreases",
		Source:    "Section 3.3 (eq. 9) and the discussion after Theorems 2–3",
		Statistic: "d̃ = log det((κ/λ)𝕍 + I) computed exactly along Neural-ADB's runs (as written and with random contexts), log–log slope in T over the largest checkpoints with 95% interval",
		Test:      "holds if the slope's interval lies below 1/2 for both context rules, does not hold if one lies at or above 1/2, else not resolved",
		Evaluate: func(ctx context.Context, sc Scale, _ Results) (Outcome, error) {
			opts := theory.DefaultPaperScaleOptions(false)
			if sc.Name != "paper" {
				spec := spec(sc, "neural-adb-ucb", "square")
				opts.Problem, opts.Config = spec.Problem, spec.Config
				opts.T = []int{10, 20, 50, 100, 200, sc.T}
				opts.Seeds = 5
			}
			rep, err := theory.PaperScale(ctx, opts)
			if err != nil {
				return Outcome{}, err
			}
			return effectiveDimensionOutcome(rep, opts.Seeds), nil
		},
	}
}
