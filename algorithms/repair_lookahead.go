package algorithms

import (
	"fmt"

	"github.com/neural-adb/nadb/internal/gemm"
	"github.com/neural-adb/nadb/internal/gram"
)

// Neural-ADB with a pool-wide one-step lookahead context rule (ours: a repair
// of eq. 3, see package experiments/lockon). The arm rule is the
// paper's (eqs. 4 and 5 or 7) and so is the confidence state V; only the
// choice of c_t changes:
//
//	(a1(c), a2(c))  the pair the arm rule would query in context c now,
//	ψ_c = φ(c,a1(c)) − φ(c,a2(c)),
//	c_t = argmax_c Σ_{c'} [σ²_{t−1}(ψ_{c'}) − σ²_{t−1}(ψ_{c'} | V + ψ_c ψ_cᵀ)]
//	    = argmax_c Σ_{c'} (ψ_{c'}ᵀ V⁻¹ ψ_c)² / (1 + ψ_cᵀ V⁻¹ ψ_c),
//
// the duel whose answer most reduces the summed uncertainty σ² of the next
// duel in every context of the pool. Unlike eq. (3) it scores a context by
// the pair that would actually be queried there, so querying a context
// shrinks its own score, and it credits a duel for what it teaches about
// other contexts.
//
// The cross terms ψ_{c'}ᵀ V⁻¹ ψ_c need entries of Φ V⁻¹ Φᵀ across contexts,
// which gram.Confidence does not keep. lookaheadRows keeps the rows of
// M = Φ V⁻¹ Φᵀ = K0/a − Σ_s r̃_s r̃_sᵀ that the rule has needed so far, each
// with the number of updates r̃_s (from Confidence.Row()) already applied to
// it; a row is brought up to date by one axpy (O(N)) per missed update when it
// is next needed, so a row costs at most one pass over the update history
// (O(N·t)) and rows the rule no longer uses cost nothing. A round reads only
// the entries between its pairs' rows; lookaheadBlock keeps those, updating a
// pair row that stays from one round to the next on those 2|C| columns only
// and taking a new one from lookaheadRows. Scoring a round is O(|C|²). The
// pool must be small enough for a dense kernel.
type NeuralADBLookahead struct {
	*NeuralADB
	rows  *lookaheadRows
	block lookaheadBlock // the entries of rows that Select reads
	pairs [][2]int
	score []float64
}

func init() {
	Register("neural-adb-lookahead-ucb", "ours: Neural-ADB's UCB arm rule; context by pool-wide one-step reduction of the next duels' σ² (repair of eq. 3)",
		func(env Env) (Learner, error) { return NewNeuralADBLookahead(env, false) })
	Register("neural-adb-lookahead-ts", "ours: Neural-ADB's TS arm rule; context by pool-wide one-step reduction of the next duels' σ² (repair of eq. 3)",
		func(env Env) (Learner, error) { return NewNeuralADBLookahead(env, true) })
	DeclareReads("neural-adb-lookahead-ucb", "", ReadsFields(neuralADBReads))
	DeclareReads("neural-adb-lookahead-ts", "", ReadsFields(neuralADBReads))
}

// NewNeuralADBLookahead builds the lookahead variant with the UCB or the TS
// arm rule.
func NewNeuralADBLookahead(env Env, thompson bool) (*NeuralADBLookahead, error) {
	b, err := NewNeuralADB(env, thompson, nil)
	if err != nil {
		return nil, err
	}
	C := env.Pool.Contexts
	l := &NeuralADBLookahead{NeuralADB: b, pairs: make([][2]int, C), score: make([]float64, C)}
	if env.Pool.Fresh() > 0 {
		return l, nil
	}
	k, ok := b.DenseKernel()
	if !ok {
		return nil, fmt.Errorf("algorithms: contexts × K: the lookahead context rule needs a dense kernel on a fixed pool, so contexts × arms must be ≤ %d (got %d × %d)", lazyMinRows, env.Pool.Contexts, env.Pool.Arms)
	}
	l.rows = newLookaheadRows(k, b.Conf.Reg())
	return l, nil
}

// Select implements Learner: the offered contexts are the pool the lookahead
// sums over.
func (l *NeuralADBLookahead) Select(o Offer) Query {
	if l.rows == nil {
		return l.selectFresh(o)
	}
	K := l.Pool.Arms
	l.ctxs = o.ContextList(l.Pool, l.ctxs)
	if len(l.pairs) < len(l.ctxs) {
		l.pairs = make([][2]int, len(l.ctxs))
	}
	pairs := l.pairs[:len(l.ctxs)]
	for i, c := range l.ctxs {
		a1, a2 := l.ArmRule(o, c)
		pairs[i] = [2]int{c*K + a1, c*K + a2}
	}
	l.score = resize(l.score, len(pairs))
	lookaheadScore(l.score, l.block.update(l.rows, pairs))
	i := ArgmaxRand(l.score, -1, l.Rng)
	c := l.ctxs[i]
	return Query{Context: c, Arm1: pairs[i][0] - c*K, Arm2: pairs[i][1] - c*K}
}

// selectFresh is Select in the fresh-context reading: the same score over
// the round's fresh contexts, with M from the streaming confidence state.
func (l *NeuralADBLookahead) selectFresh(o Offer) Query {
	K, first := l.Pool.Arms, l.Pool.Committed()
	sc := l.Conf.(*streamConfidence)
	l.ctxs = o.ContextList(l.Pool, l.ctxs)
	if len(l.pairs) < len(l.ctxs) {
		l.pairs = make([][2]int, len(l.ctxs))
	}
	pairs := l.pairs[:len(l.ctxs)]
	for i, c := range l.ctxs {
		a1, a2 := l.ArmRule(o, c)
		pairs[i] = [2]int{(c-first)*K + a1, (c-first)*K + a2} // fresh rows
	}
	n := 2 * len(pairs)
	m := make([]float64, n*n) // M between the pairs' rows: 2i, 2i+1 for pair i
	for x := range n {
		for y := x; y < n; y++ {
			v := sc.freshM(pairs[x/2][x%2], pairs[y/2][y%2])
			m[x*n+y], m[y*n+x] = v, v
		}
	}
	l.score = resize(l.score, len(pairs))
	lookaheadScore(l.score, m)
	i := ArgmaxRand(l.score, -1, l.Rng)
	c := l.ctxs[i]
	return Query{Context: c, Arm1: pairs[i][0] - (c-first)*K, Arm2: pairs[i][1] - (c-first)*K}
}

// Pend implements Pender.
func (l *NeuralADBLookahead) Pend(q Query) {
	l.NeuralADB.Pend(q)
	if l.rows != nil {
		l.rows.push(l.Conf.(*gram.Confidence).Row())
	}
}

// Observe implements Learner.
func (l *NeuralADBLookahead) Observe(q Query, y Feedback) {
	n := l.Conf.Len()
	l.NeuralADB.Observe(q, y)
	if l.rows != nil && l.Conf.Len() > n { // not pending: V grew
		l.rows.push(l.Conf.(*gram.Confidence).Row())
	}
}

// lookaheadRows keeps selected rows of M = K0/a − Σ_s r̃_s r̃_sᵀ, each updated
// lazily from the r̃_s that gram.Confidence reported when each duel was added.
// A later gram Refresh recomputes the confidence state's own r̃_s; the rows
// kept here keep the values they were built from, which differ from the
// refreshed ones by rounding only (both are exact algebra), so the refresh's
// drift bound does not extend to these rows.
type lookaheadRows struct {
	k    *gram.Dense
	reg  float64
	n    int
	hist []float64 // r̃_1 … r̃_t, each n long
	slot []int32   // pool row → position in ids, −1 if not kept
	ids  []int
	done []int       // updates applied to each kept row
	data [][]float64 // kept rows, n each
	asym bool        // an update had a zero or non-finite entry (see lookaheadBlock)
	idx  []int32     // scratch: the updates a row misses
	fac  []float64   // scratch: their factors −r̃_u[i]
}

func newLookaheadRows(k *gram.Dense, reg float64) *lookaheadRows {
	slot := make([]int32, k.N)
	for i := range slot {
		slot[i] = -1
	}
	return &lookaheadRows{k: k, reg: reg, n: k.N, slot: slot}
}

// row returns M[i, :] (read only; valid until the next call of row or push).
// It applies the missed updates in order, each product rounded before its
// sum (gemm.Axpy's bits), skipping an update whose factor r̃_u[i] is zero;
// while no update had a zero entry (asym false) none is skipped and all go
// in one gemm.AxpyRows call, which keeps the row's values in registers from
// the first update to the last.
func (r *lookaheadRows) row(i int) []float64 {
	n := r.n
	s := int(r.slot[i])
	if s < 0 {
		s = len(r.ids)
		r.slot[i] = int32(s)
		r.ids = append(r.ids, i)
		r.done = append(r.done, 0)
		m := make([]float64, n)
		gemm.ScaleTo(m, r.k.Column(i), 1/r.reg)
		r.data = append(r.data, m)
	}
	m := r.data[s]
	t := len(r.hist) / n
	if u0 := r.done[s]; !r.asym && u0 < t {
		r.idx, r.fac = r.idx[:0], r.fac[:0]
		for u := u0; u < t; u++ {
			r.idx = append(r.idx, int32(u))
			r.fac = append(r.fac, -r.hist[u*n+i])
		}
		gemm.AxpyRows(m, r.hist, n, r.idx, r.fac)
	} else {
		for u := u0; u < t; u++ {
			h := r.hist[u*n : (u+1)*n]
			plusAxpy(-h[i], h, m)
		}
	}
	r.done[s] = t
	return m
}

// push records the update M ← M − r̃ r̃ᵀ; kept rows apply it when next used.
func (r *lookaheadRows) push(rt []float64) {
	r.hist = append(r.hist, rt...)
	if !r.asym && !exactSymmetric(rt) {
		r.asym = true
	}
}

// plusAxpy sets y += a·x (each product rounded before its sum: gemm.Axpy).
func plusAxpy(a float64, x, y []float64) {
	if a == 0 {
		return
	}
	gemm.Axpy(y[:len(x)], x, a)
}
