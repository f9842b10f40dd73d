package experiments

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Held-out contexts (ProblemSpec.Holdout): a problem built from data (a pool
// of one's own, CEMSChoice, Shuttle) can hold contexts out of the learner's
// pool and score the learner's model on them. The split is drawn from the
// stream (seed, StreamProblem), so the seeds 1, 2, … are independent random
// splits and every algorithm run with one seed faces the same split.

// FieldError is an invalid value of a ProblemSpec field, reported by the
// package Pkg. Field is the field's JSON name, which is also the name of the
// nadb run flag that sets it, so a command line can say which flag to fix.
type FieldError struct {
	Pkg   string // the reporting package: experiments, pool, realdata
	Field string // JSON name of the ProblemSpec field
	Msg   string
}

func (e *FieldError) Error() string { return e.Pkg + ": " + e.Field + ": " + e.Msg }

func holdoutError(format string, args ...any) error {
	return &FieldError{Pkg: "experiments", Field: "holdout", Msg: fmt.Sprintf(format, args...)}
}

// CheckHoldout reports a value of ProblemSpec.Holdout that is neither 0 (the
// problem's default), a fraction in (0, 1), nor a whole count ≥ 1. Whether
// the split leaves contexts on both sides is known only once the data are
// read (SplitSizes).
func CheckHoldout(h float64) error {
	switch {
	case math.IsNaN(h) || math.IsInf(h, 0):
		return holdoutError("%v is not a number of contexts: want a fraction in (0, 1) or a count ≥ 1 (0: the problem's default)", h)
	case h < 0:
		return holdoutError("%v is negative: want a fraction in (0, 1) or a count ≥ 1 (0: the problem's default)", h)
	case h > 1 && h != math.Trunc(h):
		return holdoutError("%v is neither a fraction in (0, 1) nor a whole count", h)
	case h > 1<<40:
		return holdoutError("%v contexts is more than any data set holds", h)
	}
	return nil
}

// SplitSizes resolves the sizes of a split of n contexts (unit names one of
// them in messages: "context", "student", "sample"): holdout as in
// ProblemSpec.Holdout (0: def, itself 0 for no split; a fraction in (0, 1) is
// rounded to the nearest count) and train training contexts (0: all that are
// not held out). It reports a split that leaves no training or no held-out
// context, or asks for more contexts than there are, as a FieldError naming
// holdout (or contexts, for the training count).
func SplitSizes(holdout float64, def, train, n int, unit string) (hold, trainN int, err error) {
	if err := CheckHoldout(holdout); err != nil {
		return 0, 0, err
	}
	if train < 0 {
		return 0, 0, &FieldError{Pkg: "experiments", Field: "contexts", Msg: fmt.Sprintf("%d training %ss: want ≥ 0 (0: all that are not held out)", train, unit)}
	}
	switch {
	case holdout == 0:
		hold = def
	case holdout < 1:
		hold = int(math.Round(holdout * float64(n)))
		if hold == 0 {
			return 0, 0, holdoutError("%v of %d %ss rounds to no held-out %s", holdout, n, unit, unit)
		}
	default:
		hold = int(holdout)
	}
	switch {
	case hold > n:
		return 0, 0, holdoutError("%d held-out %ss, but there are only %d", hold, unit, n)
	case hold == n:
		return 0, 0, holdoutError("%d held-out %ss of %d leave no training %s", hold, unit, n, unit)
	}
	trainN = train
	if trainN == 0 {
		trainN = n - hold
	}
	if hold+trainN > n {
		return 0, 0, &FieldError{Pkg: "experiments", Field: "contexts", Msg: fmt.Sprintf("%d training %ss and %d held-out (holdout) exceed the %d there are", trainN, unit, hold, n)}
	}
	return hold, trainN, nil
}

// Split draws the split of n contexts into train training and hold held-out
// ones (disjoint, each in increasing order) from the stream (seed,
// StreamProblem): a uniform random permutation, the first hold of it held
// out and the next train for training. It panics on sizes SplitSizes would
// refuse.
func Split(n, hold, train int, seed uint64) (trainIdx, testIdx []int) {
	if hold < 0 || train < 0 || hold+train > n {
		panic(fmt.Sprintf("experiments: split of %d contexts into %d training and %d held-out", n, train, hold))
	}
	perm := rand.New(rand.NewPCG(seed, StreamProblem)).Perm(n)
	testIdx, trainIdx = perm[:hold:hold], perm[hold:hold+train]
	slices.Sort(testIdx)
	slices.Sort(trainIdx)
	return trainIdx, testIdx
}
