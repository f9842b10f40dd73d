package experiments

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/neural-adb/nadb/algorithms"
)

// Scale sets the size of a figure sweep.
type Scale struct {
	Name  string
	Seeds int // repetitions per curve
	T     int // rounds per run
	Every int // checkpoint period
}

// Paper is the scale of the paper: 10 repetitions of T = 1000 duels.
var Paper = Scale{Name: "paper", Seeds: 10, T: 1000, Every: 50}

// Quick is a smoke-test scale: the same figures with 2 seeds and T = 200, for
// checking the whole pipeline in a few minutes.
var Quick = Scale{Name: "quick", Seeds: 2, T: 200, Every: 20}

// PaperAlgorithms are the algorithms of the paper's comparisons (Section 4):
// Neural-ADB (UCB, TS) and every baseline it names, plus random-nn (ours: random
// selection with the same network, separating rule from model).
var PaperAlgorithms = []string{
	"neural-adb-ucb", "neural-adb-ts",
	"neural-adb-apo", "ae-borda-nn",
	"apo", "ae-borda", "ae-dpo", "random",
	"random-nn",
}

// FigureBuilder makes a figure at a scale.
type FigureBuilder func(Scale) Figure

var figureRegistry struct {
	sync.Mutex
	order []string
	m     map[string]FigureBuilder
}

// RegisterFigure adds a figure to "nadb figures" and "make figures". Call it
// from an init function in the figure's own file; id must be unique.
func RegisterFigure(id string, b FigureBuilder) {
	figureRegistry.Lock()
	defer figureRegistry.Unlock()
	if figureRegistry.m == nil {
		figureRegistry.m = map[string]FigureBuilder{}
	}
	if _, dup := figureRegistry.m[id]; dup {
		panic("experiments: duplicate figure " + id)
	}
	figureRegistry.m[id] = b
	figureRegistry.order = append(figureRegistry.order, id)
}

// Figures returns every registered figure at scale sc, sorted by id. If only
// is not empty it keeps those ids and reports unknown ones.
func Figures(sc Scale, only []string) ([]Figure, error) {
	figureRegistry.Lock()
	ids := slices.Clone(figureRegistry.order)
	builders := figureRegistry.m
	figureRegistry.Unlock()
	slices.Sort(ids)
	if len(only) > 0 {
		for _, id := range only {
			if !slices.Contains(ids, id) {
				return nil, fmt.Errorf("only: unknown figure %q (known: %s)", id, strings.Join(ids, ", "))
			}
		}
		ids = slices.DeleteFunc(ids, func(id string) bool { return !slices.Contains(only, id) })
	}
	var figs []Figure
	for _, id := range ids {
		f := builders[id](sc)
		f.ID = id
		if err := f.Validate(); err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	return figs, nil
}

// Validate checks every run of the figure before any work starts.
func (f Figure) Validate() error {
	if f.Seeds < 1 {
		return fmt.Errorf("figure %s: needs at least one seed", f.ID)
	}
	for _, r := range f.Rows {
		for _, c := range r.Curves {
			if err := c.Spec.Validate(); err != nil {
				return fmt.Errorf("figure %s, %s, %s: %w", f.ID, r.Title, c.Label, err)
			}
		}
	}
	if len(f.Metrics) == 0 {
		return fmt.Errorf("figure %s: no metrics", f.ID)
	}
	return nil
}

// base is the paper's main setting at scale sc.
func base(sc Scale, algo string) Spec {
	return Spec{Algorithm: algo, Problem: DefaultProblem(), Config: algorithms.Default(), T: sc.T, Every: sc.Every}
}

// displayNames mark, in legends, the algorithms that are not the paper's own.
var displayNames = map[string]string{
	"ae-dpo":                 "ae-dpo (our interpretation)",
	"random-nn":              "random-nn (ours)",
	"neural-adb-ucb-randctx": "neural-adb-ucb, random contexts (ours)",
	"neural-adb-ts-randctx":  "neural-adb-ts, random contexts (ours)",
}

// DisplayName is the legend label of an algorithm.
func DisplayName(algo string) string {
	if n, ok := displayNames[algo]; ok {
		return n
	}
	return algo
}

// comparison is one row with a curve for every algorithm in algos.
func comparison(sc Scale, title string, algos []string, edit func(*Spec)) Row {
	r := Row{Title: title}
	for _, a := range algos {
		s := base(sc, a)
		if edit != nil {
			edit(&s)
		}
		r.Curves = append(r.Curves, Curve{Label: DisplayName(a), Spec: s})
	}
	return r
}

var paperMetrics = []string{"worst_gap", "mean_gap", "avg_regret"}

func init() {
	RegisterFigure("fig1-main", func(sc Scale) Figure {
		return Figure{
			Caption: "Neural-ADB against every baseline on Square (top) and Sine (bottom): worst gap, MAE in both readings, average regret",
			Paper:   "Figure 1",
			Metrics: []string{"worst_gap", "mean_gap", "queried_gap", "avg_regret"},
			Seeds:   sc.Seeds,
			Rows: []Row{
				comparison(sc, "Square", PaperAlgorithms, nil),
				comparison(sc, "Sine", PaperAlgorithms, func(s *Spec) { s.Problem.Name = "sine" }),
			},
		}
	})
	for _, arm := range []struct{ fig, algo, paper, name string }{
		{"fig2-ucb-d-K", "neural-adb-ucb", "Figure 2", "UCB"},
		{"fig3-ts-d-K", "neural-adb-ts", "Figure 3", "TS"},
	} {
		RegisterFigure(arm.fig, func(sc Scale) Figure {
			dims := Row{Title: "Square, K = 10, varying d"}
			for _, d := range []int{5, 10, 15, 20} {
				s := base(sc, arm.algo)
				s.Problem.Dim = d
				dims.Curves = append(dims.Curves, Curve{Label: fmt.Sprintf("d=%d", d), Spec: s})
			}
			arms := Row{Title: "Square, d = 20, varying K"}
			for _, k := range []int{5, 10, 15, 20} {
				s := base(sc, arm.algo)
				s.Problem.Arms = k
				arms.Curves = append(arms.Curves, Curve{Label: fmt.Sprintf("K=%d", k), Spec: s})
			}
			return Figure{
				Caption:    fmt.Sprintf("Neural-ADB (%s) on Square across input dimensions d (top) and numbers of arms K (bottom)", arm.name),
				Paper:      arm.paper,
				Metrics:    paperMetrics,
				Seeds:      sc.Seeds,
				Rows:       []Row{dims, arms},
				Sequential: true,
			}
		})
	}
	RegisterFigure("fig4-compare-d", func(sc Scale) Figure {
		var rows []Row
		for _, d := range []int{20, 40} {
			rows = append(rows, comparison(sc, fmt.Sprintf("Square, K = 10, d = %d", d), PaperAlgorithms, func(s *Spec) { s.Problem.Dim = d }))
		}
		return Figure{Caption: "Every algorithm at d = 20 (top) and d = 40 (bottom), K = 10, Square", Paper: "Figure 4 (Appendix B)", Metrics: paperMetrics, Seeds: sc.Seeds, Rows: rows}
	})
	RegisterFigure("fig5-compare-K", func(sc Scale) Figure {
		var rows []Row
		for _, k := range []int{5, 10, 15} {
			rows = append(rows, comparison(sc, fmt.Sprintf("Square, d = 20, K = %d", k), PaperAlgorithms, func(s *Spec) { s.Problem.Arms = k }))
		}
		return Figure{Caption: "Every algorithm at K = 5, 10, 15 (rows), d = 20, Square", Paper: "Figure 5 (Appendix B)", Metrics: paperMetrics, Seeds: sc.Seeds, Rows: rows}
	})
	RegisterFigure("fig6-network-size", func(sc Scale) Figure {
		width := Row{Title: "Square, 2 hidden layers, varying width"}
		for _, w := range []int{16, 32, 50, 100} {
			s := base(sc, "neural-adb-ucb")
			s.Config.Width = w
			width.Curves = append(width.Curves, Curve{Label: fmt.Sprintf("width %d", w), Spec: s})
		}
		depth := Row{Title: "Square, width 32, varying depth"}
		for _, l := range []int{1, 2, 3, 4} {
			s := base(sc, "neural-adb-ucb")
			s.Config.Width = 32
			s.Config.Depth = l
			label := fmt.Sprintf("%d hidden layers", l)
			if l == 1 {
				label = "1 hidden layer"
			}
			depth.Curves = append(depth.Curves, Curve{Label: label, Spec: s})
		}
		return Figure{
			Caption:    "Neural-ADB (UCB) on Square: network width with 2 hidden layers (top), depth with width 32 (bottom)",
			Paper:      "Figure 6 (Appendix B)",
			Metrics:    paperMetrics,
			Seeds:      sc.Seeds,
			Rows:       []Row{width, depth},
			Sequential: true,
		}
	})
	RegisterFigure("fig7-distinct-contexts", func(sc Scale) Figure {
		algos := append(slices.Clone(PaperAlgorithms), "neural-adb-ucb-randctx", "neural-adb-ts-randctx")
		return Figure{
			Caption: "Lock-on diagnostic (ours): distinct contexts queried and the share of rounds on the most-queried context, Square (top) and Sine (bottom)",
			Paper:   "ours",
			Metrics: []string{"distinct_contexts", "top_context_share"},
			Seeds:   sc.Seeds,
			Rows: []Row{
				comparison(sc, "Square", algos, nil),
				comparison(sc, "Sine", algos, func(s *Spec) { s.Problem.Name = "sine" }),
			},
		}
	})
}
