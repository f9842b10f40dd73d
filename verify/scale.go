package verify

import (
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/sweep"
)

// Scale is the size at which the claims are tested: the figures' scale, so
// that the runs of a claim are runs of the figures (sweep.FigureSpecs) and a
// filled figure cache makes "nadb verify -scale paper" cheap
// (TestPaperClaimsUseFigureRuns pins it).
type Scale = sweep.Scale

// The scales of the claims table: the paper's (sweep.Paper) and the reduced
// one of "go test ./verify" (sweep.Reduced).
var (
	Paper   = sweep.Paper
	Reduced = sweep.Reduced
)

// spec is the main setting at scale sc for one algorithm and problem.
func spec(sc Scale, algo, problem string) experiments.Spec {
	s := sweep.Base(sc, algo)
	s.Problem.Name = problem
	return s
}
