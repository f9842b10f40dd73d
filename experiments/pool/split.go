package pool

import (
	"fmt"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/csvtab"
	"github.com/neural-adb/nadb/internal/poolfile"
)

// NewPoolProblem builds the problem of a parsed pool file with, optionally,
// recorded answers (ans may be nil; then pf needs a utility column). Of p it
// reads Missing (the missing-answer rule, "" for mask), Holdout (contexts
// held out, experiments.SplitSizes; 0: none) and Answers (the answers file,
// named in errors). The split uses the stream (seed, 101), Bradley–Terry
// draws and coins the stream (seed, 102).
func NewPoolProblem(pf *poolfile.PoolFile, ans *poolfile.Answers, p experiments.ProblemSpec, seed uint64) (*experiments.Problem, error) {
	if ans != nil && p.Missing == experiments.MissingError {
		if n, a := ans.Missing(); n > 0 {
			return nil, &csvtab.Error{File: p.Answers, Msg: fmt.Sprintf("no recorded answer for %s (and %d other pairs); with the missing-answer rule \"error\" every arm pair of every context needs at least one answer",
				pf.Describe(a.Context, a.Arm1, a.Arm2), n-1)}
		}
	}
	hold, train, err := experiments.SplitSizes(p.Holdout, 0, 0, pf.Pool.Contexts, "context")
	if err != nil {
		return nil, err
	}
	setup := Setup{Name: "pool", Missing: p.Missing, Seed: seed, Train: part(pf, ans, nil)}
	if hold > 0 {
		trainIdx, test := experiments.Split(pf.Pool.Contexts, hold, train, seed)
		setup.Train = part(pf, ans, trainIdx)
		t := part(pf, ans, test)
		setup.Test = &t
	}
	return NewProblem(setup)
}

// part returns the contexts ctxs of pf (nil: all of them, sharing pf's
// slices), renumbered from 0, with their answers (ans may be nil). Its pool
// is a view of pf's (algorithms.Pool.View): the features are not copied.
func part(pf *poolfile.PoolFile, ans *poolfile.Answers, ctxs []int) Part {
	if ctxs == nil {
		return Part{Pool: pf.Pool, Contexts: pf.Contexts, IDs: pf.Arms, Utility: pf.Utility, Answers: ans}
	}
	p := pf.Pool
	K := p.Arms
	out := Part{Pool: p.View(ctxs)}
	for _, c := range ctxs {
		out.Contexts = append(out.Contexts, pf.Contexts[c])
		out.IDs = append(out.IDs, pf.Arms[c*K:(c+1)*K]...)
		if pf.Utility != nil {
			out.Utility = append(out.Utility, pf.Utility[c*K:(c+1)*K]...)
		}
	}
	if ans != nil {
		out.Answers = ans.Subset(ctxs)
	}
	return out
}
