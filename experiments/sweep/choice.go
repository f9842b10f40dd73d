package sweep

import (
	"fmt"
	"slices"
	"strings"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
)

// What choosing buys (figures/choice/): every learner of ChoiceLearners
// against its passive twin — the same learner, configuration and seed with
// algorithms.CollectPassive, so that every duel it is trained on is a
// uniformly random context and allowed pair — on every problem of
// ChoiceProblems. The learner and its twin differ only in who chose the
// duels, so the difference between their learning curves is what choosing
// buys (or costs). Per learner three figures (synthetic problems in both
// readings, CEMSChoice held out, Statlog Shuttle held out), each with
// summary tables and the per-seed values on the learning-curve grid
// (LogGrid); across learners the savings table (savings.md, savings.csv:
// labels-to-match, SavingsTable).
//
// The runs check every GridEvery duels, so the curves are drawn at every
// 25 duels and contain the log grid; the plus-* figures run neural-adb-plus
// and its comparators with exactly these Specs (ChoiceSpec), so no run is
// computed twice and claims 9a–9g read the same runs.

// GridEvery is the checkpoint period of the runs of figures/choice and of
// the plus-* figures: 25 duels (the first point of LogGrid) when T is a
// multiple of 25, else sc.Every. The checkpoint period changes no value of
// a run, only how often it is recorded.
func GridEvery(sc Scale) int {
	if sc.T%25 == 0 {
		return 25
	}
	return sc.Every
}

// logGridPoints are the checkpoints of the learning-curve grid at T = 1000.
var logGridPoints = []int{25, 50, 100, 200, 400, 700, 1000}

// LogGrid returns the checkpoints of the learning-curve grid of a run of T
// duels: 0, then 25, 50, 100, 200, 400, 700 and 1000 up to T, and T. Labels-
// to-match, the area between curves and claim 9g are computed on it, and
// the seeds files hold every run's values on it.
func LogGrid(T int) []int {
	g := []int{0}
	for _, t := range logGridPoints {
		if t < T {
			g = append(g, t)
		}
	}
	return append(g, T)
}

// ChoiceLearner is a learner that figures/choice compares with its passive
// twin. A new learner is one more entry of ChoiceLearners: its figures,
// tables and savings rows follow.
type ChoiceLearner struct {
	Algorithm string
	// ID names its figures: choice-ID, choice-ID-cems, choice-ID-shuttle.
	ID string
	// Seeds is its number of evaluation seeds (1…Seeds) at a scale: 30 at
	// paper scale where a claim is decided on the comparison, the scale's
	// own (10) where it is only reported.
	Seeds func(Scale) int
}

// ChoiceLearners are the learners of figures/choice: neural-adb-plus (claims
// 9f and 9g, its 30 evaluation seeds), the paper's Neural-ADB (UCB) as
// written, and the repaired Thompson-sampled context rule with the paper's
// arm rule (reported, 10 seeds).
var ChoiceLearners = []ChoiceLearner{
	{Algorithm: "neural-adb-plus", ID: "plus", Seeds: PlusSeeds},
	{Algorithm: "neural-adb-ucb", ID: "ucb", Seeds: scaleSeeds},
	{Algorithm: "neural-adb-tsctx-ucb", ID: "tsctx", Seeds: scaleSeeds},
}

func scaleSeeds(sc Scale) int { return sc.Seeds }

// ChoiceLearnerOf returns the entry of ChoiceLearners for algo.
func ChoiceLearnerOf(algo string) (ChoiceLearner, bool) {
	i := slices.IndexFunc(ChoiceLearners, func(l ChoiceLearner) bool { return l.Algorithm == algo })
	if i < 0 {
		return ChoiceLearner{}, false
	}
	return ChoiceLearners[i], true
}

// ChoiceProblem is one problem (and reading) of figures/choice.
type ChoiceProblem struct {
	ID    string // square, square-fresh, …, cems, shuttle
	Title string // row title
	// Group is the figure of a learner it is drawn in: "" (the synthetic
	// problems), "cems" or "shuttle".
	Group string
	// Metric is the primary metric: labels-to-match in the savings table
	// and the statistic of claims 9f and 9g. The pool mean gap on the
	// synthetic problems, the held-out log-loss on CEMSChoice, the
	// held-out mean gap on Shuttle (which has no recorded answers, so no
	// log-loss; its held-out mean gap is twice the error rate).
	Metric string
	fn     experiments.Function // synthetic problems
	fresh  bool                 // fresh-context reading
}

// ChoiceProblems are the problems of figures/choice and of claims 9f–9g.
var ChoiceProblems = func() []ChoiceProblem {
	var out []ChoiceProblem
	for _, fresh := range []bool{false, true} {
		for _, fn := range PlusProblems {
			p := ChoiceProblem{ID: string(fn), Title: title(string(fn)), Metric: "mean_gap", fn: fn, fresh: fresh}
			if fresh {
				p.ID += "-fresh"
				p.Title += ", fresh contexts"
			}
			out = append(out, p)
		}
	}
	return append(out,
		ChoiceProblem{ID: "cems", Title: "CEMSChoice, held-out students", Group: "cems", Metric: "test_logloss"},
		ChoiceProblem{ID: "shuttle", Title: "Statlog Shuttle, held-out samples", Group: "shuttle", Metric: "test_mean_gap"})
}()

// ChoiceProblemOf returns the entry of ChoiceProblems with id.
func ChoiceProblemOf(id string) (ChoiceProblem, bool) {
	i := slices.IndexFunc(ChoiceProblems, func(p ChoiceProblem) bool { return p.ID == id })
	if i < 0 {
		return ChoiceProblem{}, false
	}
	return ChoiceProblems[i], true
}

// title capitalises a problem name.
func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// choiceMetrics are the metrics drawn per group, the primary one first.
var choiceMetrics = map[string][]string{
	"":        {"mean_gap", "worst_gap"},
	"cems":    {"test_logloss", "test_accuracy", "test_copeland_gap", "mean_gap"},
	"shuttle": {"test_mean_gap", "test_accuracy", "test_balanced_accuracy", "mean_gap"},
}

// ChoiceSpec is the run of algo on problem p at scale sc as figures/choice,
// the plus-* figures and claims 9a–9g run it (seed 0: set it; its passive
// twin is Twin of it): the main setting (or, on the real data, PlusRealSpec)
// with checkpoints every GridEvery duels.
func ChoiceSpec(sc Scale, algo string, p ChoiceProblem) experiments.Spec {
	var s experiments.Spec
	if p.Group != "" {
		return PlusRealSpec(sc, algo, p.Group)
	}
	s = Base(sc, algo)
	s.Problem.Name = string(p.fn)
	if p.fresh {
		s = sc.Fresh(s, sc.FreshM())
	}
	s.Every = GridEvery(sc)
	return s
}

// Twin returns the passive twin of a run: the same learner, configuration
// and seed, trained on uniformly random duels (algorithms.CollectPassive).
func Twin(s experiments.Spec) experiments.Spec {
	s.Config.Collect = algorithms.CollectPassive
	return s
}

// TwinLabel is the legend label of a learner's passive twin.
func TwinLabel(algo string) string { return DisplayName(algo) + ", passive twin (random duels)" }

// ChoiceFigureID is the id of learner l's figure of a group ("", "cems",
// "shuttle").
func ChoiceFigureID(l ChoiceLearner, group string) string {
	if group == "" {
		return "choice-" + l.ID
	}
	return "choice-" + l.ID + "-" + group
}

// choiceFigures are the FigureSpecs of figures/choice: three per learner.
func choiceFigures() []FigureSpec {
	var out []FigureSpec
	for _, l := range ChoiceLearners {
		for _, g := range []string{"", "cems", "shuttle"} {
			out = append(out, FigureSpec{ChoiceFigureID(l, g), func(sc Scale) Figure { return choiceFigure(sc, l, g) }})
		}
	}
	return out
}

// choiceFigure is learner l against its twin on the problems of group g.
func choiceFigure(sc Scale, l ChoiceLearner, g string) Figure {
	var rows []Row
	var names []string
	for _, p := range ChoiceProblems {
		if p.Group != g {
			continue
		}
		s := ChoiceSpec(sc, l.Algorithm, p)
		rows = append(rows, Row{Title: p.Title, Curves: []Curve{
			{Label: DisplayName(l.Algorithm), Spec: s},
			{Label: TwinLabel(l.Algorithm), Spec: Twin(s)},
		}})
		names = append(names, p.Title)
	}
	what := "Square, Sine and Cosine on the fixed pool, then with fresh contexts (M = " + fmt.Sprint(sc.FreshM()) + ")"
	if g != "" {
		what = names[0]
	}
	return Figure{
		Caption: fmt.Sprintf("What choosing buys: %s against its passive twin (the same learner trained on uniformly random duels), %s; mean and 95%% t-band over %d seeds, log duel axis", DisplayName(l.Algorithm), what, l.Seeds(sc)),
		Paper:   "ours",
		Metrics: choiceMetrics[g],
		Seeds:   l.Seeds(sc),
		Dir:     "choice",
		Rows:    rows,
		LogX:    true,
		Tables:  writeChoiceTables,
	}
}
