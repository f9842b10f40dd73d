package verify

import (
	"context"
	"fmt"
	"strings"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/stats"
)

// beats is a claim that algorithm a has a lower final metric than algorithm b
// for every listed metric and problem: one-sided paired t-tests, Holm-corrected
// within the claim; it holds if every test is significant.
func beats(id, claim, source string, pairs [][2]string, metrics, problems []string) Claim {
	runs := func(sc Scale) []experiments.Spec {
		var out []experiments.Spec
		for _, p := range problems {
			for _, ab := range pairs {
				out = append(out, sc.SeedsOf(spec(sc, ab[0], p))...)
				out = append(out, sc.SeedsOf(spec(sc, ab[1], p))...)
			}
		}
		return out
	}
	return Claim{
		ID:        id,
		Claim:     claim,
		Source:    source,
		Statistic: fmt.Sprintf("final %s per seed on %s", strings.Join(metrics, " and "), strings.Join(problems, " and ")),
		Test:      "one-sided paired t-tests (first lower than second), Holm-corrected within the claim; holds if every test is significant",
		Runs:      runs,
		Evaluate: func(ctx context.Context, sc Scale, r Results) (Outcome, error) {
			var cmps []comparison
			var parts []string
			for _, p := range problems {
				for _, ab := range pairs {
					for _, m := range metrics {
						a, err := final(sc, r, spec(sc, ab[0], p), m)
						if err != nil {
							return Outcome{}, err
						}
						b, err := final(sc, r, spec(sc, ab[1], p), m)
						if err != nil {
							return Outcome{}, err
						}
						cmps = append(cmps, comparison{fmt.Sprintf("%s<%s %s/%s", ab[0], ab[1], m, p), a, b})
						ma, ha := stats.MeanCI(a, 0.95)
						mb, hb := stats.MeanCI(b, 0.95)
						rev := stats.PairedTLess(b, a).P
						parts = append(parts, fmt.Sprintf("%s %s/%s: %.3g ± %.2g vs %.3g ± %.2g (reverse %s)", ab[0], m, p, ma, ha, mb, hb, pvalue(rev)))
					}
				}
			}
			rej, kept, _, mde := family(cmps)
			out := Outcome{Verdict: DoesNotHold, Result: strings.Join(parts, "; ") + ". " + summary(rej, kept, len(cmps))}
			if len(kept) == 0 {
				out.Verdict = Holds
			}
			out.Power = fmt.Sprintf("median detectable difference %.3g (80%% power, Bonferroni level)", mde)
			return out, nil
		},
	}
}

// lockOnRepairClaims are the claims of the lock-on study (package experiments/lockon).
func lockOnRepairClaims() []Claim {
	gaps := []string{"worst_gap", "mean_gap"}
	probs := []string{"square", "sine"}
	return []Claim{
		expect(beats("8a", "Neural-ADB's context rule beats uniformly random context choice with the same arm rule (which, per the paper's footnote, suffers a constant gap)",
			"Section 3.2, footnote to eq. (3)",
			[][2]string{{"neural-adb-ucb", "neural-adb-ucb-randctx"}, {"neural-adb-ts", "neural-adb-ts-randctx"}}, gaps, probs),
			both(DoesNotHold), "the reverse holds: lock-on leaves the pool mostly unqueried, and random contexts reach mean gap ≈ 0.11 on Square against ≈ 7 (figures/lockon)"),
		expect(beats("8b", "Our repaired context rule (Thompson-sampled contexts, neural-adb-tsctx-ucb) beats uniformly random contexts on both worst and mean gap, on Square and Sine (the lock-on study's bar)",
			"ours (lock-on study, issue 7)",
			[][2]string{{"neural-adb-tsctx-ucb", "neural-adb-ucb-randctx"}}, gaps, probs),
			both(DoesNotHold), "no repair clears the bar: the worst-gap improvements (3.21 vs 3.62, 2.22 vs 2.37) are within what 10 seeds can resolve"),
		expect(beats("8c", "The repaired rule neural-adb-tsctx-ucb lowers the pool mean gap against uniformly random contexts on Square and Sine",
			"ours (lock-on study, issue 7)",
			[][2]string{{"neural-adb-tsctx-ucb", "neural-adb-ucb-randctx"}}, []string{"mean_gap"}, probs),
			map[string]Verdict{"reduced": DoesNotHold, "paper": Holds}, "at paper scale the calibrated posterior's context choice lowers the mean gap (0.090 vs 0.114 and 0.267 vs 0.316); at reduced scale the effect is not resolved"),
	}
}
