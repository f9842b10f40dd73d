package label

import (
	"math"
	"slices"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/poolfile"
)

// DefaultLearner is the learner "nadb suggest", "export" and "serve" use
// when -algo is not given: neural-adb-target (algorithms/target_doc.go),
// whose duels aim at what the user scores. Its objective is a config field
// (-objective); its zero value, predict, aims at the answers of new
// contexts, which is what labelling one's own data is for; -objective
// policy aims at the best arm of each context in this pool. The paper's
// context rule as written (neural-adb-ucb) locks on to a few contexts and,
// in a session, asks the same duel again and again (README, the lock-on).
const DefaultLearner = "neural-adb-target"

// PoolCatalogue is the Catalogue of a pool file: its context identifiers
// and, per context, its arms' identifiers, with the pool's indices.
type PoolCatalogue struct {
	File *poolfile.PoolFile
}

// Contexts implements Catalogue.
func (pc PoolCatalogue) Contexts() int { return len(pc.File.Contexts) }

// Context implements Catalogue.
func (pc PoolCatalogue) Context(c int) string { return pc.File.Contexts[c] }

// Arms implements Catalogue.
func (pc PoolCatalogue) Arms(c int) []string {
	K := pc.File.Pool.Arms
	return pc.File.Arms[c*K : (c+1)*K]
}

// LearnerProposer is the Proposer of any learner (algorithms.Learner) on a
// pool: the session's labellers answer the queries the learner selects.
//
//   - Propose is Select with an offer that excludes the pending pairs
//     (algorithms.Offer.Without; kept up to date query by query while the
//     exclusions grow, as a batch's do: algorithms.BatchOffer). A learner
//     that is an algorithms.Pender has each distinct proposed query pended
//     once, so that its uncertainty accounts for the queries shown but not
//     yet answered; a query proposed again after it expired is not pended
//     twice. The reason of a query is
//     the score difference h(a1) − h(a2) (algorithms.Scorer on the
//     context's rows) and σ(a1, a2) for learners that expose σ² as
//     Sigma2(c, a, b) (the neural ones); NaN where the learner has none.
//   - Observe feeds the answer to the learner, whatever query it answers.
//   - Summary gives per context the policy's arm, every arm's score and its
//     uncertainty σ(π(c), a) (0 for the policy's arm itself), and the number
//     of answers the learner has seen in the context.
//   - ProposeSet (the best-of-k and ranking views) chooses the first duel
//     as Propose does, then adds arms one at a time, each the learner's
//     choice among the duels that pair a shown arm with a new one (not
//     pended: the answer is several implied duels, not these).
//   - With a Collector (SetCollector), the collect rule of the
//     configuration chooses instead of the learner (-collect passive: a
//     uniformly random duel; random-context: the learner's duel in a random
//     context), as in the experiments.
type LearnerProposer struct {
	learner   algorithms.Learner
	pool      *algorithms.Pool
	collector *algorithms.Collector     // nil: the learner chooses
	pended    map[algorithms.Query]bool // pended and not answered yet
	queries   []int                     // answers observed per context
	observed  int
	buf       []float64
	rows      []float64 // a context's rows converted (Pool.RowsTo)

	// The offer without the last exclusions, kept up to date when the next
	// exclusions extend them (a batch proposed one query at a time).
	batch   *algorithms.BatchOffer
	batchQs []algorithms.Query
}

// sigma2er is implemented by learners with a σ² of arm pairs (eq. 6).
type sigma2er interface {
	Sigma2(c, a, b int) float64
}

// NewLearnerProposer returns the Proposer of learner l, built on pool p.
func NewLearnerProposer(l algorithms.Learner, p *algorithms.Pool) *LearnerProposer {
	return &LearnerProposer{learner: l, pool: p, pended: map[algorithms.Query]bool{}, queries: make([]int, p.Contexts)}
}

// Learner returns the wrapped learner.
func (lp *LearnerProposer) Learner() algorithms.Learner { return lp.learner }

// SetCollector makes c choose the queries (nil: the learner).
func (lp *LearnerProposer) SetCollector(c *algorithms.Collector) { lp.collector = c }

// Observed implements Counter: the answers the learner was given.
func (lp *LearnerProposer) Observed() int { return lp.observed }

// selectQuery asks the collector, or the learner, for a query o allows.
func (lp *LearnerProposer) selectQuery(o algorithms.Offer) algorithms.Query {
	if lp.collector != nil {
		return lp.collector.Select(lp.learner, lp.pool, o)
	}
	return lp.learner.Select(o)
}

// without returns the full offer without the pairs of exclude
// (algorithms.Offer.Without): when exclude extends the previous call's
// exclusions, as the queries of a batch do, only the new ones are taken out
// (algorithms.BatchOffer).
func (lp *LearnerProposer) without(exclude []algorithms.Query) algorithms.Offer {
	n := len(lp.batchQs)
	if lp.batch == nil || len(exclude) < n || !slices.Equal(exclude[:n], lp.batchQs) {
		lp.batch, lp.batchQs, n = algorithms.NewBatchOffer(lp.pool, algorithms.Offer{}), lp.batchQs[:0], 0
	}
	for _, q := range exclude[n:] {
		lp.batch.Add(q)
		lp.batchQs = append(lp.batchQs, q)
	}
	return lp.batch.Offer()
}

// Propose implements Proposer.
func (lp *LearnerProposer) Propose(exclude []algorithms.Query) (algorithms.Query, Reason, bool) {
	o := lp.without(exclude)
	// With exclusions, Without lists the contexts left; none (nil) when every
	// pair is excluded.
	if len(exclude) > 0 && len(o.Contexts) == 0 {
		return algorithms.Query{}, NoReason, false
	}
	q := lp.selectQuery(o)
	r := lp.reason(q)
	if pd, ok := lp.learner.(algorithms.Pender); ok && !lp.pended[q] {
		pd.Pend(q)
		lp.pended[q] = true
	}
	return q, r, true
}

// ProposeSet implements SetProposer.
func (lp *LearnerProposer) ProposeSet(exclude []algorithms.Query, k int) (int, []int, Reason, bool) {
	o := lp.without(exclude)
	if len(exclude) > 0 && len(o.Contexts) == 0 {
		return 0, nil, NoReason, false
	}
	q := lp.selectQuery(o)
	r := lp.reason(q)
	c, arms := q.Context, []int{q.Arm1, q.Arm2}
	for len(arms) < k {
		in := func(a int) bool { return slices.Contains(arms, a) }
		// An arm may join when it forms an allowed duel with every arm shown.
		joins := func(a int) bool {
			return !in(a) && !slices.ContainsFunc(arms, func(b int) bool { return !o.Allows(c, a, b) })
		}
		if !slices.ContainsFunc(armIndices(lp.pool.Arms), joins) {
			break
		}
		sq := lp.selectQuery(algorithms.Offer{Contexts: []int{c}, Allowed: func(cc, a, b int) bool {
			return cc == c && (in(a) && joins(b) || in(b) && joins(a))
		}})
		if in(sq.Arm1) {
			arms = append(arms, sq.Arm2)
		} else {
			arms = append(arms, sq.Arm1)
		}
	}
	return c, arms, r, true
}

// reason returns h(a1) − h(a2) and σ(a1, a2) of q, NaN where unavailable.
func (lp *LearnerProposer) reason(q algorithms.Query) Reason {
	r := NoReason
	if h := lp.contextScores(q.Context); h != nil {
		r.Score = h[q.Arm1] - h[q.Arm2]
	}
	if s, ok := lp.learner.(sigma2er); ok {
		r.Sigma = math.Sqrt(max(0, s.Sigma2(q.Context, q.Arm1, q.Arm2)))
	}
	return r
}

// contextScores returns the learner's scores of context c's arms, or nil.
func (lp *LearnerProposer) contextScores(c int) []float64 {
	sc, ok := lp.learner.(algorithms.Scorer)
	if !ok {
		return nil
	}
	p := lp.pool
	lp.rows = p.RowsTo(lp.rows, p.Row(c, 0), p.Row(c+1, 0))
	lp.buf = sc.Score(resize(lp.buf, p.Arms), lp.rows)
	return lp.buf
}

// Observe implements Proposer.
func (lp *LearnerProposer) Observe(q algorithms.Query, y algorithms.Feedback) {
	lp.learner.Observe(q, y)
	delete(lp.pended, q)
	lp.queries[q.Context]++
	lp.observed++
}

// Summary implements Proposer.
func (lp *LearnerProposer) Summary() Summary {
	p := lp.pool
	policy := lp.learner.Policy(nil)
	var scores []float64
	if sc, ok := lp.learner.(algorithms.Scorer); ok {
		scores = algorithms.ScoreRows(nil, sc, p, 0, p.Rows(), nil)
	}
	s2, hasSigma := lp.learner.(sigma2er)
	s := Summary{Contexts: make([]ContextSummary, p.Contexts)}
	for c := range s.Contexts {
		cs := ContextSummary{Arm: policy[c], Queries: lp.queries[c], Sigmas: make([]float64, p.Arms)}
		if scores != nil {
			cs.Scores = scores[c*p.Arms : (c+1)*p.Arms]
		}
		for a := range cs.Sigmas {
			switch {
			case !hasSigma:
				cs.Sigmas[a] = math.NaN()
			case a != cs.Arm:
				cs.Sigmas[a] = math.Sqrt(max(0, s2.Sigma2(c, cs.Arm, a)))
			}
		}
		s.Contexts[c] = cs
	}
	return s
}

func resize(s []float64, n int) []float64 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]float64, n)
}

// armIndices returns 0, 1, …, k − 1.
func armIndices(k int) []int {
	out := make([]int, k)
	for i := range out {
		out[i] = i
	}
	return out
}
