package experiments_test

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	. "github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/internal/runtest"
	_ "github.com/neural-adb/nadb/experiments/realdata" // cems, shuttle
)

// TestThinIsTheRun: every learner, on a fixed pool, in the fresh-context
// reading, on both real data sets and as a passive twin, gives with
// checkpoint period 9 exactly what its run with period 3 gives at those
// rounds (T = 57: neither period divides the retraining period, 20, and the
// last checkpoint is off both grids), and its model then scores the pool
// with the same bits; and as a passive twin, whose Select is never called,
// the same with the longest period Thins allows (algorithms.MaxIdle) and
// half of it. (With twice MaxIdle, neural-adb-target's passive twin puts off
// retraining, as the Learner contract allows, and its model differs.)
// Package sweep relies on this to compute such runs once.
func TestThinIsTheRun(t *testing.T) {
	cfg := algorithms.Default()
	cfg.Width = 8
	passive := cfg
	passive.Collect = algorithms.CollectPassive
	problems := []struct {
		name string
		p    ProblemSpec
		cfg  algorithms.Config
		long bool
	}{
		{"square", ProblemSpec{Name: "square", Dim: 3, Arms: 4, Contexts: 12, Theta: "sphere"}, cfg, false},
		{"sine passive", ProblemSpec{Name: "sine", Dim: 3, Arms: 4, Contexts: 12, Theta: "sphere"}, passive, false},
		{"cosine fresh", ProblemSpec{Name: "cosine", Dim: 3, Arms: 4, Contexts: 12, Theta: "sphere", Candidates: 3}, cfg, false},
		{"cems", ProblemSpec{Name: "cems", Contexts: 20}, cfg, false},
		{"shuttle", ProblemSpec{Name: "shuttle", Contexts: 20, Holdout: 40}, cfg, false},
		{"square passive, long", ProblemSpec{Name: "square", Dim: 3, Arms: 4, Contexts: 12, Theta: "sphere"}, passive, true},
	}
	for _, name := range algorithms.Names() {
		for _, pr := range problems {
			t.Run(name+"/"+pr.name, func(t *testing.T) {
				fine := Spec{Algorithm: name, Problem: pr.p, Config: pr.cfg, T: 57, Every: 3, Seed: 3}
				coarse := fine
				coarse.Every = 9
				if pr.long {
					fine.T, fine.Every = algorithms.MaxIdle+100, algorithms.MaxIdle/2
					coarse.T, coarse.Every = fine.T, algorithms.MaxIdle
				}
				if !Thins(fine, coarse) || Thins(coarse, fine) {
					t.Fatalf("Thins(%d → %d) = %v, Thins(%d → %d) = %v; want true, false", fine.Every, coarse.Every, Thins(fine, coarse), coarse.Every, fine.Every, Thins(coarse, fine))
				}
				res, fineScores, err := runScored(fine)
				if err != nil {
					if _, _, err2 := runScored(coarse); err2 == nil || err2.Error() != err.Error() {
						t.Fatalf("period %d: %v; period %d: %v", fine.Every, err, coarse.Every, err2)
					}
					t.Skipf("not run on this problem: %v", err)
				}
				want, wantScores, err := runScored(coarse)
				if err != nil {
					t.Fatal(err)
				}
				got, err := Thin(res, coarse)
				if err != nil {
					t.Fatal(err)
				}
				if !sameBits(fineScores, wantScores) {
					t.Errorf("after the runs with periods %d and %d, the models score the pool differently", fine.Every, coarse.Every)
				}
				if g, w := runtest.ResultCSV(t, got), runtest.ResultCSV(t, want); g != w {
					t.Errorf("the run with period %d, thinned to %d:\n%s\nthe run with period %d:\n%s", fine.Every, coarse.Every, g, coarse.Every, w)
				}
			})
		}
	}
}

// runScored runs spec and returns its result and, for a learner with a
// model (algorithms.Scorer), the model's scores of every pool row at the end,
// which tell apart models that the policy-based metrics may not.
func runScored(spec Spec) (*Result, []float64, error) {
	prob, err := spec.Problem.Build(spec.Seed)
	if err != nil {
		return nil, nil, err
	}
	l, err := algorithms.New(spec.Algorithm, algorithms.Env{Pool: prob.Pool, Config: spec.Config, Seed: spec.Seed})
	if err != nil {
		return nil, nil, err
	}
	res, err := RunLearner(context.Background(), spec, prob, l, nil)
	if err != nil {
		return nil, nil, err
	}
	scores, _ := PoolScores(nil, l, prob.Pool)
	return res, scores, nil
}

// sameBits reports whether a and b hold the same float64 bits.
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// TestThinRefuses: Thin reads a run only off the same run with a period
// that divides its own.
func TestThinRefuses(t *testing.T) {
	spec := Spec{Algorithm: "random", Problem: ProblemSpec{Name: "square", Dim: 3, Arms: 4, Contexts: 12, Theta: "sphere"}, Config: algorithms.Default(), T: 20, Every: 4, Seed: 1}
	res, err := Run(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, edit := range []func(*Spec){
		func(s *Spec) { s.Every = 6 }, // not a multiple
		func(s *Spec) { s.Every = 2 }, // finer
		func(s *Spec) { s.Every = 8; s.Seed = 2 },
		func(s *Spec) { s.Every = 8; s.T = 40 },
		func(s *Spec) { s.Every = 8; s.Algorithm = "apo" },
	} {
		c := spec
		edit(&c)
		if _, err := Thin(res, c); err == nil {
			t.Errorf("Thin of period 4 to %+v: want an error", c)
		}
	}
	// More than MaxIdle answers between checks: not read off a finer run.
	fine := spec
	fine.T, fine.Every = 3*algorithms.MaxIdle, algorithms.MaxIdle/2
	long, longer := fine, fine
	long.Every, longer.Every = algorithms.MaxIdle, 2*algorithms.MaxIdle
	if !Thins(fine, long) || Thins(fine, longer) {
		t.Errorf("Thins to period MaxIdle = %v, to 2·MaxIdle = %v; want true, false", Thins(fine, long), Thins(fine, longer))
	}
	c := spec
	c.Every = 8
	got, err := Thin(res, c)
	if err != nil {
		t.Fatal(err)
	}
	var ts []int
	for _, cp := range got.Checkpoints {
		ts = append(ts, cp.T)
	}
	if want := []int{0, 8, 16, 20}; len(ts) != len(want) || ts[0] != 0 || ts[1] != 8 || ts[2] != 16 || ts[3] != 20 {
		t.Errorf("checkpoints at %v, want %v", ts, want)
	}
	res.Checkpoints = res.Checkpoints[:len(res.Checkpoints)-1] // a result cut short
	if _, err := Thin(res, c); err == nil {
		t.Error("Thin of a result without its last checkpoint: want an error")
	}
}

// TestPassiveAs: every learner that declares its passive twin to be another
// learner's (algorithms.Algorithm.PassiveAs) gives, as a passive twin, the
// other's bytes, and a model that scores the pool with the same bits, on a
// fixed pool, in the fresh-context reading and on both real data sets; and
// the comparison tells different models apart.
func TestPassiveAs(t *testing.T) {
	cfg := algorithms.Default()
	cfg.Width = 8
	cfg.Collect = algorithms.CollectPassive
	problems := []ProblemSpec{
		{Name: "square", Dim: 3, Arms: 4, Contexts: 12, Theta: "sphere"},
		{Name: "cosine", Dim: 3, Arms: 4, Contexts: 12, Theta: "sphere", Candidates: 3},
		{Name: "cems", Contexts: 20},
		{Name: "shuttle", Contexts: 20, Holdout: 40},
	}
	run := func(t *testing.T, algo string, p ProblemSpec) (string, []float64) {
		t.Helper()
		res, scores, err := runScored(Spec{Algorithm: algo, Problem: p, Config: cfg, T: 57, Every: 5, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		return runtest.ResultCSV(t, res), scores
	}
	declared := 0
	for _, name := range algorithms.Names() {
		a, _ := algorithms.Lookup(name)
		if a.PassiveAs == "" {
			continue
		}
		declared++
		as, err := algorithms.Lookup(a.PassiveAs)
		if err != nil || as.PassiveAs != "" {
			t.Fatalf("%s: passive as %q, which is not a learner that declares none (%v)", name, a.PassiveAs, err)
		}
		for _, p := range problems {
			s := Spec{Algorithm: name, Problem: p, Config: cfg, T: 57, Every: 5, Seed: 3}
			o := s
			o.Algorithm = a.PassiveAs
			if s.TrajectoryKey() != o.TrajectoryKey() || s.Key() == o.Key() {
				t.Fatalf("%s and %s: passive twins should share the trajectory key, not the key", name, a.PassiveAs)
			}
			g, gs := run(t, name, p)
			w, ws := run(t, a.PassiveAs, p)
			if g != w {
				t.Errorf("%s on %s, passive:\n%s\n%s, passive:\n%s", name, p.Name, g, a.PassiveAs, w)
			}
			if !sameBits(gs, ws) {
				t.Errorf("%s and %s on %s, passive: the models score the pool differently", name, a.PassiveAs, p.Name)
			}
		}
	}
	if declared == 0 {
		t.Fatal("no learner declares its passive twin")
	}
	plus, _ := run(t, "neural-adb-plus", problems[0])
	ucb, _ := run(t, "neural-adb-ucb", problems[0])
	if plus == ucb {
		t.Error("the passive twins of neural-adb-plus and neural-adb-ucb gave the same bytes: the comparison cannot tell models apart")
	}
}
