package lockon

import (
	"context"
	"fmt"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/par"
)

// LockonRule is one algorithm of the study with the comparator it must beat:
// the same arm rule on uniformly random contexts.
type LockonRule struct {
	Algorithm  string
	Comparator string // "" for the comparators themselves
	Repair     bool   // a repaired context rule, held to the bar
}

// Reading is one interpretation of what the paper leaves open: Config fields
// by flag name.
type Reading struct {
	Name string
	Set  [][2]string // (flag, value) pairs applied over the study's Config
}

// Apply returns cfg with the reading's fields set.
func (r Reading) Apply(cfg algorithms.Config) (algorithms.Config, error) {
	for _, kv := range r.Set {
		if err := cfg.Set(kv[0], kv[1]); err != nil {
			return cfg, fmt.Errorf("reading %q: %w", r.Name, err)
		}
	}
	return cfg, cfg.Validate()
}

// LockonStudy sizes the study.
type LockonStudy struct {
	Name     string
	Problems []string                // synthetic functions
	Problem  experiments.ProblemSpec // template; Name is replaced by each of Problems
	Config   algorithms.Config
	Seeds    int // seeds 1..Seeds
	T, Every int
	Rules    []LockonRule
	// Readings are the sensitivity grid: the as-written UCB rule and its
	// random-context comparator under each reading.
	Readings      []Reading
	ReadingSeeds  int    // seeds per reading (≤ Seeds)
	ReadingRule   string // the as-written algorithm of the grid
	ReadingRandom string // its comparator
}

// LockonRules are the algorithms of the study: the paper's rule, the
// comparators and the repairs (see algorithms/repair_*.go).
var LockonRules = []LockonRule{
	{Algorithm: "neural-adb-ucb", Comparator: "neural-adb-ucb-randctx"},
	{Algorithm: "neural-adb-ts", Comparator: "neural-adb-ts-randctx"},
	{Algorithm: "neural-adb-lookahead-ucb", Comparator: "neural-adb-ucb-randctx", Repair: true},
	{Algorithm: "neural-adb-lookahead-ts", Comparator: "neural-adb-ts-randctx", Repair: true},
	{Algorithm: "neural-adb-tsctx-ucb", Comparator: "neural-adb-ucb-randctx", Repair: true},
	{Algorithm: "neural-adb-tsctx-ts", Comparator: "neural-adb-ts-randctx", Repair: true},
	// Not a repair of the context rule but a different learner (ours,
	// algorithms/plus_doc.go), here for its calibration against the same
	// comparator; its own claims are 9a–9e.
	{Algorithm: "neural-adb-plus", Comparator: "neural-adb-ucb-randctx"},
	{Algorithm: "neural-adb-ucb-randctx"},
	{Algorithm: "neural-adb-ts-randctx"},
}

// LockonReadings are the readings of the sensitivity grid; the first is the
// default configuration.
var LockonReadings = []Reading{
	{Name: "default (mirrored init, κ = ν = 1)"},
	{Name: "init=he", Set: [][2]string{{"init", "he"}}},
	{Name: "init=uniform (PyTorch)", Set: [][2]string{{"init", "uniform"}}},
	{Name: "init=gaussian N(0,1) (the relative)", Set: [][2]string{{"init", "gaussian"}}},
	{Name: "init-scale=0.25", Set: [][2]string{{"init-scale", "0.25"}}},
	{Name: "init-scale=4", Set: [][2]string{{"init-scale", "4"}}},
	{Name: "kappa=0.1", Set: [][2]string{{"kappa", "0.1"}}},
	{Name: "kappa=10", Set: [][2]string{{"kappa", "10"}}},
	{Name: "nu=0.1", Set: [][2]string{{"nu", "0.1"}}},
	{Name: "nu=10", Set: [][2]string{{"nu", "10"}}},
	{Name: "nu=100", Set: [][2]string{{"nu", "100"}}},
	{Name: "sigma-width=twice", Set: [][2]string{{"sigma-width", "twice"}}},
	{Name: "reset=true (retrain from θ0)", Set: [][2]string{{"reset", "true"}}},
	{Name: "feature-norm=unit", Set: [][2]string{{"feature-norm", "unit"}}},
}

// PaperLockon is the study at the paper's scale: Square and Sine, d = 20,
// K = 10, 300 contexts, w = 50, T = 1000, 10 seeds.
func PaperLockon() LockonStudy {
	return LockonStudy{
		Name: "paper", Problems: []string{"square", "sine"}, Problem: experiments.DefaultProblem(), Config: algorithms.Default(),
		Seeds: 10, T: 1000, Every: 50, Rules: LockonRules,
		Readings: LockonReadings, ReadingSeeds: 10, ReadingRule: "neural-adb-ucb", ReadingRandom: "neural-adb-ucb-randctx",
	}
}

// QuickLockon is a smoke-test scale (minutes on one core): 100 contexts,
// width 20, T = 300, 3 seeds, three readings.
func QuickLockon() LockonStudy {
	s := PaperLockon()
	s.Name = "quick"
	s.Problem.Contexts = 100
	s.Config.Width = 20
	s.Seeds, s.T, s.Every = 3, 300, 50
	s.Readings = []Reading{LockonReadings[0], LockonReadings[3], LockonReadings[10]}
	s.ReadingSeeds = 2
	return s
}

// spec returns the run of algorithm on problem with seed.
func (s LockonStudy) spec(algorithm, problem string, cfg algorithms.Config, seed int) experiments.Spec {
	ps := s.Problem
	ps.Name = problem
	return experiments.Spec{Algorithm: algorithm, Problem: ps, Config: cfg, T: s.T, Every: s.Every, Seed: uint64(seed)}
}

// RunCalibrated runs spec on its problem with the calibration columns
// (CalibrationColumns, ν = spec.Config.Nu) added to every checkpoint.
func RunCalibrated(ctx context.Context, spec experiments.Spec) (*experiments.Result, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	prob, err := spec.Problem.Build(spec.Seed)
	if err != nil {
		return nil, err
	}
	return experiments.RunProblem(ctx, spec, WithCalibration(prob, spec.Config.Nu), nil)
}

// RunAll executes run on every spec with workers goroutines (GOMAXPROCS if
// workers ≤ 0) and returns the results in the order of specs. Each run is
// deterministic in its Spec, so the results do not depend on workers. progress
// (if not nil) is called after each run from one goroutine at a time.
func RunAll(ctx context.Context, specs []experiments.Spec, workers int, run func(context.Context, experiments.Spec) (*experiments.Result, error), progress func(done, total int, s experiments.Spec)) ([]*experiments.Result, error) {
	out := make([]*experiments.Result, len(specs))
	err := forEach(ctx, specs, workers, func(i int) (err error) {
		out[i], err = run(ctx, specs[i])
		return err
	}, progress)
	return out, err
}

// forEach calls do(i) for every spec index on workers goroutines and returns
// the context's error or that of the first spec (in order) that failed,
// naming the spec.
func forEach(ctx context.Context, specs []experiments.Spec, workers int, do func(i int) error, progress func(done, total int, s experiments.Spec)) error {
	var prog func(done, i int)
	if progress != nil {
		prog = func(done, i int) { progress(done, len(specs), specs[i]) }
	}
	return par.ForEach(ctx, len(specs), workers, func(i int) error {
		if err := do(i); err != nil {
			return fmt.Errorf("%s on %s, seed %d: %w", specs[i].Algorithm, specs[i].Problem.Name, specs[i].Seed, err)
		}
		return nil
	}, prog)
}
