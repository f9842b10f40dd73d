package verify

import (
	"github.com/neural-adb/nadb/theory"
)

const alpha = 0.05

// both is the recorded verdict at both scales.
func both(v Verdict) map[string]Verdict { return map[string]Verdict{"reduced": v, "paper": v} }

// Table returns the claims table. Recorded verdicts come from our runs and
// carry a one-line explanation; they are a regression guard (Claim.Recorded),
// and the verdicts printed by "nadb verify" are always computed afresh.
func Table() []Claim {
	claims := sanityClaims()
	for _, c := range []struct {
		id, algo, name, metric, mname string
		recorded                      map[string]Verdict
		why                           string
	}{
		{"1a", "neural-adb-ucb", "UCB", "worst_gap", "worst gap", both(NotResolved),
			"the literal context rule locks onto a few dozen contexts (claim 7); the pool's worst gap is set by contexts it never queries and stays nearly flat: the slope's interval contains 0 at both scales (−0.023 ± 0.051 at paper scale, figures/claims.md), so neither a decrease nor its absence is shown, and the bound's −1/2 is far outside it"},
		{"1b", "neural-adb-ts", "TS", "worst_gap", "worst gap", map[string]Verdict{"reduced": Holds, "paper": NotResolved},
			"TS's sampled second arm keeps moving the network, but the worst gap falls slowly if at all: at paper scale the slope's interval contains 0 (−0.058 ± 0.061, figures/claims.md), so the decrease is not resolved; at reduced scale it lies below 0; either way far from the bound's −1/2"},
		{"1c", "neural-adb-ucb", "UCB", "mean_gap", "mean gap (MAE)", map[string]Verdict{"reduced": Holds, "paper": NotResolved},
			"with 100 contexts (reduced scale) the ~27 locked-on contexts still teach the network something about the pool; with 300 (paper scale) the UCB mean gap plateaus near 6.8 after t ≈ 200 and the slope's interval contains 0 (−0.042 ± 0.050, figures/claims.md), so the decrease is not resolved"},
		{"1d", "neural-adb-ts", "TS", "mean_gap", "mean gap (MAE)", both(Holds),
			"TS's mean gap keeps falling at both scales, though at paper scale well below the −1/2 rate"},
	} {
		claims = append(claims, record(rateClaim(c.id, c.algo, c.name, c.metric, c.mname), c.recorded, c.why))
	}
	claims = append(claims,
		record(lowestWorstGap(), both(DoesNotHold), "lock-on leaves Neural-ADB (UCB) near its initial worst gap, while random-nn and neural-adb-apo (which spread their queries) reach ≈ 5 on Square and the linear baselines win on Sine; claims 0a and 0b guard that Neural-ADB's parts do learn"),
		record(beatsBaselines("2b", "mean_gap", "mean gap (MAE)"), both(DoesNotHold), "the baselines that spread their queries (random-nn, neural-adb-apo on Square; the linear ones on Sine) have far lower mean gaps"),
		record(beatsBaselines("2c", "avg_regret", "average regret"), both(NotResolved), "regret is measured on the queried contexts only: 11 of 28 tests significant at paper scale, none on Square, where UCB's locked-on context is not an easy one, but no baseline is significantly better either (the smallest reverse one-sided p, AE-DPO against UCB on Sine, is 0.105 before Holm's correction), so the claim is not resolved at 10 seeds (24 of 28 significant at reduced scale, none reversed)"))
	claims = append(claims,
		record(trendClaim("3a", "d"), both(Holds), "larger d makes the reward harder to learn from the same number of duels at both scales"),
		record(trendClaim("3b", "K"), both(Holds), "more arms per context mean larger gaps to the best arm and more pairs to explore"))
	claims = append(claims,
		record(networkClaim("4a", "width"), map[string]Verdict{"reduced": NotResolved, "paper": Holds}, "at paper scale the widths' mean gaps differ (ANOVA p = 0.0059; it tests only that they differ): lowest at width 16 (5.3), highest at 50 (7.0), not monotone (100: 6.9); at reduced scale the width effect is within the seed noise (p = 0.86), which does not show the widths equal: not resolved there"),
		record(networkClaim("4b", "depth"), both(NotResolved), "the depth grid's means differ by less than the seed-to-seed spread at both scales (ANOVA p = 0.34 at paper scale): a difference is not shown, and a non-significant ANOVA cannot show the depths equal"))
	claims = append(claims,
		record(theorem1("5a", theory.Literal), both(DoesNotHold), "the proof lower-bounds λ_min(E V_T) by T·λ_min(Σ_max) with Σ_max an upper bound; deterministic, continuous random and greedy sequences break the bound, and so does every sequence once Σ_max = M·I with M large enough (figures/theory/counterexample.txt)"),
		record(theorem1("5b", theory.Repaired), both(Holds), "with a lower bound Σ_min the matrix-Azuma step is valid; it is vacuous (undefined) for sequences whose Σ_s is rank-deficient"),
		record(effectiveDimension(), effectiveDimensionRecorded, effectiveDimensionWhy))
	claims = append(claims, record(lockOnClaim(), both(DoesNotHold), "the max-norm rule keeps choosing contexts whose most uncertain pair the arm rule never queries, so their norms never shrink (figures/lockon/mechanism.md)"))
	claims = append(claims, lockOnRepairClaims()...)
	claims = append(claims, freshClaims()...)
	claims = append(claims, plusClaims()...)
	claims = append(claims, choiceClaims()...)
	claims = append(claims, targetClaims()...)
	return claims
}

// record sets a claim's recorded verdicts and their explanation.
func record(c Claim, v map[string]Verdict, why string) Claim {
	c.Recorded, c.Why = v, why
	return c
}
