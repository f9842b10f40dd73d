package experiments

import (
	"errors"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/memlimit"
)

// TestCheckMemory: a run too large for the limit is refused with a
// FieldError naming the spec's field to reduce (K, d, width, T, contexts,
// candidates, or the pool of a problem read from files: the size that drives
// the largest part), and the paper's setting passes.
func TestCheckMemory(t *testing.T) {
	lim := memlimit.Limit{Bytes: 8e9, Source: "test"}
	spec := func(algo string, mod func(*Spec)) Spec {
		s := Spec{Algorithm: algo, Problem: DefaultProblem(), Config: algorithms.Default(), T: 1000, Every: 50, Seed: 1}
		mod(&s)
		return s
	}
	for _, tc := range []struct {
		spec  Spec
		field string
	}{
		{spec("neural-adb-ucb", func(s *Spec) {}), ""},
		{spec("neural-adb-ucb-randctx", func(s *Spec) { s.Problem.Contexts, s.Problem.Arms, s.Problem.Dim = 10_000, 26, 50 }), ""},
		{spec("neural-adb-ucb", func(s *Spec) { s.Problem.Arms = 100_000 }), "K"},
		{spec("neural-adb-ucb", func(s *Spec) { s.Config.Width = 1_000_000 }), "width"},
		{spec("neural-adb-ucb-randctx", func(s *Spec) { s.Problem.Contexts = 10_000; s.T = 100_000 }), "T"},
		{spec("random", func(s *Spec) { s.Problem.Contexts = 100_000_000 }), "contexts"},
		{spec("neural-adb-ts", func(s *Spec) { s.Problem.Candidates = 50; s.T = 200_000 }), "T"},
		// The pool's features grow with contexts, K and d alike: the size
		// named is the one blown up.
		{spec("random", func(s *Spec) { s.Problem.Arms = 100_000_000 }), "K"},
		{spec("random", func(s *Spec) { s.Problem.Dim = 100_000_000 }), "d"},
		{spec("random", func(s *Spec) { s.Problem.Candidates = 100_000_000 }), "candidates"},
		{spec("random", func(s *Spec) { s.Problem.Candidates = 5; s.Problem.Arms = 100_000_000 }), "K"},
		{spec("random", func(s *Spec) { s.Problem.Candidates = 5; s.T = 1_000_000_000 }), "T"},
	} {
		shape, ok := tc.spec.SyntheticShape()
		if !ok {
			t.Fatalf("%+v is not synthetic", tc.spec.Problem)
		}
		err := CheckMemory(tc.spec, shape, lim)
		if tc.field == "" {
			if err != nil {
				t.Errorf("%s on %+v: %v", tc.spec.Algorithm, tc.spec.Problem, err)
			}
			continue
		}
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || !strings.Contains(fe.Msg, "make it smaller") {
			t.Errorf("%s on %+v (width %d, T %d): %v, want a FieldError for %s", tc.spec.Algorithm, tc.spec.Problem, tc.spec.Config.Width, tc.spec.T, err, tc.field)
		}
	}
	// A problem read from files names its pool.
	s := spec("neural-adb-ucb", func(s *Spec) { s.Problem = ProblemSpec{Name: "pool", Pool: "p.csv"} })
	err := CheckMemory(s, algorithms.Shape{Contexts: 3, Arms: 100_000, Dim: 2}, lim)
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "pool" {
		t.Errorf("pool problem: %v, want a FieldError for pool", err)
	}
	if err := CheckMemory(s, algorithms.Shape{Contexts: 3, Arms: 100_000, Dim: 2}, memlimit.Limit{}); err != nil {
		t.Errorf("no limit: %v", err)
	}
}
