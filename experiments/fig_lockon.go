package experiments

// The lock-on figure of "make figures" (ours, issue 7): the paper's context
// rule as written against the repaired rules, the same arm rule on uniformly
// random contexts, and the strongest baselines of Figure 1 (neural-adb-apo on
// Square, the linear apo on Sine), on Square (top) and Sine (bottom). The
// tables with tests and calibration are "nadb lockon" (figures/lockon/).

// LockonFigureAlgorithms are the curves of the lock-on figure.
var LockonFigureAlgorithms = []string{
	"neural-adb-ucb", "neural-adb-tsctx-ucb", "neural-adb-lookahead-ucb", "neural-adb-ucb-randctx",
	"neural-adb-apo", "apo",
}

func init() {
	for name, label := range map[string]string{
		"neural-adb-tsctx-ucb":     "neural-adb-ucb, Thompson-sampled contexts (ours)",
		"neural-adb-tsctx-ts":      "neural-adb-ts, Thompson-sampled contexts (ours)",
		"neural-adb-lookahead-ucb": "neural-adb-ucb, lookahead contexts (ours)",
		"neural-adb-lookahead-ts":  "neural-adb-ts, lookahead contexts (ours)",
	} {
		if _, taken := displayNames[name]; !taken {
			displayNames[name] = label
		}
	}
	RegisterFigure("lockon", func(sc Scale) Figure {
		return Figure{
			Caption: "Lock-on of the paper's context rule (ours): Neural-ADB (UCB) as written, with two repaired context rules, with uniformly random contexts, and the strongest baselines; worst gap, pool mean gap and the share of duels on the most-queried context, Square (top) and Sine (bottom)",
			Paper:   "ours",
			Metrics: []string{"worst_gap", "mean_gap", "top_context_share"},
			Seeds:   sc.Seeds,
			Dir:     "lockon",
			Rows: []Row{
				comparison(sc, "Square", LockonFigureAlgorithms, nil),
				comparison(sc, "Sine", LockonFigureAlgorithms, func(s *Spec) { s.Problem.Name = "sine" }),
			},
		}
	})
}
