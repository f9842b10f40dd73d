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
// within the claim; it holds if every test is significant, does not hold if
// the reverse test of some part is, and is not resolved if neither.
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
		Test:      "one-sided paired t-tests (first lower than second), Holm-corrected within the claim; holds if every test is significant, does not hold if the reverse test of some part is (Holm over the same family), else not resolved",
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
			f := family(cmps)
			out := Outcome{Verdict: allSignificantOrReversed(f.adj, f.rev), Result: fmt.Sprintf("%s (n = %d seeds). %s", strings.Join(parts, "; "), sc.Seeds, f.summary())}
			out.Power = fmt.Sprintf("median detectable difference %.3g over the family's tests (80%% power, Bonferroni level; each test not significant names its own)", f.mde)
			return out, nil
		},
	}
}

// repairSeeds is the number of seeds the claims about the repaired context
// rule are decided with at the paper's scale: 10 seeds (the figures') gave a
// Square mean-gap improvement that 30 seeds did not confirm
// (figures/lockon/main.md against figures/lockon/seeds30/main.md).
var repairSeeds = map[string]int{"paper": 30}

// lockOnRepairClaims are the claims of the lock-on study (package experiments/lockon).
func lockOnRepairClaims() []Claim {
	gaps := []string{"worst_gap", "mean_gap"}
	probs := []string{"square", "sine"}
	c8b := beats("8b", "Our repaired context rule (Thompson-sampled contexts, neural-adb-tsctx-ucb) beats uniformly random contexts on both worst and mean gap, on Square and Sine (the lock-on study's bar)",
		"ours (lock-on study, experiments/lockon; figures/lockon/seeds30)",
		[][2]string{{"neural-adb-tsctx-ucb", "neural-adb-ucb-randctx"}}, gaps, probs)
	c8b.Seeds = repairSeeds
	c8c := beats("8c", "The repaired rule neural-adb-tsctx-ucb lowers the pool mean gap against uniformly random contexts on Square and Sine",
		"ours (lock-on study, experiments/lockon; figures/lockon/seeds30)",
		[][2]string{{"neural-adb-tsctx-ucb", "neural-adb-ucb-randctx"}}, []string{"mean_gap"}, probs)
	c8c.Seeds = repairSeeds
	return []Claim{
		record(beats("8a", "Neural-ADB's context rule beats uniformly random context choice with the same arm rule (which, per the paper's footnote, suffers a constant gap)",
			"Section 3.2, footnote to eq. (3)",
			[][2]string{{"neural-adb-ucb", "neural-adb-ucb-randctx"}, {"neural-adb-ts", "neural-adb-ts-randctx"}}, gaps, probs),
			both(DoesNotHold), "the reverse holds: lock-on leaves the pool mostly unqueried, and random contexts reach mean gap ≈ 0.11 on Square against ≈ 7 (figures/lockon/main.md); claim 0a guards that the random-context learner does learn"),
		record(c8b, both(NotResolved), "the repair does not clear the bar, nor is it worse: at 30 seeds all four differences favour it (worst gap Square 3.71 vs 4.24, Sine 2.24 vs 2.35; mean gap Square 0.105 vs 0.206, Sine 0.272 vs 0.319; figures/lockon/seeds30/main.md) but only Sine's mean gap significantly, and no reverse test is significant (smallest reverse p = 0.73), so the claim is not resolved at 30 seeds (median detectable difference 0.316)"),
		record(c8c, both(NotResolved), "at 30 seeds (figures/lockon/seeds30/main.md) the mean gap is lower on Sine (0.272 vs 0.319, one-sided p = 0.0002) and, not significantly, on Square (0.105 vs 0.206, Holm-adjusted p = 0.16; reverse p = 0.84): the 10-seed Square difference (0.089 vs 0.114, figures/lockon/main.md) is neither confirmed nor contradicted, so the claim is not resolved; at reduced scale (10 seeds) likewise only Sine's difference is significant"),
	}
}
