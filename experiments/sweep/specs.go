package sweep

import (
	"fmt"
	"slices"
	"strings"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
)

// Scale sets the size of a sweep: seeds, rounds and the paper's main setting
// with the grids of its ablations. The figures and the claims of package
// verify are built from one Scale, so a claim's runs are figure runs.
type Scale struct {
	Name  string
	Seeds int // repetitions per curve (seeds 1..Seeds)
	T     int // rounds per run
	Every int // checkpoint period
	// Problem is the main setting's problem (its Name is replaced per row).
	Problem experiments.ProblemSpec
	Width   int // network width of the main setting
	// The ablation grids: d and K of Figures 2 and 3 (Square), the network
	// widths (2 hidden layers) and depths (width DepthWidth) of Figure 6, and
	// the d and K of the comparisons of Figures 4 and 5.
	Dims, ArmsGrid         []int
	Widths, Depths         []int
	DepthWidth             int
	CompareDims, CompareKs []int
	// Candidates are the numbers M of fresh candidate contexts per round of
	// the fresh-context figures: the default first (FreshM), then the
	// others shown beside it.
	Candidates []int
	// FirstSeed is the first of the Seeds seeds of SeedsOf (0: seed 1): a
	// confirmation of claims on seeds no figure has run (31–60 for the
	// claims decided on seeds 1–30).
	FirstSeed uint64
	// RealT is the number of duels of a run on the real-data problems
	// (CEMSChoice, Statlog Shuttle) of the plus-* figures, figures/choice
	// and their claims (PlusRealSpec); 0: T at paper scale, T/2 elsewhere.
	RealT int
}

// FreshM is the default number of fresh candidate contexts per round of the
// fresh-context reading at scale sc.
func (sc Scale) FreshM() int { return sc.Candidates[0] }

// Fresh is the main setting's problem in the fresh-context reading with m
// candidates per round (the Problem's contexts are the evaluation pool).
func (sc Scale) Fresh(spec experiments.Spec, m int) experiments.Spec {
	spec.Problem.Candidates = m
	return spec
}

// Paper is the paper's setting (Section 4): Square and Sine, d = 20, K = 10,
// 300 contexts, width 50, T = 1000, 10 repetitions, and the grids of its
// ablation figures.
var Paper = Scale{
	Name: "paper", Seeds: 10, T: 1000, Every: 50, Problem: experiments.DefaultProblem(), Width: 50,
	Dims: []int{5, 10, 15, 20}, ArmsGrid: []int{5, 10, 15, 20}, Widths: []int{16, 32, 50, 100}, Depths: []int{1, 2, 3, 4}, DepthWidth: 32,
	CompareDims: []int{20, 40}, CompareKs: []int{5, 10, 15},
	Candidates: []int{20, 300},
}

// Quick is a smoke-test scale: the paper's figures with 2 seeds and T = 200,
// for checking the whole pipeline (nadb figures -quick -list gives its
// expected processor time).
var Quick = func() Scale {
	s := Paper
	s.Name, s.Seeds, s.T, s.Every = "quick", 2, 200, 20
	return s
}()

// Reduced is the scale of "go test ./verify", a check of the claims'
// pipeline (runs, statistics, verdicts), not evidence: the claims on a
// smaller problem (d = 10, K = 5, 100 contexts, width 32, T = 500) with 10
// paired seeds, 200 duels on the real-data problems; package verify runs some
// claims with fewer seeds or problems at this scale (Claim.Seeds), so that
// the whole claims table costs about two minutes of processor time.
var Reduced = Scale{
	Name: "reduced", Seeds: 10, T: 500, Every: 50, RealT: 200,
	Problem: experiments.ProblemSpec{Name: string(experiments.Square), Dim: 10, Arms: 5, Contexts: 100, Theta: experiments.ThetaSphere}, Width: 32,
	Dims: []int{3, 6, 10, 15}, ArmsGrid: []int{3, 5, 8, 12}, Widths: []int{8, 16, 32, 64}, Depths: []int{1, 2, 3, 4}, DepthWidth: 16,
	CompareDims: []int{10, 20}, CompareKs: []int{3, 5, 8},
	Candidates: []int{20, 100},
}

// Scales are the named scales.
var Scales = []Scale{Paper, Quick, Reduced}

// SeedsOf returns spec with seeds 1..sc.Seeds (FirstSeed … FirstSeed +
// Seeds − 1 when FirstSeed is set).
func (sc Scale) SeedsOf(spec experiments.Spec) []experiments.Spec {
	first := max(sc.FirstSeed, 1)
	out := make([]experiments.Spec, sc.Seeds)
	for i := range out {
		out[i] = spec
		out[i].Seed = first + uint64(i)
	}
	return out
}

// PaperAlgorithms are the algorithms of the paper's comparisons (Section 4):
// Neural-ADB (UCB, TS) and every baseline it names, plus random-nn (ours: random
// selection with the same network, separating rule from model).
var PaperAlgorithms = []string{
	"neural-adb-ucb", "neural-adb-ts",
	"neural-adb-apo", "ae-borda-nn",
	"apo", "ae-borda", "ae-dpo", "random",
	"random-nn",
}

// FigureSpec is one entry of the list of figures: an id (the file name
// stem) and how to build the figure at a scale.
type FigureSpec struct {
	ID    string
	Build func(Scale) Figure
}

// Figures returns every figure of FigureSpecs at scale sc, sorted by id. If
// only is not empty it keeps those ids and reports unknown ones.
func Figures(sc Scale, only []string) ([]Figure, error) {
	specs := FigureSpecs()
	var ids []string
	for _, fs := range specs {
		ids = append(ids, fs.ID)
	}
	for _, id := range only {
		if !slices.Contains(ids, id) {
			return nil, fmt.Errorf("sweep: unknown figure %q (known: %s)", id, strings.Join(ids, ", "))
		}
	}
	slices.SortFunc(specs, func(a, b FigureSpec) int { return strings.Compare(a.ID, b.ID) })
	var figs []Figure
	for _, fs := range specs {
		if len(only) > 0 && !slices.Contains(only, fs.ID) {
			continue
		}
		f := fs.Build(sc)
		f.ID = fs.ID
		f.Scale = sc.Name
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
		return fmt.Errorf("sweep: figure %s: needs at least one seed", f.ID)
	}
	for _, r := range f.Rows {
		for _, c := range r.Curves {
			if err := c.Spec.Validate(); err != nil {
				return fmt.Errorf("sweep: figure %s, %s, %s: %w", f.ID, r.Title, c.Label, err)
			}
		}
	}
	if len(f.Metrics) == 0 {
		return fmt.Errorf("sweep: figure %s: no metrics", f.ID)
	}
	return nil
}

// Base is the main setting at scale sc for one algorithm (seed 0: set it, or
// use SeedsOf).
func Base(sc Scale, algo string) experiments.Spec {
	cfg := algorithms.Default()
	cfg.Width = sc.Width
	return experiments.Spec{Algorithm: algo, Problem: sc.Problem, Config: cfg, T: sc.T, Every: sc.Every}
}

// comparison is one row with a curve for every algorithm in algos.
func comparison(sc Scale, title string, algos []string, edit func(*experiments.Spec)) Row {
	r := Row{Title: title}
	for _, a := range algos {
		s := Base(sc, a)
		if edit != nil {
			edit(&s)
		}
		r.Curves = append(r.Curves, Curve{Label: DisplayName(a), Spec: s})
	}
	return r
}

var paperMetrics = []string{"worst_gap", "mean_gap", "avg_regret"}
