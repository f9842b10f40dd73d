package verify

import (
	"testing"

	"github.com/neural-adb/nadb/experiments/sweep"
)

// TestPaperClaimsUseFigureRuns pins that every run a paper-scale claim needs
// is a run of the figures (sweep.FigureSpecs at sweep.Paper), so that "make
// figures" fills the cache "nadb verify -scale paper" reads, and the grids of
// the claims cannot drift from the figures'.
func TestPaperClaimsUseFigureRuns(t *testing.T) {
	figs, err := sweep.Figures(sweep.Paper, nil)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, f := range figs {
		for _, j := range f.Jobs() {
			have[j.Spec.Key()] = true
		}
	}
	for _, c := range Table() {
		if c.Runs == nil {
			continue
		}
		missing := 0
		for _, s := range c.Runs(Paper) {
			if !have[s.Key()] {
				if missing == 0 {
					t.Errorf("claim %s needs %s on %s (seed %d), which no figure runs", c.ID, s.Algorithm, s.Problem.Name, s.Seed)
				}
				missing++
			}
		}
		if missing > 1 {
			t.Errorf("claim %s: %d runs in all are not figure runs", c.ID, missing)
		}
	}
}
