package experiments

import (
	"context"
	"fmt"

	"github.com/neural-adb/nadb/algorithms"
)

// Hooks choose how the rounds of Loop collect their queries and observe
// them; every field may be nil.
type Hooks struct {
	// Collect chooses each round's query under its rule (the passive twin,
	// random contexts); nil lets the learner choose (its Select).
	Collect *algorithms.Collector
	// Selected is called with the query of round t after it has been checked
	// and before it is answered: the learner's state is still that of
	// round t−1 (the lock-on study reads its confidence state here).
	Selected func(t int, q algorithms.Query)
	// Observed is called after the learner has observed the answer y to q
	// in round t (q as the learner saw it: in the fresh-context reading, the
	// queried context's committed index).
	Observed func(t int, q algorithms.Query, y algorithms.Feedback) error
}

// Loop is the paper's interaction, the one round loop of the project: for
// t = from+1, …, to it asks the learner for a query among those the problem
// offers (Select; or h.Collect chooses it under its rule), checks it against the pool and the offer, has the
// problem's oracle answer it and lets the learner observe the answer. It stops with ctx's error as soon as ctx is done
// (checked every round: a round costs far more than the check), and with the
// first error of a hook. An invalid query is an error naming the round.
func Loop(ctx context.Context, l algorithms.Learner, prob *Problem, from, to int, h Hooks) error {
	for t := from + 1; t <= to; t++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		o := prob.Offer
		if prob.Rounds != nil {
			var err error
			if o, err = prob.Rounds.Begin(t); err != nil {
				return fmt.Errorf("experiments: round %d: %w", t, err)
			}
		}
		q := h.Collect.Select(l, prob.Pool, o)
		if err := o.Check(prob.Pool, q); err != nil {
			return fmt.Errorf("experiments: round %d: invalid %w", t, err)
		}
		if h.Selected != nil {
			h.Selected(t, q)
		}
		y := prob.Oracle.Answer(q)
		if prob.Rounds != nil {
			var err error
			if q, err = prob.Rounds.End(q); err != nil {
				return fmt.Errorf("experiments: round %d: %w", t, err)
			}
		}
		l.Observe(q, y)
		if h.Observed != nil {
			if err := h.Observed(t, q, y); err != nil {
				return err
			}
		}
	}
	return nil
}
