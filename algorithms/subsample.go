package algorithms

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Candidate subsampling: a learner's context rule that scores every offered
// context costs a pass over the pool per query, which on a pool of 100,000
// contexts is most of the cost of a batch of suggestions. Subsample wraps a
// learner so that each Select offers it M contexts drawn uniformly without
// replacement from those the round's offer allows (the stream (seed,
// streamSubsample)), in increasing order; the learner's rule then scores
// those M exactly, as it would score the whole pool, and chooses among them.
// With M at least the number of offered contexts the offer is passed on
// unchanged, so the wrapped learner behaves exactly as the learner itself.
// Observe, Policy, Score, Pend, Sigma2 and the replay go to the learner.
// New wraps every learner so when Config.Consider is set (-consider).
//
// The rule's choice is then the best of M random contexts rather than of
// all: for the max-norm rules (eq. 3, APO, AE-Borda) a context that the full
// rule would choose is found with probability M/C per query; for a learner
// that draws its context at random (random-nn, the -randctx variants) it
// changes nothing but the draw.
type Subsample struct {
	Learner
	M    int
	pool *Pool
	rng  *rand.Rand
	all  []int
}

// NewSubsample wraps l (built on p) to offer it m contexts per query.
func NewSubsample(l Learner, p *Pool, m int, seed uint64) *Subsample {
	return &Subsample{Learner: l, M: m, pool: p, rng: NewStream(seed, streamSubsample)}
}

// Select implements Learner.
func (s *Subsample) Select(o Offer) Query {
	s.all = o.ContextList(s.pool, s.all[:0])
	if s.M >= len(s.all) || s.M < 1 {
		return s.Learner.Select(o)
	}
	// A partial Fisher–Yates shuffle draws M distinct contexts.
	for i := range s.M {
		j := i + s.rng.IntN(len(s.all)-i)
		s.all[i], s.all[j] = s.all[j], s.all[i]
	}
	cand := slices.Clone(s.all[:s.M])
	slices.Sort(cand)
	return s.Learner.Select(Offer{Contexts: cand, Allowed: o.Allowed})
}

// Pend implements Pender when the learner does.
func (s *Subsample) Pend(q Query) {
	if p, ok := s.Learner.(Pender); ok {
		p.Pend(q)
	}
}

// Score implements Scorer when the learner does (nil scores otherwise).
func (s *Subsample) Score(dst, x []float64) []float64 {
	if sc, ok := s.Learner.(Scorer); ok {
		return sc.Score(dst, x)
	}
	return nil
}

// Sigma2 returns the learner's σ² of the pair (NaN for learners without).
func (s *Subsample) Sigma2(c, a, b int) float64 {
	if sg, ok := s.Learner.(interface{ Sigma2(c, a, b int) float64 }); ok {
		return sg.Sigma2(c, a, b)
	}
	return math.NaN()
}

// Snapshot implements Snapshotter when the learner does (nil otherwise).
func (s *Subsample) Snapshot() *Model { return snapshotOf(s.Learner) }

// BeginReplay implements Replayer.
func (s *Subsample) BeginReplay() { BeginReplay(s.Learner) }

// EndReplay implements Replayer.
func (s *Subsample) EndReplay() { EndReplay(s.Learner) }
