package sweep

import (
	"hash/fnv"
	"math"
	"slices"

	"gonum.org/v1/plot/vg"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
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
	"neural-adb-plus":          "neural-adb-plus (ours)",
	"neural-adb-target":        "neural-adb-target (ours)",
}

// DisplayName is the legend label of an algorithm.
func DisplayName(algo string) string {
	if n, ok := displayNames[algo]; ok {
		return n
	}
	return algo
}

// styles fixes the style of every algorithm the paper and this project run,
// so that an algorithm looks the same in every figure. The encoding:
//
//   - colour: one of plotfig.Palette's twelve; the eleven algorithms of the
//     comparison figures (the paper's nine and the two random-context
//     comparators) and neural-adb-plus each have their own, and algorithms
//     sharing a colour never share a panel (StyleConflicts checks this
//     for every figure);
//   - line: (the light cyan and sand drawn wider) solid for the paper's neural learners, dashed for the linear
//     baselines, dotted, dash-dot or long dashes for the variants of ours;
//   - marker: filled for neural learners, open for linear ones; for
//     Neural-ADB and its context-rule variants the shape is the arm rule
//     (circle: UCB, triangle: TS).
var styles = map[string]plotfig.Style{
	"neural-adb-ucb":           {Color: plotfig.Indigo, Marker: plotfig.Circle},
	"neural-adb-ts":            {Color: plotfig.Rose, Marker: plotfig.Triangle},
	"neural-adb-apo":           {Color: plotfig.Teal, Marker: plotfig.Square},
	"ae-borda-nn":              {Color: plotfig.Green, Marker: plotfig.Diamond},
	"apo":                      {Color: plotfig.Cyan, Dashes: plotfig.Dashed, Marker: plotfig.OpenSquare, Width: vg.Points(1.4)},
	"ae-borda":                 {Color: plotfig.Sand, Dashes: plotfig.Dashed, Marker: plotfig.OpenDiamond, Width: vg.Points(1.4)},
	"ae-dpo":                   {Color: plotfig.Purple, Dashes: plotfig.Dashed, Marker: plotfig.OpenTriangleDown},
	"random":                   {Color: plotfig.Grey, Dashes: plotfig.Dashed, Marker: plotfig.Plus},
	"random-nn":                {Color: plotfig.Orange, Dashes: plotfig.DashDot, Marker: plotfig.Ring},
	"neural-adb-ucb-randctx":   {Color: plotfig.Wine, Dashes: plotfig.Dotted, Marker: plotfig.Circle, Width: vg.Points(1.4)},
	"neural-adb-ts-randctx":    {Color: plotfig.Olive, Dashes: plotfig.Dotted, Marker: plotfig.Triangle, Width: vg.Points(1.4)},
	"neural-adb-tsctx-ucb":     {Color: plotfig.Green, Dashes: plotfig.DashDot, Marker: plotfig.Circle},
	"neural-adb-tsctx-ts":      {Color: plotfig.Green, Dashes: plotfig.DashDot, Marker: plotfig.Triangle},
	"neural-adb-lookahead-ucb": {Color: plotfig.Purple, Dashes: plotfig.LongDash, Marker: plotfig.Circle},
	"neural-adb-lookahead-ts":  {Color: plotfig.Purple, Dashes: plotfig.LongDash, Marker: plotfig.Triangle},
	"neural-adb-plus":          {Color: plotfig.Black, Marker: plotfig.Star, Width: vg.Points(1.3)},
	"neural-adb-target":        {Color: plotfig.Rose, Marker: plotfig.Star, Width: vg.Points(1.3)},
}

// fallbackMarkers are markers no fixed style uses: an unregistered
// algorithm gets one of them with the DashDash pattern, so it never looks
// like a registered one.
var fallbackMarkers = []plotfig.Marker{plotfig.Asterisk, plotfig.Cross}

// StyleFor returns the fixed style of a named algorithm; other names get a
// deterministic style from a hash of the name, with a line pattern and
// markers that no fixed style has.
func StyleFor(algo string) plotfig.Style {
	if s, ok := styles[algo]; ok {
		return s
	}
	h := fnv.New32a()
	h.Write([]byte(algo))
	v := h.Sum32()
	n := uint32(len(plotfig.Palette))
	return plotfig.Style{Color: plotfig.Palette[v%n], Dashes: plotfig.DashDash, Marker: fallbackMarkers[(v/n)%uint32(len(fallbackMarkers))]}
}

// StyleOf is the style of a run's curve: its algorithm's (StyleFor), and
// for a passive twin (Config.Collect passive: the same learner on uniformly
// random duels) grey and dashed with its algorithm's marker, so that a
// learner and its twin share a panel without sharing a colour.
func StyleOf(s experiments.Spec) plotfig.Style {
	st := StyleFor(s.Algorithm)
	if s.Config.Collect.Rule() == algorithms.CollectPassive {
		st.Color, st.Dashes = plotfig.Grey, plotfig.Dashed
	}
	return st
}

// Family is a group of algorithms drawn in one row of panels where a
// figure has too many curves for one panel (the real-data benchmarks).
type Family struct {
	Title string
	Algos []string
}

// Families are the rows of the real-data figures: Neural-ADB with each arm
// rule against its context-rule variants, the other neural learners, the
// linear learners. An algorithm in none of them goes to a last row.
var Families = []Family{
	{"Neural-ADB (UCB arm rule): the paper's context rule and ours", []string{"neural-adb-ucb", "neural-adb-ucb-randctx", "neural-adb-tsctx-ucb", "neural-adb-lookahead-ucb"}},
	{"Neural-ADB (TS arm rule): the paper's context rule and ours", []string{"neural-adb-ts", "neural-adb-ts-randctx", "neural-adb-tsctx-ts", "neural-adb-lookahead-ts"}},
	{"Other learners on the paper's network", []string{"neural-adb-apo", "ae-borda-nn", "random-nn", "neural-adb-plus", "neural-adb-target"}},
	{"Linear learners", []string{"apo", "ae-borda", "ae-dpo", "random"}},
}

// OtherFamily is the row title of algorithms in no Family.
const OtherFamily = "Other algorithms"

// FamilyOf returns the index of algo's family in Families, or
// len(Families) for none.
func FamilyOf(algo string) int {
	for i, f := range Families {
		if slices.Contains(f.Algos, algo) {
			return i
		}
	}
	return len(Families)
}

// metric is how a metric is labelled and drawn.
type metric struct {
	title, axis string
	count       bool // integer values: integer ticks
}

// metricLabels are the panel titles and y-axis labels of the metrics.
var metricLabels = map[string]metric{
	"worst_gap":              {"Worst sub-optimality gap", "gap (reward units)", false},
	"mean_gap":               {"MAE (pool mean gap)", "gap (reward units)", false},
	"queried_gap":            {"MAE (queried contexts)", "gap (reward units)", false},
	"avg_regret":             {"Average regret", "regret (reward units)", false},
	"distinct_contexts":      {"Distinct contexts queried", "contexts", true},
	"top_context_share":      {"Share on top context", "fraction of duels", false},
	"test_accuracy":          {"Held-out accuracy", "share predicted correctly", false},
	"test_logloss":           {"Held-out log-loss", "nats per answer", false},
	"test_copeland_gap":      {"Held-out Copeland gap", "Copeland points (of 5)", false},
	"test_balanced_accuracy": {"Held-out balanced accuracy", "mean recall over classes", false},
	"test_mean_gap":          {"Held-out mean gap", "gap (reward units)", false},
	"test_choice_accuracy":   {"Held-out best-arm choices", "share of contexts", false},
	"test_worst_gap":         {"Held-out worst gap", "gap (reward units)", false},
	"answer_accuracy":        {"Training-answer accuracy (in-sample)", "share of answers", false},
	"answer_logloss":         {"Training-answer log-loss (in-sample)", "nats per answer", false},
	"tie_share":              {"Duels answered by a coin (tie)", "share of duels", false},
	"unrecorded_share":       {"Duels answered by a coin (no record)", "share of duels", false},
}

// MetricLabel returns the panel title and axis label of a metric.
func MetricLabel(name string) (title, axis string) {
	if l, ok := metricLabels[name]; ok {
		return l.title, l.axis
	}
	return name, name
}

// IsCount reports whether a metric takes integer values (its axis gets
// integer ticks).
func IsCount(name string) bool { return metricLabels[name].count }

// Reference is a horizontal reference level of a metric in a figure, such
// as a constant model's log-loss.
type Reference struct {
	Value float64
	Label string
}

// constantModelLogLoss is the log-loss of a model that gives every answer
// probability 1/2.
var constantModelLogLoss = math.Ln2
