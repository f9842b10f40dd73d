package algorithms

// BatchOffer is an offer from which the pairs of a growing batch of queries
// are excluded, kept up to date one query at a time. After Add(q_1), …,
// Add(q_n), Offer returns an offer that allows exactly what
// base.Without(p, [q_1 … q_n]) allows, with the same contexts in the same
// order (so a learner's choices, and its random draws, are the same), but
// each Add costs one look at the query's context (K² pairs, plus a copy of
// the context list when that context has no pair left) rather than a pass
// over the pool's contexts and over the batch so far: a batch of k queries
// from C contexts costs O(k·K² + C) instead of O(k·(C + k)).
//
// An offer returned earlier keeps allowing what it allowed when it was
// returned (its context list is never changed in place). A BatchOffer is for
// a pool whose contexts do not change while the batch grows (a fixed pool);
// it is not safe for concurrent use.
type BatchOffer struct {
	pool  *Pool
	base  Offer
	taken map[batchPair]int // unordered pair → index of the first query that took it
	n     int               // queries added
	ctxs  []int             // contexts left after the queries (n > 0)
}

// batchPair is an unordered pair of arms (a < b) of a context.
type batchPair struct{ c, a, b int }

func pairOf(q Query) batchPair {
	return batchPair{q.Context, min(q.Arm1, q.Arm2), max(q.Arm1, q.Arm2)}
}

// NewBatchOffer returns the empty batch over the offer o of pool p.
func NewBatchOffer(p *Pool, o Offer) *BatchOffer {
	return &BatchOffer{pool: p, base: o, taken: map[batchPair]int{}}
}

// Len returns the number of queries added.
func (b *BatchOffer) Len() int { return b.n }

// Add excludes the pair of q (in either order) from the offers that follow.
func (b *BatchOffer) Add(q Query) {
	if b.n == 0 {
		b.ctxs = b.base.ContextList(b.pool, []int{})
	}
	if _, ok := b.taken[pairOf(q)]; !ok {
		b.taken[pairOf(q)] = b.n
	}
	b.n++
	o := b.Offer()
	c := q.Context
	for a := range b.pool.Arms {
		for x := a + 1; x < b.pool.Arms; x++ {
			if o.Allows(c, a, x) {
				return
			}
		}
	}
	// c has no pair left: a new list without it (earlier offers keep theirs).
	left := make([]int, 0, len(b.ctxs))
	for _, v := range b.ctxs {
		if v != c {
			left = append(left, v)
		}
	}
	b.ctxs = left
}

// Offer returns the base offer without the pairs added so far: the base
// offer itself before the first Add (as Offer.Without with no queries).
func (b *BatchOffer) Offer() Offer {
	if b.n == 0 {
		return b.base
	}
	n, taken, inner := b.n, b.taken, b.base.Allowed
	return Offer{Contexts: b.ctxs, Allowed: func(c, a, x int) bool {
		if i, ok := taken[batchPair{c, min(a, x), max(a, x)}]; ok && i < n {
			return false
		}
		return inner == nil || inner(c, a, x)
	}}
}
