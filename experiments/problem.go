package experiments

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/logistic"
	"github.com/neural-adb/nadb/internal/xmath"
)

// Oracle answers duels: the labeller of the paper's Section 2. Simulated
// oracles draw y from a preference model; recorded ones replay human answers.
type Oracle interface {
	Answer(q algorithms.Query) algorithms.Feedback
}

// Evaluator measures a policy with knowledge the learner does not have.
type Evaluator interface {
	// Gaps writes the sub-optimality gap max_a f(c,a) − f(c,π(c)) of every
	// evaluation context into dst and returns it.
	Gaps(dst []float64, policy []int) []float64
	// Regret returns the instantaneous regret of a query,
	// f(c,a*) − (f(c,a1) + f(c,a2))/2 (Section 3.4).
	Regret(q algorithms.Query) float64
}

// ExtraEvaluator is implemented by evaluators that report metrics beyond the
// standard columns (for example accuracy on held-out users, which needs the
// learner's model and not only its policy on the pool). Extra is called at
// every checkpoint and must return one value per column.
type ExtraEvaluator interface {
	ExtraColumns() []string
	Extra(dst []float64, l algorithms.Learner) []float64
}

// Problem is one instance: what the learner sees (Pool, Offer) and what only
// the experimenter sees (Oracle, Evaluator).
type Problem struct {
	Name      string
	Pool      *algorithms.Pool
	Oracle    Oracle
	Evaluator Evaluator
	// Offer is what the learner may ask every round; the zero Offer is every
	// context and pair (a replayed pool offers only recorded pairs).
	Offer algorithms.Offer
	// Rounds, if not nil, changes the offer (and the pool's fresh contexts)
	// every round, and takes precedence over Offer (fresh.go).
	Rounds Rounds
}

// Random streams of the experiment side, inside the range algorithms.NewStream
// refuses to learners ([100, 1000)), so no learner can redraw the instance or
// predict the answers. Problems of other packages (pool, realdata) draw from
// the same two streams.
const (
	StreamProblem    = 101 // the instance: pool features, θ, data splits
	StreamFeedback   = 102 // the answers: Bradley–Terry draws, coins
	StreamCandidates = 103 // the fresh candidate contexts of every round
)

// Latent holds the latent reward f(x_{c,a}) of every pool row and evaluates
// policies with it.
type Latent struct {
	Arms int
	F    []float64 // row c·Arms + a
}

// Best returns max_a f(c,a).
func (l *Latent) Best(c int) float64 {
	return slices.Max(l.F[c*l.Arms : (c+1)*l.Arms])
}

// RandomPolicyGap returns the expected mean gap over the pool of the uniformly
// random policy, mean_c (max_a f(c,a) − mean_a f(c,a)): the level a learner
// must beat to have learned anything.
func (l *Latent) RandomPolicyGap() float64 {
	contexts := len(l.F) / l.Arms
	s := 0.0
	for c := range contexts {
		fc := l.F[c*l.Arms : (c+1)*l.Arms]
		mean := 0.0
		for _, v := range fc {
			mean += v
		}
		s += slices.Max(fc) - mean/float64(l.Arms)
	}
	return s / float64(contexts)
}

// Gaps implements Evaluator.
func (l *Latent) Gaps(dst []float64, policy []int) []float64 {
	if cap(dst) < len(policy) {
		dst = make([]float64, len(policy))
	}
	dst = dst[:len(policy)]
	for c, a := range policy {
		dst[c] = l.Best(c) - l.F[c*l.Arms+a]
	}
	return dst
}

// Regret implements Evaluator.
func (l *Latent) Regret(q algorithms.Query) float64 {
	k := q.Context * l.Arms
	return l.Best(q.Context) - (l.F[k+q.Arm1]+l.F[k+q.Arm2])/2
}

// KappaMu returns κ_μ = min over contexts and arm pairs of μ'(f(c,a) − f(c,b))
// (Assumption 1), the constant the paper leaves unstated. μ'(x) is evaluated
// as e^{−|x|}/(1 + e^{−|x|})², which stays accurate where σ(1 − σ) rounds to 0
// (Square's differences reach 30 and more: κ_μ ≈ 1e-16 there).
func (l *Latent) KappaMu() float64 {
	k := math.Inf(1)
	for c := 0; c < len(l.F)/l.Arms; c++ {
		fc := l.F[c*l.Arms : (c+1)*l.Arms]
		e := xmath.Exp(-(slices.Max(fc) - slices.Min(fc))) // μ' is smallest at the largest |difference|
		k = math.Min(k, e/((1+e)*(1+e)))
	}
	return k
}

// Scores returns the learner's utility estimates of the feature rows x
// (algorithms.Scorer), or false when the learner has no model to score with.
func Scores(dst []float64, l algorithms.Learner, x []float64) ([]float64, bool) {
	s, ok := l.(algorithms.Scorer)
	if !ok {
		return dst, false
	}
	return s.Score(dst, x), true
}

// PoolScores is Scores of every row of p, read block by block
// (algorithms.ScoreRows), so that a float32 or memory-mapped pool is never
// converted whole.
func PoolScores(dst []float64, l algorithms.Learner, p *algorithms.Pool) ([]float64, bool) {
	s, ok := l.(algorithms.Scorer)
	if !ok {
		return dst, false
	}
	return algorithms.ScoreRows(dst, s, p, 0, p.Rows(), nil), true
}

// BradleyTerry answers y = 1 with probability μ(f(x_{c,a1}) − f(x_{c,a2})).
type BradleyTerry struct {
	Latent *Latent
	Rng    *rand.Rand
}

// Answer implements Oracle.
func (b *BradleyTerry) Answer(q algorithms.Query) algorithms.Feedback {
	k := q.Context * b.Latent.Arms
	if b.Rng.Float64() < logistic.Sigmoid(b.Latent.F[k+q.Arm1]-b.Latent.F[k+q.Arm2]) {
		return algorithms.Arm1Won
	}
	return algorithms.Arm2Won
}
