package algorithms

import (
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/neural-adb/nadb/internal/gram"
	"github.com/neural-adb/nadb/internal/logistic"
)

// LinearBT is the linear Bradley–Terry reward model r(x) = θᵀx on the raw
// pool features, the estimator of the linear baselines (random, apo, ae-dpo).
// After every Config.RetrainEvery duels it refits θ by minimising the
// penalised negative log-likelihood
//
//	L(θ) = Σ_s −log μ(θᵀ(x_{s,w} − x_{s,l})) + (λ/2)‖θ‖²,   λ = Config.Lambda,
//
// with at most Config.MLEIters damped Newton iterations warm-started from the
// previous θ (backtracking on L, so every accepted step decreases it; L is
// strictly convex for λ > 0, so the iterates converge to the unique
// minimiser). The penalised MLE stands in for the norm-constrained MLE of the
// linear analyses (Das et al. 2024); the text fixes neither.
//
// The differences z_s = x_w − x_l are kept sparse (their non-zero entries
// only): with features that encode each arm in a block of its own, as
// Shuttle and most pools of one's own do, a difference has two blocks of
// d/K non-zeros, and a Newton step costs Σ_s nnz_s² for the Hessian instead
// of n·d². Every sum adds the same non-zero terms in the same order as the
// dense computation (the dot products follow floats.Dot's summation order,
// sparsedot*.go), and a zero term leaves a floating-point sum unchanged, so
// the fit is bit for bit the dense one's (TestLinearBTSparseMatchesDense).
//
// LinearBT is not safe for concurrent use.
type LinearBT struct {
	Pool *Pool
	// Theta is θ̂ after the latest refit (zero before the first).
	Theta []float64

	lambda float64
	iters  int
	every  int
	// Duel differences x_w − x_l: the non-zero entries of duel s are
	// zIdx[zPtr[s]:zPtr[s+1]] (increasing) with values zVal[…].
	zPtr []int
	zIdx []int32
	zVal []float64
	rows rowScores // θ̂ᵀx_n for every pool row, refreshed at every refit
	// Newton workspace.
	grad, step, trial, w []float64
	hacc                 []float64 // upper triangle of Σ w_s z_s z_sᵀ, row-major d×d
	hess                 *mat.SymDense
	chol                 mat.Cholesky
	lastIters            int
	// While replaying a log (replay.go): the schedule to restore and the
	// duels before the replay.
	replayEvery, replayFrom int
}

// NewLinearBT returns the model at θ = 0 for env's pool and config; policy
// ties are broken by priorities drawn from stream 4 of env.Seed.
func NewLinearBT(env Env) *LinearBT {
	p := env.Pool
	d := p.Dim
	return &LinearBT{
		Pool: p, Theta: make([]float64, d), rows: newRowScores(p, env.Seed),
		lambda: env.Config.Lambda, iters: env.Config.MLEIters, every: env.Config.RetrainEvery,
		grad: make([]float64, d), step: make([]float64, d), trial: make([]float64, d),
		hess: mat.NewSymDense(d, nil), zPtr: []int{0},
	}
}

// AddDuel records that arm win beat arm lose in context c, and refits every
// RetrainEvery duels.
func (m *LinearBT) AddDuel(c, win, lose int) {
	m.addDifference(m.Pool.Feature(c, win), m.Pool.Feature(c, lose))
	if m.Duels()%m.every == 0 {
		m.Fit()
	}
}

// addDifference records the duel difference xw − xl (its non-zeros).
func (m *LinearBT) addDifference(xw, xl []float64) {
	for i := range xw {
		if v := xw[i] - xl[i]; v != 0 {
			m.zIdx = append(m.zIdx, int32(i))
			m.zVal = append(m.zVal, v)
		}
	}
	m.zPtr = append(m.zPtr, len(m.zIdx))
}

// Duels returns the number of recorded duels.
func (m *LinearBT) Duels() int { return len(m.zPtr) - 1 }

// duel returns the non-zero entries of duel s's difference.
func (m *LinearBT) duel(s int) ([]int32, []float64) {
	a, b := m.zPtr[s], m.zPtr[s+1]
	return m.zIdx[a:b], m.zVal[a:b]
}

// Loss returns L(θ).
func (m *LinearBT) Loss(theta []float64) float64 {
	l := 0.0
	for s := range m.Duels() {
		idx, val := m.duel(s)
		l += logistic.Softplus(-sparseDot(theta, idx, val))
	}
	return l + m.lambda/2*floats.Dot(theta, theta)
}

// GradientTo writes ∇L(θ) into dst and returns it.
func (m *LinearBT) GradientTo(dst, theta []float64) []float64 {
	d := m.Pool.Dim
	if dst == nil {
		dst = make([]float64, d)
	}
	for i := range dst {
		dst[i] = m.lambda * theta[i]
	}
	for s := range m.Duels() {
		idx, val := m.duel(s)
		g := -logistic.Sigmoid(-sparseDot(theta, idx, val)) // d/du of −log μ(u)
		for k, i := range idx {
			dst[i] += g * val[k]
		}
	}
	return dst
}

// lossResolution is the relative rounding error below which LinearBT's fit
// no longer trusts a comparison of two values of the loss (a sum over the
// duels): 1e-14 of its size, about 45 units in the last place.
const lossResolution = 1e-14

// Fit runs the Newton iterations from the current θ and refreshes Scores. It
// returns the number of iterations taken: fewer than MLEIters once the
// Newton decrement gᵀH⁻¹g falls below 2e-20 (machine precision), or stops
// falling. Steps are damped by backtracking on L while L can resolve the
// decrease the Armijo test asks for (10⁻⁴ of the decrement above
// lossResolution·|L|); closer to the minimiser than that, full Newton steps,
// which converge quadratically there.
func (m *LinearBT) Fit() int {
	d := m.Pool.Dim
	n := m.Duels()
	if cap(m.w) < n {
		m.w = make([]float64, n, 2*n)
	}
	it := 0
	if m.hacc == nil {
		m.hacc = make([]float64, d*d)
	}
	pure := false // full Newton steps, once the loss cannot judge a step
	prev := math.Inf(1)
	for ; it < m.iters; it++ {
		// Gradient and Hessian λI + Σ μ(1−μ) z zᵀ at θ: each entry sums
		// the duels' non-zero terms in duel order.
		w := m.w[:n]
		clear(m.hacc)
		for s := range n {
			idx, val := m.duel(s)
			p := logistic.Sigmoid(sparseDot(m.Theta, idx, val))
			w[s] = p * (1 - p)
			for a, i := range idx {
				wi := w[s] * val[a]
				row := m.hacc[int(i)*d:]
				for b := a; b < len(idx); b++ {
					row[idx[b]] += wi * val[b]
				}
			}
		}
		m.GradientTo(m.grad, m.Theta)
		for i := range d {
			for j := i; j < d; j++ {
				v := m.hacc[i*d+j]
				if i == j {
					v += m.lambda
				}
				m.hess.SetSym(i, j, v)
			}
		}
		// λ > 0 makes the Hessian positive definite; features of extreme
		// scale can still break the factorisation or the solve numerically:
		// then θ stays where it is (numerics.go).
		if !m.chol.Factorize(m.hess) {
			break
		}
		g := mat.NewVecDense(d, m.grad)
		dir := mat.NewVecDense(d, m.step)
		if err := m.chol.SolveVecTo(dir, g); !solveOK(err, m.step) {
			break
		}
		decr := floats.Dot(m.grad, m.step) // gᵀH⁻¹g
		if decr/2 < 1e-20 || (pure && !(decr < prev)) {
			break // at machine precision, or the decrement no longer falls
		}
		prev = decr
		if pure {
			floats.Sub(m.Theta, m.step)
			continue
		}
		// Backtracking (Armijo) along −H⁻¹g, while the loss can resolve the
		// decrease it asks for; below that the loss's rounding would decide
		// (the fit crawled for every remaining iteration on large answer
		// sets), and full Newton steps converge quadratically instead.
		l0 := m.Loss(m.Theta)
		if 1e-4*decr <= lossResolution*math.Abs(l0) {
			pure = true
			floats.Sub(m.Theta, m.step)
			continue
		}
		t := 1.0
		accepted := false
		for range 60 {
			for i := range m.trial {
				m.trial[i] = m.Theta[i] - t*m.step[i]
			}
			if m.Loss(m.trial) <= l0-1e-4*t*decr {
				accepted = true
				break
			}
			t /= 2
		}
		if !accepted {
			break // no decrease representable along the Newton direction: θ is the minimiser to rounding
		}
		copy(m.Theta, m.trial)
	}
	m.lastIters = it
	m.refreshScores()
	return it
}

func (m *LinearBT) refreshScores() { m.rows.refresh(m.score) }

func (m *LinearBT) score(dst, x []float64) { linearScore(dst, x, m.Theta) }

// RowScores returns θ̂ᵀx_n for every pool row (read only).
func (m *LinearBT) RowScores() []float64 {
	m.rows.sync(m.score)
	return m.rows.S
}

// Policy writes argmax_a θ̂ᵀx_{c,a} for every committed context into dst.
func (m *LinearBT) Policy(dst []int) []int {
	m.rows.sync(m.score)
	return m.rows.policy(dst)
}

// Score writes θ̂ᵀx for the rows of x into dst (Scorer).
func (m *LinearBT) Score(dst, x []float64) []float64 {
	return linearScore(dst, x, m.Theta)
}

// linearScore writes θᵀx_r for the rows x_r of x.
func linearScore(dst, x, theta []float64) []float64 {
	d := len(theta)
	rows := len(x) / d
	if len(x) != rows*d {
		panic("algorithms: Score input is not a whole number of rows")
	}
	if dst == nil {
		dst = make([]float64, rows)
	}
	for r := range rows {
		dst[r] = floats.Dot(theta, x[r*d:(r+1)*d])
	}
	return dst
}

// duelModel is the estimator half of a learner trained on duels: LinearBT
// and NeuralModel. A selection rule that only needs duels and a policy is
// written once against it and registered with either estimator.
type duelModel interface {
	AddDuel(c, win, lose int)
	Policy(dst []int) []int
	Score(dst, x []float64) []float64
}

// newLinearConfidence returns the exact confidence state of the linear
// baselines: V = λI + Σψψᵀ on the raw features — by the kernel route
// (gram.Linear) on a fixed pool, with V⁻¹ kept explicitly (gram.Primal, d×d)
// when the pool has fresh contexts.
func newLinearConfidence(env Env) Confidence {
	p := env.Pool
	if p.Fresh() > 0 {
		d := p.Dim
		return gram.NewPrimal(d, p.Arms, env.Config.Lambda, func(n int) []float64 { return p.RowTo(nil, n) })
	}
	conf := gram.New(gram.NewCached(&gram.Linear{X: p.RowsTo(nil, 0, p.Rows()), Dim: p.Dim}), p.Contexts, p.Arms, env.Config.Lambda)
	conf.RefreshEvery = env.Config.RefreshEvery
	return conf
}

// confidenceBounds writes means[a] ± β‖x_{c,a}‖_{V⁻¹} for the arms of context c
// into upper and lower and returns max_a upper − max_a lower, the context
// score of AE-Borda and AE-DPO. means holds the K estimates of context c.
func confidenceBounds(upper, lower, means []float64, conf Confidence, c int, beta float64) float64 {
	maxU, maxL := math.Inf(-1), math.Inf(-1)
	for a, m := range means {
		w := beta * math.Sqrt(conf.RowNorm2(c, a))
		upper[a], lower[a] = m+w, m-w
		maxU = max(maxU, upper[a])
		maxL = max(maxL, lower[a])
	}
	return maxU - maxL
}
