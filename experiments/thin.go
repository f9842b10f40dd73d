package experiments

import (
	"fmt"

	"github.com/neural-adb/nadb/algorithms"
)

// A checkpoint only observes the run: it reads the learner's policy and
// model (Learner.Policy, Scorer, the evaluators) and changes nothing the
// learner does afterwards (the Learner contract, while no more than
// algorithms.MaxIdle answers pass between checks). So a run's queries,
// answers and checkpoint values at a round t do not depend on Spec.Every,
// which only chooses the rounds that are reported, and a run with period e
// holds every checkpoint of the same run with period k·e ≤ MaxIdle. Thin reads one off the other, which is how
// package sweep computes such runs once (TestThinIsTheRun runs every
// learner both ways on every kind of problem).

// TrajectoryKey returns the key of the run apart from its checkpoint period:
// Spec.Key of s with Every set to zero and, for a passive twin
// (algorithms.CollectPassive), the algorithm whose passive twin it is
// (algorithms.Algorithm.PassiveAs). Runs with the same TrajectoryKey make
// the same queries, receive the same answers and have the same values at
// every round.
func (s Spec) TrajectoryKey() string {
	s.Every = 0
	if s.Config.Collect.Rule() == algorithms.CollectPassive {
		if a, err := algorithms.Lookup(s.Algorithm); err == nil && a.PassiveAs != "" {
			s.Algorithm = a.PassiveAs
		}
	}
	return s.Key()
}

// Thins reports whether the result of the run fine contains that of coarse:
// the two are the same run apart from the checkpoint period (and, for
// passive twins, the learner: TrajectoryKey), coarse's period is a multiple
// of fine's, and coarse checks its learner at least every
// algorithms.MaxIdle answers (beyond that a learner fed answers without a
// call may put off work until the next one, which a check then is).
func Thins(fine, coarse Spec) bool {
	return fine.Every > 0 && coarse.Every > 0 && coarse.Every%fine.Every == 0 &&
		min(coarse.Every, coarse.T) <= algorithms.MaxIdle && fine.TrajectoryKey() == coarse.TrajectoryKey()
}

// Thin returns the result the run coarse gives, read off res, the result of
// a run that Thins to it: the checkpoints at t = 0, at the multiples of
// coarse.Every and at T. Their Elapsed times are those of res.
func Thin(res *Result, coarse Spec) (*Result, error) {
	if !Thins(res.Spec, coarse) {
		return nil, fmt.Errorf("experiments: the run of %s with checkpoint period %d does not hold the run of %s with period %d (another run, or a period that is no multiple of its own)", res.Spec.Algorithm, res.Spec.Every, coarse.Algorithm, coarse.Every)
	}
	out := &Result{Spec: coarse, Counts: append([]int(nil), res.Counts...), ExtraColumns: append([]string(nil), res.ExtraColumns...)}
	for _, cp := range res.Checkpoints {
		if cp.T%coarse.Every == 0 || cp.T == coarse.T {
			cp.Extra = append([]float64(nil), cp.Extra...)
			out.Checkpoints = append(out.Checkpoints, cp)
		}
	}
	if want := (coarse.T+coarse.Every-1)/coarse.Every + 1; len(out.Checkpoints) != want {
		return nil, fmt.Errorf("experiments: the run with checkpoint period %d has %d of the %d checkpoints of period %d", res.Spec.Every, len(out.Checkpoints), want, coarse.Every)
	}
	return out, nil
}
