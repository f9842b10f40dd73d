package algorithms

import (
	"math"
	"math/rand/v2"
)

// Neural-ADB as written (paper Section 3.2, Algorithm "Neural-ADB").
//
// Each round t:
//
//	c_t    = argmax_c max_{a,b} ‖φ(c,a) − φ(c,b)‖_{V_{t−1}⁻¹}                 (eq. 3)
//	a_t,1  = argmax_a h(x_{c_t,a}; θ_t)                                        (eq. 4)
//	a_t,2  = argmax_{b≠a_t,1} h(x_{c_t,b}; θ_t) + ν σ_{t−1}(c_t, a_t,1, b)      (eq. 5, UCB)
//	   or  = argmax_{b≠a_t,1} s_b,  s_b ~ N(h_b − h_{a_t,1}, ν² σ²_{t−1})      (eq. 7, TS)
//	V_t    = V_{t−1} + ψ ψᵀ,  ψ = φ(c_t, winner) − φ(c_t, loser)
//
// with σ² from eq. (6) and the network retrained every RetrainEvery duels. The
// returned policy is π(c) = argmax_a h(x_{c,a}; θ_T) (eq. 8).
//
// Exact ties (h ≡ 0 at the mirrored θ0 before the first retrain) are broken
// uniformly at random from the selection stream.
//
// The context rule is a field so that variants (random contexts, the repaired
// rules of the lock-on study) reuse the arm rule unchanged; each variant is
// registered under its own name.
type NeuralADB struct {
	*NeuralModel
	// ContextRule chooses c_t among the offered contexts; nil means the
	// paper's eq. (3).
	ContextRule func(l *NeuralADB, o Offer) int
	// Thompson selects the TS arm rule instead of UCB.
	Thompson bool

	Rng     *rand.Rand
	scratch []float64
	ctxs    []int
	pending // queries in V whose answers have not arrived (Pend)
}

func init() {
	Register("neural-adb-ucb", "Neural-ADB as written: max-norm context rule (eq. 3), greedy first arm, UCB second arm (eq. 5)",
		func(env Env) (Learner, error) { return NewNeuralADB(env, false, nil) })
	Register("neural-adb-ts", "Neural-ADB as written: max-norm context rule (eq. 3), greedy first arm, Thompson-sampled second arm (eq. 7)",
		func(env Env) (Learner, error) { return NewNeuralADB(env, true, nil) })
	DeclareReads("neural-adb-ucb", "", ReadsFields(neuralADBReads))
	DeclareReads("neural-adb-ts", "", ReadsFields(neuralADBReads))
}

// NewNeuralADB builds Neural-ADB with the given arm rule and context rule (nil:
// the paper's).
func NewNeuralADB(env Env, thompson bool, rule func(*NeuralADB, Offer) int) (*NeuralADB, error) {
	m, err := NewNeuralModel(env, true)
	if err != nil {
		return nil, err
	}
	return &NeuralADB{
		NeuralModel: m, ContextRule: rule, Thompson: thompson,
		Rng:     NewStream(env.Seed, streamSelect),
		scratch: make([]float64, max(env.Pool.Arms, env.Pool.Contexts)),
	}, nil
}

// MaxNormContext is the paper's context rule, eq. (3): the offered context
// whose most uncertain allowed arm pair has the largest ‖φ_a − φ_b‖_{V⁻¹}.
func MaxNormContext(l *NeuralADB, o Offer) int {
	l.ctxs = o.ContextList(l.Pool, l.ctxs)
	if bc, ok := l.Conf.(boundedConfidence); ok {
		return l.ctxs[maxNormArgmax(bc, o, l.ctxs, l.Pool.Arms, l.Rng)]
	}
	l.scratch = resize(l.scratch, max(len(l.ctxs), l.Pool.Arms))
	return argmaxMaxPair(l.Conf, o, l.ctxs, l.scratch[:len(l.ctxs)], l.Pool.Arms, l.Rng)
}

// Select implements Learner.
func (l *NeuralADB) Select(o Offer) Query {
	rule := l.ContextRule
	if rule == nil {
		rule = MaxNormContext
	}
	c := rule(l, o)
	a1, a2 := l.ArmRule(o, c)
	return Query{Context: c, Arm1: a1, Arm2: a2}
}

// ArmRule applies the arm rule (eqs. 4 and 5 or 7) in context c, among the
// pairs o allows.
func (l *NeuralADB) ArmRule(o Offer, c int) (a1, a2 int) {
	h := l.Scores(c)
	vals := l.scratch[:len(h)]
	if o.Allowed == nil {
		a1 = ArgmaxRand(h, -1, l.Rng)
	} else {
		copy(vals, h)
		o.MaskFirstArm(c, vals)
		a1 = ArgmaxRand(vals, -1, l.Rng)
	}
	for b := range vals {
		if b == a1 {
			vals[b] = math.Inf(-1)
			continue
		}
		sigma := math.Sqrt(l.Sigma2(c, a1, b))
		if l.Thompson {
			vals[b] = h[b] - h[a1] + l.Cfg.Nu*sigma*l.Rng.NormFloat64()
		} else {
			vals[b] = h[b] + l.Cfg.Nu*sigma
		}
	}
	o.MaskSecondArm(c, a1, vals)
	a2 = ArgmaxRand(vals, a1, l.Rng)
	return a1, a2
}

// Pend implements Pender: the query's pair joins V now (V does not depend on
// the answer); its Observe later adds only the duel.
func (l *NeuralADB) Pend(q Query) {
	l.Conf.Add(l.Pool.Row(q.Context, q.Arm1), l.Pool.Row(q.Context, q.Arm2))
	l.pending.add(q)
}

// Observe implements Learner: V grows by the queried pair (unless it was
// pending), then the duel joins the training data.
func (l *NeuralADB) Observe(q Query, y Feedback) {
	win, lose := q.WinnerLoser(y)
	if !l.pending.take(q) {
		l.Conf.Add(l.Pool.Row(q.Context, win), l.Pool.Row(q.Context, lose))
	}
	l.AddDuel(q.Context, win, lose)
}
