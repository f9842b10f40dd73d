package algorithms

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// AEBorda is AE-Borda (Mehta et al. 2023, "Sample Efficient Reinforcement
// Learning from Human Feedback via Active Exploration", Algorithm AE-Borda),
// a baseline of the paper's Section 4. It learns the contextual Borda function
//
//	f_B(c,a) = P(a ≻ b | c),  b uniform over the other arms of c,
//
// by regularised regression of the duel outcome y on the first arm's features,
// with a width σ(c,a) = ‖ψ(c,a)‖_{V⁻¹}, V = V0 + Σ_s ψ(c_s,a_s)ψ(c_s,a_s)ᵀ over
// the regressed rows, and the bounds U, L = μ ± βσ (β = Config.Beta). Each
// round:
//
//	c_t  = argmax_c [max_a U(c,a) − max_a L(c,a)]
//	a_t  = argmax_a U(c_t,a)
//	b_t  uniform over the other arms of c_t
//	observe y_t = 1[a_t ≻ b_t]; regress y_t − o on ψ(c_t,a_t)
//
// and the policy is π(c) = argmax_a μ(c,a), the Borda estimate. Score returns
// that estimate; it is a Borda score in [0, 1] (in expectation), not a
// Bradley–Terry utility, so only its order within a context is comparable
// with other learners' scores. Registered as
//
//	ae-borda      ψ = x, the raw features; V0 = λI; ridge regression
//	              μ = θ̂ᵀx + o, θ̂ = V⁻¹ Σ_s x_s (y_s − o), updated every round
//	ae-borda-nn   ψ = φ = g(x;θ0)/√w; V0 = (λ/κ)I; the paper's MLP fitted to
//	              y − o by squared error (aebordann.go)
//
// Interpretation (the paper describes the baseline in one sentence):
//   - Mehta et al. use a Gaussian process; with a linear kernel and noise
//     variance λ its posterior mean is the ridge estimate above and its
//     posterior standard deviation is √λ·‖x‖_{V⁻¹}; we use ‖x‖_{V⁻¹}, which is
//     the same at the paper's λ = 1.
//   - The offset o = Config.BordaOffset (0.5 by default) is the prior mean of
//     the regression: the Borda function averages exactly 1/2 over the arms
//     of a context, and a linear model without intercept cannot represent
//     that constant. Set it to 0 to regress the raw y.
//   - The second arm is uniform over the K−1 arms other than a_t (a query
//     needs two distinct arms), so f_B compares with the other arms only;
//     it is an increasing affine function of the all-arm Borda score, so the
//     argmax is the same.
//   - Exact ties (every μ = 0 before the first observation, mirrored θ0) are
//     broken uniformly at random from the selection stream.
type AEBorda struct {
	pool   *Pool
	model  bordaModel
	conf   Confidence
	beta   float64
	rng    *rand.Rand
	scores []float64 // context scores
	ucb    []float64 // U(c_t, ·)
	lcb    []float64 // L(c_t, ·)
	ctxs   []int
	pending
}

// bordaModel is the estimator of the AE-Borda rule: a regression of the duel
// outcome on the first arm's features.
type bordaModel interface {
	// AddTarget records the outcome y ∈ {0, 1} of a duel won (1) or lost
	// by arm a of context c; the model regresses y − o.
	AddTarget(c, a int, y float64)
	// means returns μ − o for every pool row (read only).
	means() []float64
	Policy(dst []int) []int
	Score(dst, x []float64) []float64
}

func init() {
	Register("ae-borda", "AE-Borda (Mehta et al. 2023): ridge-regressed Borda function; context by max UCB − max LCB, UCB first arm, random second arm",
		func(env Env) (Learner, error) {
			conf := newLinearConfidence(env)
			return newAEBorda(env, newRidge(env), conf), nil
		})
	DeclareReads("ae-borda", "", ReadsFields(linearConfReads, []string{"beta", "borda-offset"}))
}

func newAEBorda(env Env, m bordaModel, conf Confidence) *AEBorda {
	return &AEBorda{
		pool: env.Pool, model: m, conf: conf, beta: env.Config.Beta,
		rng:    NewStream(env.Seed, streamSelect),
		scores: make([]float64, env.Pool.Contexts), ucb: make([]float64, env.Pool.Arms), lcb: make([]float64, env.Pool.Arms),
	}
}

// Select implements Learner: among the offered contexts and allowed pairs.
func (l *AEBorda) Select(o Offer) Query {
	K := l.pool.Arms
	mu := l.model.means()
	l.ctxs = o.ContextList(l.pool, l.ctxs)
	var c int
	if bc, ok := l.conf.(boundedConfidence); ok {
		c = l.ctxs[l.lazyContext(bc, mu)]
	} else {
		l.scores = resize(l.scores, len(l.ctxs))
		scores := l.scores
		for i, c := range l.ctxs {
			scores[i] = confidenceBounds(l.ucb, l.lcb, mu[c*K:(c+1)*K], l.conf, c, l.beta)
		}
		c = l.ctxs[ArgmaxRand(scores, -1, l.rng)]
	}
	confidenceBounds(l.ucb, l.lcb, mu[c*K:(c+1)*K], l.conf, c, l.beta)
	o.MaskFirstArm(c, l.ucb)
	a1 := ArgmaxRand(l.ucb, -1, l.rng)
	a2 := o.RandomPartner(c, a1, K, l.rng)
	return Query{Context: c, Arm1: a1, Arm2: a2}
}

// lazyContext is the context rule on a confidence state that solves blocks
// on demand: the same argmax (lazyArgmax's tie rule), solving only contexts
// whose score bound could win. With σ bounded above by stale norms, U is
// bounded above and L below, so max_a U − max_a L is bounded above.
func (l *AEBorda) lazyContext(conf boundedConfidence, mu []float64) int {
	K := l.pool.Arms
	var batch []int
	return lazyArgmax(len(l.ctxs), max(1, lazyBatchRows/K),
		func(i int) float64 {
			c := l.ctxs[i]
			maxU, maxL := math.Inf(-1), math.Inf(-1)
			for a, m := range mu[c*K : (c+1)*K] {
				w := l.beta * math.Sqrt(conf.RowNorm2Bound(c, a))
				maxU = max(maxU, m+w)
				maxL = max(maxL, m-w)
			}
			return maxU - maxL
		},
		func(idx []int, out []float64) {
			batch = batch[:0]
			for _, i := range idx {
				batch = append(batch, l.ctxs[i])
			}
			conf.Prepare(batch)
			for k, i := range idx {
				c := l.ctxs[i]
				out[k] = confidenceBounds(l.ucb, l.lcb, mu[c*K:(c+1)*K], conf, c, l.beta)
			}
		}, l.rng)
}

// Pend implements Pender: the first arm's row joins V before the answer.
func (l *AEBorda) Pend(q Query) {
	l.conf.AddRow(l.pool.Row(q.Context, q.Arm1))
	l.pending.add(q)
}

// Observe implements Learner: the first arm's row joins V (unless it was
// pending) and the regression with target 1[a_t ≻ b_t] − o.
func (l *AEBorda) Observe(q Query, y Feedback) {
	if !l.pending.take(q) {
		l.conf.AddRow(l.pool.Row(q.Context, q.Arm1))
	}
	l.model.AddTarget(q.Context, q.Arm1, float64(y))
}

// Policy implements Learner: argmax of the Borda estimate.
func (l *AEBorda) Policy(dst []int) []int { return l.model.Policy(dst) }

// Score implements Scorer: the Borda estimate μ (not a Bradley–Terry utility).
func (l *AEBorda) Score(dst, x []float64) []float64 { return l.model.Score(dst, x) }

// ridge is the linear Borda regression of ae-borda: θ̂ = V⁻¹ Σ x (y − o) with
// V = λI + Σ x xᵀ, refitted exactly (d×d Cholesky) after every observation.
type ridge struct {
	pool   *Pool
	offset float64
	v      *mat.SymDense
	b      []float64 // Σ x (y − o)
	theta  []float64
	rows   rowScores // θ̂ᵀx_n
	chol   mat.Cholesky
	// replaying defers the solve to the end of a replay (replay.go).
	replaying bool
}

func newRidge(env Env) *ridge {
	p := env.Pool
	v := mat.NewSymDense(p.Dim, nil)
	for i := range p.Dim {
		v.SetSym(i, i, env.Config.Lambda)
	}
	return &ridge{
		pool: p, offset: env.Config.BordaOffset, v: v,
		b: make([]float64, p.Dim), theta: make([]float64, p.Dim), rows: newRowScores(p, env.Seed),
	}
}

func (r *ridge) AddTarget(c, a int, y float64) {
	x := r.pool.Feature(c, a)
	d := r.pool.Dim
	for i := range d {
		for j := i; j < d; j++ {
			r.v.SetSym(i, j, r.v.At(i, j)+x[i]*x[j])
		}
	}
	floats.AddScaled(r.b, y-r.offset, x)
	if !r.replaying {
		r.solve()
	}
}

// solve sets θ̂ = V⁻¹b and the row scores.
func (r *ridge) solve() {
	d := r.pool.Dim
	// λ > 0 makes V positive definite; features of extreme scale can still
	// break the factorisation or the solve numerically: then θ̂ keeps its
	// previous value (numerics.go).
	if !r.chol.Factorize(r.v) {
		return
	}
	sol := make([]float64, d)
	if err := r.chol.SolveVecTo(mat.NewVecDense(d, sol), mat.NewVecDense(d, r.b)); !solveOK(err, sol) {
		return
	}
	copy(r.theta, sol)
	r.rows.refresh(r.score)
}

func (r *ridge) score(dst, x []float64) { linearScore(dst, x, r.theta) }

func (r *ridge) means() []float64 {
	r.rows.sync(r.score)
	return r.rows.S
}

func (r *ridge) Policy(dst []int) []int {
	r.rows.sync(r.score)
	return r.rows.policy(dst)
}

func (r *ridge) Score(dst, x []float64) []float64 {
	dst = linearScore(dst, x, r.theta)
	for i := range dst {
		dst[i] += r.offset
	}
	return dst
}
