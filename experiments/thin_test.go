package experiments_test

import (
	"context"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	. "github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/internal/runtest"
	_ "github.com/neural-adb/nadb/experiments/realdata" // cems, shuttle
)

// TestThinIsTheRun: every learner, on a fixed pool, in the fresh-context
// reading, on both real data sets and as a passive twin, gives with
// checkpoint period 10 exactly what its run with period 5 gives at those
// rounds (T = 57, so the last checkpoint is off both grids). Package sweep
// relies on it to compute such runs once.
func TestThinIsTheRun(t *testing.T) {
	cfg := algorithms.Default()
	cfg.Width = 8
	passive := cfg
	passive.Collect = algorithms.CollectPassive
	problems := []struct {
		name string
		p    ProblemSpec
		cfg  algorithms.Config
	}{
		{"square", ProblemSpec{Name: "square", Dim: 3, Arms: 4, Contexts: 12, Theta: "sphere"}, cfg},
		{"sine passive", ProblemSpec{Name: "sine", Dim: 3, Arms: 4, Contexts: 12, Theta: "sphere"}, passive},
		{"cosine fresh", ProblemSpec{Name: "cosine", Dim: 3, Arms: 4, Contexts: 12, Theta: "sphere", Candidates: 3}, cfg},
		{"cems", ProblemSpec{Name: "cems", Contexts: 20}, cfg},
		{"shuttle", ProblemSpec{Name: "shuttle", Contexts: 20, Holdout: 40}, cfg},
	}
	for _, name := range algorithms.Names() {
		for _, pr := range problems {
			t.Run(name+"/"+pr.name, func(t *testing.T) {
				fine := Spec{Algorithm: name, Problem: pr.p, Config: pr.cfg, T: 57, Every: 5, Seed: 3}
				coarse := fine
				coarse.Every = 10
				if !Thins(fine, coarse) || Thins(coarse, fine) {
					t.Fatalf("Thins(5 → 10) = %v, Thins(10 → 5) = %v; want true, false", Thins(fine, coarse), Thins(coarse, fine))
				}
				res, err := Run(context.Background(), fine, nil)
				if err != nil {
					if _, err2 := Run(context.Background(), coarse, nil); err2 == nil || err2.Error() != err.Error() {
						t.Fatalf("period 5: %v; period 10: %v", err, err2)
					}
					t.Skipf("not run on this problem: %v", err)
				}
				want, err := Run(context.Background(), coarse, nil)
				if err != nil {
					t.Fatal(err)
				}
				got, err := Thin(res, coarse)
				if err != nil {
					t.Fatal(err)
				}
				if g, w := runtest.ResultCSV(t, got), runtest.ResultCSV(t, want); g != w {
					t.Errorf("the run with period 5, thinned to 10:\n%s\nthe run with period 10:\n%s", g, w)
				}
			})
		}
	}
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
// other's bytes on a fixed pool, in the fresh-context reading and on both
// real data sets; and the comparison tells different models apart.
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
	run := func(t *testing.T, algo string, p ProblemSpec) string {
		return runtest.CSV(t, Spec{Algorithm: algo, Problem: p, Config: cfg, T: 57, Every: 5, Seed: 3})
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
			if g, w := run(t, name, p), run(t, a.PassiveAs, p); g != w {
				t.Errorf("%s on %s, passive:\n%s\n%s, passive:\n%s", name, p.Name, g, a.PassiveAs, w)
			}
		}
	}
	if declared == 0 {
		t.Fatal("no learner declares its passive twin")
	}
	if run(t, "neural-adb-plus", problems[0]) == run(t, "neural-adb-ucb", problems[0]) {
		t.Error("the passive twins of neural-adb-plus and neural-adb-ucb gave the same bytes: the comparison cannot tell models apart")
	}
}
