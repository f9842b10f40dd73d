package verify

import (
	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
)

// Scale is the size at which the claims are tested.
type Scale struct {
	Name     string
	Seeds    int // paired repetitions (seeds 1..Seeds)
	T        int // duels per run
	Every    int // checkpoint period
	Dim      int // d of the main setting
	Arms     int // K of the main setting
	Contexts int // pool size
	Width    int // network width of the main setting
	// Dims, ArmsGrid, Widths, Depths are the ablation grids of claims 3 and 4.
	Dims, ArmsGrid, Widths, Depths []int
	DepthWidth                     int // width when varying depth
}

// Paper is the paper's setting (Section 4): d = 20, K = 10, 300 contexts,
// width 50, T = 1000, 10 repetitions. Its runs are the figures' runs, so a
// filled figure cache makes "nadb verify -scale paper" cheap.
var Paper = Scale{
	Name: "paper", Seeds: 10, T: 1000, Every: 50, Dim: 20, Arms: 10, Contexts: 300, Width: 50,
	Dims: []int{5, 10, 15, 20}, ArmsGrid: []int{5, 10, 15, 20}, Widths: []int{16, 32, 50, 100}, Depths: []int{1, 2, 3, 4}, DepthWidth: 32,
}

// Reduced is the scale of "go test ./verify": the same claims on a smaller
// problem (d = 10, K = 5, 100 contexts, width 32, T = 500) with 10 paired
// seeds, so that the tests keep their power while the whole table runs in
// about a minute on two cores.
var Reduced = Scale{
	Name: "reduced", Seeds: 10, T: 500, Every: 50, Dim: 10, Arms: 5, Contexts: 100, Width: 32,
	Dims: []int{3, 6, 10, 15}, ArmsGrid: []int{3, 5, 8, 12}, Widths: []int{8, 16, 32, 64}, Depths: []int{1, 2, 3, 4}, DepthWidth: 16,
}

// spec is the main setting at this scale for one algorithm and problem.
func (s Scale) spec(algo, problem string) experiments.Spec {
	cfg := algorithms.Default()
	cfg.Width = s.Width
	return experiments.Spec{
		Algorithm: algo,
		Problem:   experiments.ProblemSpec{Name: problem, Dim: s.Dim, Arms: s.Arms, Contexts: s.Contexts, Theta: "sphere"},
		Config:    cfg, T: s.T, Every: s.Every,
	}
}

// seeds returns spec with seeds 1..Seeds.
func (s Scale) seeds(spec experiments.Spec) []experiments.Spec {
	out := make([]experiments.Spec, s.Seeds)
	for i := range out {
		out[i] = spec
		out[i].Seed = uint64(i + 1)
	}
	return out
}
