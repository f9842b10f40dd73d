package verify

import (
	"testing"

	"github.com/neural-adb/nadb/experiments/sweep"
)

// TestPaperClaimsUseFigureRuns pins that every run a paper-scale claim needs
// is a run of the figures (sweep.FigureSpecs at sweep.Paper), so that "make
// figures" fills the cache "nadb verify -scale paper" reads, and the grids of
// the claims cannot drift from the figures'. The one exception is a claim with
// its own seed count (Claim.Seeds): its seeds beyond the figures' are its own
// runs, made by "make verify".
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
		sc := c.ScaleFor(Paper)
		if sc.Seeds < Paper.Seeds {
			t.Errorf("claim %s runs %d seeds at paper scale, fewer than the figures' %d", c.ID, sc.Seeds, Paper.Seeds)
		}
		missing := 0
		for _, s := range c.Runs(sc) {
			if s.Seed > uint64(Paper.Seeds) {
				continue // the claim's own seeds
			}
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

// TestRepairClaimsUse30Seeds: the claims about the repaired context rule are
// decided with 30 seeds at the paper's scale (10 seeds gave a Square
// improvement that 30 did not confirm, figures/lockon/seeds30), and with the
// scale's own seeds elsewhere.
func TestRepairClaimsUse30Seeds(t *testing.T) {
	for _, c := range Table() {
		if c.ID != "8b" && c.ID != "8c" {
			continue
		}
		if n := c.ScaleFor(Paper).Seeds; n != 30 {
			t.Errorf("claim %s: %d seeds at paper scale, want 30", c.ID, n)
		}
		if n := c.ScaleFor(Reduced).Seeds; n != Reduced.Seeds {
			t.Errorf("claim %s: %d seeds at reduced scale, want the scale's %d", c.ID, n, Reduced.Seeds)
		}
		runs := c.Runs(c.ScaleFor(Paper))
		if s := runs[len(runs)-1]; s.Seed != 30 {
			t.Errorf("claim %s: last paper-scale run has seed %d, want 30", c.ID, s.Seed)
		}
	}
}
