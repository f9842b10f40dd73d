package algorithms

import (
	"math/rand/v2"

	"github.com/neural-adb/nadb/internal/enum"
)

// Collect names who chooses the duels a learner is trained on. It is the
// experimenter's rule around a learner, not part of any learner: the same
// model with CollectPassive is the learner's passive twin, so that comparing
// the two separates what the learner's choice of duels buys from what its
// model buys. Every learner honours every rule, because the rule is applied
// by the experimenter's loop (experiments.Loop) and by SelectBatch, not by
// the learner (which sees the duels only through Observe, as answers to
// foreign queries).
type Collect string

// Collect values.
const (
	// CollectOwn lets the learner choose (its Select): the paper's setting,
	// stored as the zero value.
	CollectOwn Collect = "own"
	// CollectPassive asks a uniformly random offered context and, in it, a
	// uniformly random allowed ordered pair; the learner's Select is never
	// called. Its queries do not depend on the answers.
	CollectPassive Collect = "passive"
	// CollectRandomContext draws the context uniformly among those offered
	// and lets the learner choose the pair in it (its Select on an offer of
	// that one context).
	CollectRandomContext Collect = "random-context"
)

// Collects lists the valid values.
var Collects = []Collect{CollectOwn, CollectPassive, CollectRandomContext}

// UnmarshalText implements encoding.TextUnmarshaler; "own" is stored as the
// zero value, so configurations written before the field existed keep their
// JSON (and the cache keys hashed from it).
func (c *Collect) UnmarshalText(b []byte) (err error) {
	*c, err = enum.Parse("collect", string(b), Collects)
	if *c == CollectOwn {
		*c = ""
	}
	return err
}

// Validate reports whether c is one of Collects or the zero value.
func (c Collect) Validate() error {
	if c == "" {
		return nil
	}
	return enum.Check("collect", c, Collects)
}

// Values lists the valid names.
func (Collect) Values() []string { return enum.Strings(Collects) }

// Rule returns c with the zero value spelled out (CollectOwn).
func (c Collect) Rule() Collect {
	if c == "" {
		return CollectOwn
	}
	return c
}

// StreamCollect is the PCG stream id (with the run's seed) of a Collector's
// draws. It lies on the experimenter's side of NewStream's ids (a learner
// cannot draw from it), and it does not depend on the learner: with the same
// seed and offers, the passive twins of all learners ask the same duels.
const StreamCollect = 103

// Collector chooses each query under a Collect rule. A nil *Collector, like
// the rule CollectOwn, lets the learner choose. It is not safe for
// concurrent use.
type Collector struct {
	rule Collect
	rng  *rand.Rand
}

// NewCollector returns the collector of rule for a run seeded with seed; it
// returns nil for CollectOwn (and the zero value).
func NewCollector(rule Collect, seed uint64) *Collector {
	if rule.Rule() == CollectOwn {
		return nil
	}
	return &Collector{rule: rule, rng: rand.New(rand.NewPCG(seed, StreamCollect))}
}

// Rule returns the collector's rule (CollectOwn for nil).
func (c *Collector) Rule() Collect {
	if c == nil {
		return CollectOwn
	}
	return c.rule
}

// Select returns the next query among those o allows in pool p, under the
// collector's rule: l's own choice, a uniformly random query, or l's choice
// within one uniformly random context.
func (c *Collector) Select(l Learner, p *Pool, o Offer) Query {
	switch c.Rule() {
	case CollectPassive:
		return o.RandomQuery(p, c.rng)
	case CollectRandomContext:
		ctx := o.RandomContext(p, c.rng)
		return l.Select(Offer{Contexts: []int{ctx}, Allowed: o.Allowed})
	default:
		return l.Select(o)
	}
}

// SelectBatch proposes k distinct queries (distinct contexts-and-pairs) for
// labelling at once, each chosen under the collector's rule with the previous
// ones pending (Pender) and excluded from the offer. It returns fewer than k
// when the offer runs out of pairs. The offer without the batch so far is
// kept up to date query by query (BatchOffer), so a batch does not pass over
// the pool's contexts per query.
func (c *Collector) SelectBatch(l Learner, p *Pool, o Offer, k int) []Query {
	var qs []Query
	bo := NewBatchOffer(p, o)
	for len(qs) < k {
		oi := bo.Offer()
		if oi.Contexts != nil && len(oi.Contexts) == 0 {
			break
		}
		q := c.Select(l, p, oi)
		qs = append(qs, q)
		bo.Add(q)
		if pd, ok := l.(Pender); ok {
			pd.Pend(q)
		}
	}
	return qs
}
