package algorithms

import "math/rand/v2"

// RandomDuels is the "Random" baseline of the paper's Section 4: every round
// it draws the context uniformly from the pool and an arm pair uniformly from
// the K(K−1) ordered pairs of distinct arms, then fits the learner's reward
// model to the answers. Registered as
//
//	random      the linear Bradley–Terry MLE on the raw features (LinearBT)
//	random-nn   the paper's MLP trained as in Neural-ADB (randomnn.go)
//
// Interpretation: the paper names the baseline without describing it. We
// read "random" as uniform over contexts and over distinct arm pairs, with
// the linear logistic (Bradley–Terry) MLE of the linear baselines as its
// estimator, refitted every Config.RetrainEvery duels; its policy is
// π(c) = argmax_a θ̂ᵀx_{c,a}.
type RandomDuels struct {
	pool  *Pool
	model duelModel
	rng   *rand.Rand
}

func init() {
	Register("random", "Random (paper Sec. 4): uniform context and distinct arm pair; linear Bradley–Terry MLE policy",
		func(env Env) (Learner, error) { return newRandomDuels(env, NewLinearBT(env)), nil })
	DeclareReads("random", "", ReadsFields(linearBTReads))
}

func newRandomDuels(env Env, m duelModel) *RandomDuels {
	return &RandomDuels{pool: env.Pool, model: m, rng: NewStream(env.Seed, streamSelect)}
}

// Select implements Learner: a uniform offered context, a uniform allowed
// ordered pair.
func (l *RandomDuels) Select(o Offer) Query {
	c := o.RandomContext(l.pool, l.rng)
	a, b := o.RandomPair(c, l.pool.Arms, l.rng)
	return Query{Context: c, Arm1: a, Arm2: b}
}

// Observe implements Learner.
func (l *RandomDuels) Observe(q Query, y Feedback) {
	win, lose := q.WinnerLoser(y)
	l.model.AddDuel(q.Context, win, lose)
}

// Policy implements Learner.
func (l *RandomDuels) Policy(dst []int) []int { return l.model.Policy(dst) }

// Score implements Scorer: the model's utility estimate.
func (l *RandomDuels) Score(dst, x []float64) []float64 { return l.model.Score(dst, x) }
