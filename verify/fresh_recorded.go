package verify

// The recorded verdicts (regression guards) of the fresh-context rows and
// their explanations, from the committed runs (figures/claims.md,
// figures/fig1-fresh.csv: M = 20 fresh candidate contexts per round, metrics
// on a fixed 300-context evaluation pool).
var freshRecorded = map[string]map[string]Verdict{
	"1a": both(Holds), "1b": both(Holds), "1c": both(Holds), "1d": both(Holds),
	"2a": {"reduced": NotResolved, "paper": DoesNotHold}, "2b": both(DoesNotHold),
	"2c": {"reduced": NotResolved, "paper": DoesNotHold},
	"8a": both(NotResolved),
}

var freshWhy = map[string]string{
	"1a": "with fresh contexts nothing can lock on: the worst gap on the evaluation pool falls with log–log slope −0.95 ± 0.12 at paper scale, faster than the bound's −1/2",
	"1b": "as for UCB: slope −0.92 ± 0.11 at paper scale",
	"1c": "the mean gap falls with slope −1.54 ± 0.13 at paper scale (Square, UCB), to 0.225 at T = 1000",
	"1d": "slope −1.60 ± 0.12 at paper scale (Square, TS), to 0.202 at T = 1000",
	"2a": "Neural-ADB (UCB) beats the linear and Borda baselines on Square, but not Neural-ADB (TS) or neural-adb-apo there, and on Sine the linear learners (apo, ae-borda, ae-dpo, random) do as well or better: Sine's reward is nearly linear (at reduced scale, 3 seeds, no comparator is significantly better either: not resolved)",
	"2b": "18 of 28 tests significant at paper scale: the network learners win on Square, but on Sine the linear learners reach far lower mean gaps (apo 0.022, random 0.031 against 0.36 for Neural-ADB), and neural-adb-apo matches Neural-ADB on Square",
	"2c": "26 of 28 tests significant at paper scale; on Sine AE-DPO's duels still have significantly lower regret than Neural-ADB's (UCB and TS); at reduced scale (3 seeds) no baseline is significantly better: not resolved",
	"8a": "no detectable effect of the max-norm context rule when contexts are fresh: Square mean gap 0.225 vs 0.208 (UCB) and 0.202 vs 0.214 (TS), Sine 0.36 vs 0.35, worst gaps within the seed noise; no test is significant in either direction at 10 seeds (smallest reverse p = 0.22; median detectable difference 0.38 at 80% power), so the claim is not resolved",
}
