package algorithms

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Offer is what the experimenter lets a learner ask in one round: which
// contexts, and which arm pairs within them. The zero Offer offers every
// context of the pool and every pair of distinct arms (the paper's setting).
//
// Restricted offers arise when the experimenter cannot answer everything:
// a replayed pool offers only pairs with a recorded answer; a batch of
// queries to label excludes the pairs already pending; in the fresh-context
// reading only this round's new candidate contexts are on offer.
type Offer struct {
	// Contexts lists the contexts on offer in increasing order; nil offers
	// every context of the pool.
	Contexts []int
	// Allowed, if not nil, reports whether the pair {a, b} (a ≠ b) of
	// context c may be asked. It must be symmetric in a and b, and every
	// offered context must have at least one allowed pair.
	Allowed func(c, a, b int) bool
}

// Full reports whether o offers every context and every pair.
func (o Offer) Full() bool { return o.Contexts == nil && o.Allowed == nil }

// ContextList returns the contexts o offers in p (all of p's when
// o.Contexts is nil), reusing dst.
func (o Offer) ContextList(p *Pool, dst []int) []int {
	if o.Contexts != nil {
		return append(dst[:0], o.Contexts...)
	}
	dst = dst[:0]
	for c := range p.Contexts {
		dst = append(dst, c)
	}
	return dst
}

// Allows reports whether the pair {a, b} of context c may be asked: a ≠ b
// and Allowed (if set) agrees. It does not check that c is offered.
func (o Offer) Allows(c, a, b int) bool {
	return a != b && (o.Allowed == nil || o.Allowed(c, a, b))
}

// Check reports why q cannot be asked: not a valid duel of p, a context not
// on offer, or a pair not allowed.
func (o Offer) Check(p *Pool, q Query) error {
	if err := q.Validate(p); err != nil {
		return err
	}
	if o.Contexts != nil && !containsSorted(o.Contexts, q.Context) {
		return fmt.Errorf("query context %d is not on offer", q.Context)
	}
	if !o.Allows(q.Context, q.Arm1, q.Arm2) {
		return fmt.Errorf("query pair (%d, %d) of context %d is not on offer", q.Arm1, q.Arm2, q.Context)
	}
	return nil
}

func containsSorted(s []int, x int) bool {
	lo, hi := 0, len(s)
	for lo < hi {
		m := (lo + hi) / 2
		switch {
		case s[m] == x:
			return true
		case s[m] < x:
			lo = m + 1
		default:
			hi = m
		}
	}
	return false
}

// MaskFirstArm sets vals[a] = −∞ for every arm a of context c that has no
// allowed partner, so that an argmax over vals picks a first arm that can be
// dueled. It does nothing when every pair is allowed.
func (o Offer) MaskFirstArm(c int, vals []float64) {
	if o.Allowed == nil {
		return
	}
	for a := range vals {
		partner := false
		for b := range vals {
			if o.Allows(c, a, b) {
				partner = true
				break
			}
		}
		if !partner {
			vals[a] = math.Inf(-1)
		}
	}
}

// MaskSecondArm sets vals[b] = −∞ for every arm b of context c that may not
// be dueled with a1 (including a1 itself is left to the caller's skip). It
// does nothing when every pair is allowed.
func (o Offer) MaskSecondArm(c, a1 int, vals []float64) {
	if o.Allowed == nil {
		return
	}
	for b := range vals {
		if b != a1 && !o.Allows(c, a1, b) {
			vals[b] = math.Inf(-1)
		}
	}
}

// RandomContext draws an offered context of p uniformly from rng.
func (o Offer) RandomContext(p *Pool, rng *rand.Rand) int {
	if o.Contexts != nil {
		return o.Contexts[rng.IntN(len(o.Contexts))]
	}
	return rng.IntN(p.Contexts)
}

// RandomPair draws an ordered pair of distinct arms of context c uniformly
// among the allowed ones, from rng.
func (o Offer) RandomPair(c, arms int, rng *rand.Rand) (a, b int) {
	if o.Allowed == nil {
		a = rng.IntN(arms)
		return a, (a + 1 + rng.IntN(arms-1)) % arms
	}
	n := 0
	for a := range arms {
		for b := range arms {
			if o.Allows(c, a, b) {
				n++
			}
		}
	}
	k := rng.IntN(n)
	for a := range arms {
		for b := range arms {
			if o.Allows(c, a, b) {
				if k == 0 {
					return a, b
				}
				k--
			}
		}
	}
	panic("algorithms: unreachable")
}

// RandomPartner draws an arm uniformly among those that may be dueled with
// a1 in context c.
func (o Offer) RandomPartner(c, a1, arms int, rng *rand.Rand) int {
	if o.Allowed == nil {
		return (a1 + 1 + rng.IntN(arms-1)) % arms
	}
	var ok []int
	for b := range arms {
		if o.Allows(c, a1, b) {
			ok = append(ok, b)
		}
	}
	return ok[rng.IntN(len(ok))]
}

// Without returns o with the pairs of the queries qs excluded (a batch of
// distinct queries), dropping contexts that are left without an allowed
// pair. p is the pool the offer is for.
func (o Offer) Without(p *Pool, qs []Query) Offer {
	if len(qs) == 0 {
		return o
	}
	type key struct{ c, a, b int }
	taken := map[key]bool{}
	for _, q := range qs {
		taken[key{q.Context, min(q.Arm1, q.Arm2), max(q.Arm1, q.Arm2)}] = true
	}
	inner := o.Allowed
	out := Offer{Allowed: func(c, a, b int) bool {
		if taken[key{c, min(a, b), max(a, b)}] {
			return false
		}
		return inner == nil || inner(c, a, b)
	}}
	out.Contexts = []int{} // non-nil: an empty list offers nothing
	exhausted := map[int]bool{}
	for _, q := range qs {
		c, left := q.Context, false
		for a := 0; a < p.Arms && !left; a++ {
			for b := a + 1; b < p.Arms; b++ {
				if out.Allows(c, a, b) {
					left = true
					break
				}
			}
		}
		if !left {
			exhausted[c] = true
		}
	}
	for _, c := range o.ContextList(p, nil) {
		if !exhausted[c] {
			out.Contexts = append(out.Contexts, c)
		}
	}
	return out
}

// pending counts the queries a Pender has put into its uncertainty before
// their answers arrived; the zero value is ready to use.
type pending struct{ m map[Query]int }

// add records q as pending.
func (p *pending) add(q Query) {
	if p.m == nil {
		p.m = map[Query]int{}
	}
	p.m[q]++
}

// take reports whether q was pending, and if so removes one instance.
func (p *pending) take(q Query) bool {
	n := p.m[q]
	switch {
	case n == 0:
		return false
	case n == 1:
		delete(p.m, q)
	default:
		p.m[q] = n - 1
	}
	return true
}

// RandomQuery draws an offered context, then an allowed ordered pair in it,
// uniformly from rng.
func (o Offer) RandomQuery(p *Pool, rng *rand.Rand) Query {
	c := o.RandomContext(p, rng)
	a, b := o.RandomPair(c, p.Arms, rng)
	return Query{Context: c, Arm1: a, Arm2: b}
}
