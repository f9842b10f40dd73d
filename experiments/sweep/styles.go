package sweep

import (
	"hash/fnv"

	"gonum.org/v1/plot/vg"

	"github.com/neural-adb/nadb/internal/plotfig"
)

// How the algorithms and metrics look in every figure: one place for the
// domain knowledge the drawing package (internal/plotfig) does not have.

// displayNames mark, in legends, the algorithms that are not the paper's own.
var displayNames = map[string]string{
	"ae-dpo":                   "ae-dpo (our interpretation)",
	"random-nn":                "random-nn (ours)",
	"neural-adb-ucb-randctx":   "neural-adb-ucb, random contexts (ours)",
	"neural-adb-ts-randctx":    "neural-adb-ts, random contexts (ours)",
	"neural-adb-tsctx-ucb":     "neural-adb-ucb, Thompson-sampled contexts (ours)",
	"neural-adb-tsctx-ts":      "neural-adb-ts, Thompson-sampled contexts (ours)",
	"neural-adb-lookahead-ucb": "neural-adb-ucb, lookahead contexts (ours)",
	"neural-adb-lookahead-ts":  "neural-adb-ts, lookahead contexts (ours)",
}

// DisplayName is the legend label of an algorithm.
func DisplayName(algo string) string {
	if n, ok := displayNames[algo]; ok {
		return n
	}
	return algo
}

// styles fixes the style of every algorithm the paper and this project run,
// so that an algorithm looks the same in every figure.
var styles = map[string]plotfig.Style{
	"neural-adb-ucb":           {Color: plotfig.Palette[0]},
	"neural-adb-ts":            {Color: plotfig.Palette[1]},
	"neural-adb-ucb-randctx":   {Color: plotfig.Palette[0], Dashes: plotfig.Dotted},
	"neural-adb-ts-randctx":    {Color: plotfig.Palette[1], Dashes: plotfig.Dotted},
	"neural-adb-tsctx-ucb":     {Color: plotfig.Palette[4]},
	"neural-adb-tsctx-ts":      {Color: plotfig.Palette[4], Dashes: plotfig.Dashed},
	"neural-adb-lookahead-ucb": {Color: plotfig.Brown},
	"neural-adb-lookahead-ts":  {Color: plotfig.Brown, Dashes: plotfig.Dashed},
	"neural-adb-apo":           {Color: plotfig.Palette[3]},
	"apo":                      {Color: plotfig.Palette[3], Dashes: plotfig.DashDot},
	"ae-borda-nn":              {Color: plotfig.Palette[2]},
	"ae-borda":                 {Color: plotfig.Palette[2], Dashes: plotfig.Dashed},
	"ae-dpo":                   {Color: plotfig.Palette[5], Dashes: plotfig.Dashed},
	"random-nn":                {Color: plotfig.Palette[7], Dashes: plotfig.Dashed},
	"random":                   {Color: plotfig.Palette[6], Dashes: plotfig.Dashed},
}

// StyleFor returns the fixed style of a named algorithm; other names get a
// deterministic style from a hash of the name.
func StyleFor(algo string) plotfig.Style {
	if s, ok := styles[algo]; ok {
		return s
	}
	h := fnv.New32a()
	h.Write([]byte(algo))
	v := h.Sum32()
	dash := [][]vg.Length{nil, plotfig.Dashed, plotfig.Dotted, plotfig.DashDot}[(v/8)%4]
	return plotfig.Style{Color: plotfig.Palette[v%uint32(len(plotfig.Palette))], Dashes: dash}
}

// metricLabels are the panel titles and y-axis labels of the metrics (ASCII,
// so that the PDF renders).
var metricLabels = map[string][2]string{
	"worst_gap":              {"Worst sub-optimality gap", "gap (reward units)"},
	"mean_gap":               {"MAE (pool mean gap)", "gap (reward units)"},
	"queried_gap":            {"MAE (queried contexts)", "gap (reward units)"},
	"avg_regret":             {"Average regret", "regret (reward units)"},
	"distinct_contexts":      {"Distinct contexts queried", "contexts"},
	"top_context_share":      {"Share on top context", "fraction of duels"},
	"test_accuracy":          {"Held-out accuracy", "share predicted correctly"},
	"test_logloss":           {"Held-out log-loss", "nats per answer"},
	"test_copeland_gap":      {"Held-out Copeland gap", "Copeland points (of 5)"},
	"test_balanced_accuracy": {"Held-out balanced accuracy", "mean recall over classes"},
	"test_mean_gap":          {"Held-out mean gap", "gap (reward units)"},
	"test_worst_gap":         {"Held-out worst gap", "gap (reward units)"},
	"answer_accuracy":        {"Training-answer accuracy (in-sample)", "share of answers"},
	"answer_logloss":         {"Training-answer log-loss (in-sample)", "nats per answer"},
	"tie_share":              {"Duels answered by a coin (tie)", "share of duels"},
	"unrecorded_share":       {"Duels answered by a coin (no record)", "share of duels"},
}

// MetricLabel returns the panel title and axis label of a metric.
func MetricLabel(name string) (title, axis string) {
	if l, ok := metricLabels[name]; ok {
		return l[0], l[1]
	}
	return name, name
}
