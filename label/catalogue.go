package label

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/neural-adb/nadb/algorithms"
)

// Catalogue is what a session can show: the contexts and, per context, its
// arms, by identifier. Contexts are numbered 0…Contexts()-1 and a context's
// arms 0…len(Arms(c))-1; these indices are the ones of algorithms.Query.
// A Catalogue must not change while a session uses it.
type Catalogue interface {
	Contexts() int
	// Context returns the identifier of context c.
	Context(c int) string
	// Arms returns the identifiers of context c's arms; the caller does not
	// modify the slice.
	Arms(c int) []string
}

// Proposer is the learner side of a session. The session serialises its
// calls: a Proposer need not be safe for concurrent use.
type Proposer interface {
	// Propose returns the next query to show, with the learner's reason for
	// it. The query's context and unordered arm pair must differ from those
	// of every query in exclude (the queries other labellers hold, and the
	// pairs this labeller tied or skipped). ok is false when the proposer
	// has no such query.
	Propose(exclude []algorithms.Query) (q algorithms.Query, r Reason, ok bool)
	// Observe records the answer y to q, which is any valid query of the
	// catalogue, not necessarily one the proposer proposed.
	Observe(q algorithms.Query, y algorithms.Feedback)
	// Summary reports the current policy.
	Summary() Summary
}

// SetProposer is a Proposer that can also show several arms of one context
// at once, for the best-of-k and ranking views (Options.Arms > 2).
type SetProposer interface {
	Proposer
	// ProposeSet returns arms of one context c, at least 2 and at most k,
	// no two of which form a duel in exclude (as for Propose), with the
	// learner's reason; ok is false when there is no such pair.
	ProposeSet(exclude []algorithms.Query, k int) (c int, arms []int, r Reason, ok bool)
}

// Counter is implemented by proposers that count the answers they have
// used, those given before the session included (the summary reports it).
type Counter interface {
	Observed() int
}

// Reason is why a proposer chose a query: its score (for example the
// upper-confidence value or the predicted preference gap) and its
// uncertainty σ. Either is NaN when the proposer has none.
type Reason struct {
	Score, Sigma float64
}

// NoReason is the Reason of a query the proposer did not choose (an undone
// answer shown again) or of a proposer that gives none.
var NoReason = Reason{Score: math.NaN(), Sigma: math.NaN()}

// Summary is a proposer's current policy, one entry per context in order.
type Summary struct {
	Contexts []ContextSummary
}

// ContextSummary is the policy in one context.
type ContextSummary struct {
	// Arm is the policy's arm π(c), or -1 when the proposer has none yet.
	Arm int
	// Scores and Sigmas hold every arm's score and uncertainty; either may
	// be nil, and an entry is NaN when unavailable.
	Scores, Sigmas []float64
	// Queries is how often the context was queried (answers observed).
	Queries int
}

// sameDuel reports whether p and q ask about the same context and unordered
// arm pair.
func sameDuel(p, q algorithms.Query) bool {
	return p.Context == q.Context &&
		(p.Arm1 == q.Arm1 && p.Arm2 == q.Arm2 || p.Arm1 == q.Arm2 && p.Arm2 == q.Arm1)
}

// validSet reports whether arms are two or more distinct arms of context c
// of cat.
func validSet(cat Catalogue, c int, arms []int) error {
	if c < 0 || c >= cat.Contexts() {
		return fmt.Errorf("context %d outside [0, %d)", c, cat.Contexts())
	}
	k := len(cat.Arms(c))
	if len(arms) < 2 {
		return fmt.Errorf("%d arms; a query shows at least 2", len(arms))
	}
	for i, a := range arms {
		if a < 0 || a >= k {
			return fmt.Errorf("arm %d outside [0, %d) in context %d", a, k, c)
		}
		if slices.Contains(arms[:i], a) {
			return fmt.Errorf("arm %d shown twice", a)
		}
	}
	return nil
}

// Table is a Catalogue held in memory.
type Table struct {
	IDs    []string   // context identifiers
	ArmIDs [][]string // per context, its arms' identifiers
}

// NewTable returns a catalogue of the given contexts and arms, checking that
// identifiers are non-empty and unique (arms within their context) and that
// every context has at least two arms.
func NewTable(contexts []string, arms [][]string) (*Table, error) {
	if len(arms) != len(contexts) {
		return nil, fmt.Errorf("label: catalogue has %d contexts but arms for %d", len(contexts), len(arms))
	}
	t := &Table{IDs: contexts, ArmIDs: arms}
	if _, err := newIndex(t); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *Table) Contexts() int        { return len(t.IDs) }
func (t *Table) Context(c int) string { return t.IDs[c] }
func (t *Table) Arms(c int) []string  { return t.ArmIDs[c] }

// index maps identifiers of any Catalogue back to indices.
type index struct {
	cat     Catalogue
	context map[string]int
	arm     []map[string]int
}

func newIndex(cat Catalogue) (*index, error) {
	n := cat.Contexts()
	if n <= 0 {
		return nil, errors.New("label: catalogue has no context")
	}
	ix := &index{cat: cat, context: make(map[string]int, n), arm: make([]map[string]int, n)}
	for c := range n {
		id := cat.Context(c)
		if _, dup := ix.context[id]; dup || id == "" {
			return nil, fmt.Errorf("label: catalogue context %d identifier %q is empty or repeated", c, id)
		}
		ix.context[id] = c
		arms := cat.Arms(c)
		if len(arms) < 2 {
			return nil, fmt.Errorf("label: catalogue context %q has %d arms; need at least 2", id, len(arms))
		}
		ix.arm[c] = make(map[string]int, len(arms))
		for a, aid := range arms {
			if _, dup := ix.arm[c][aid]; dup || aid == "" {
				return nil, fmt.Errorf("label: catalogue context %q arm %d identifier %q is empty or repeated", id, a, aid)
			}
			ix.arm[c][aid] = a
		}
	}
	return ix, nil
}

// duel returns the query of the given identifiers, or an error naming the
// identifier that is not in the catalogue.
func (ix *index) duel(context, arm1, arm2 string) (algorithms.Query, error) {
	c, ok := ix.context[context]
	if !ok {
		return algorithms.Query{}, fmt.Errorf("context %q is not in the catalogue", context)
	}
	a1, ok := ix.arm[c][arm1]
	if !ok {
		return algorithms.Query{}, fmt.Errorf("arm %q is not an arm of context %q", arm1, context)
	}
	a2, ok := ix.arm[c][arm2]
	if !ok {
		return algorithms.Query{}, fmt.Errorf("arm %q is not an arm of context %q", arm2, context)
	}
	return algorithms.Query{Context: c, Arm1: a1, Arm2: a2}, nil
}
