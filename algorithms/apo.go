package algorithms

import (
	"math/rand/v2"
)

// APO is Active Preference Optimization (Das et al. 2024, "Active Preference
// Optimization for Sample Efficient RLHF"), the baseline from which the
// paper's context rule (eq. 3) is adapted. Each round it chooses the context
// and the arm pair jointly, by the largest uncertainty of a difference:
//
//	(c_t, a_t, b_t) = argmax_{c, a≠b} ‖ψ(c,a) − ψ(c,b)‖_{V_{t−1}⁻¹},
//	V_t = V_{t−1} + (ψ(c_t,a_t) − ψ(c_t,b_t))(ψ(c_t,a_t) − ψ(c_t,b_t))ᵀ,
//
// and never looks at the reward estimate while collecting. Registered as
//
//	apo              ψ = x, the raw features; V0 = λI; the linear
//	                 Bradley–Terry MLE (LinearBT) gives π(c) = argmax_a θ̂ᵀx_{c,a}
//	neural-adb-apo   ψ = φ = g(x;θ0)/√w, the paper's gradient features;
//	                 V0 = (λ/κ)I; the paper's MLP gives π (neuraladbapo.go)
//
// Interpretation: Das et al. maximise the norm of the difference of the
// context's feature map at two actions and fit a norm-constrained MLE once at
// the end; we use V0 = λI (λ = Config.Lambda; the κ of their V0 is not
// reported for this experiment), the ℓ2-penalised MLE of LinearBT refitted
// every Config.RetrainEvery duels (its value at T is the MLE on all data),
// and break exact ties in the joint argmax uniformly at random between
// contexts and by row-major order (a < b) within one. V is updated with the
// pair queried whatever the answer (the sign of ψ does not matter). The rule
// is exactly the max-norm pair of eq. (3), here used for the arms as well.
type APO struct {
	pool  *Pool
	model duelModel
	conf  Confidence
	rng   *rand.Rand
	norms []float64
	ctxs  []int
	pending
}

func init() {
	Register("apo", "APO (Das et al. 2024): context and arm pair jointly by the largest ‖x_a − x_b‖ in V⁻¹; linear Bradley–Terry MLE policy",
		func(env Env) (Learner, error) {
			conf := newLinearConfidence(env)
			return newAPO(env, NewLinearBT(env), conf), nil
		})
	DeclareReads("apo", "", ReadsFields(linearBTReads, linearConfReads))
}

func newAPO(env Env, m duelModel, conf Confidence) *APO {
	return &APO{pool: env.Pool, model: m, conf: conf, rng: NewStream(env.Seed, streamSelect), norms: make([]float64, env.Pool.Contexts)}
}

// Select implements Learner: the offered context and allowed pair with the
// largest norm.
func (l *APO) Select(o Offer) Query {
	l.ctxs = o.ContextList(l.pool, l.ctxs)
	var c int
	if bc, ok := l.conf.(boundedConfidence); ok { // a large pool: lazily solved blocks
		c = l.ctxs[maxNormArgmax(bc, o, l.ctxs, l.pool.Arms, l.rng)]
	} else {
		l.norms = resize(l.norms, len(l.ctxs))
		c = argmaxMaxPair(l.conf, o, l.ctxs, l.norms, l.pool.Arms, l.rng)
	}
	a, b, _ := maxPair(l.conf, o, c, l.pool.Arms)
	return Query{Context: c, Arm1: a, Arm2: b}
}

// Pend implements Pender: the pair joins V before its answer.
func (l *APO) Pend(q Query) {
	l.conf.Add(l.pool.Row(q.Context, q.Arm1), l.pool.Row(q.Context, q.Arm2))
	l.pending.add(q)
}

// Observe implements Learner: V grows by the queried pair, then the duel joins
// the model's data.
func (l *APO) Observe(q Query, y Feedback) {
	win, lose := q.WinnerLoser(y)
	if !l.pending.take(q) {
		l.conf.Add(l.pool.Row(q.Context, win), l.pool.Row(q.Context, lose))
	}
	l.model.AddDuel(q.Context, win, lose)
}

// Policy implements Learner.
func (l *APO) Policy(dst []int) []int { return l.model.Policy(dst) }

// Score implements Scorer: the model's utility estimate.
func (l *APO) Score(dst, x []float64) []float64 { return l.model.Score(dst, x) }
