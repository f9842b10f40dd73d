package algorithms

import "math"

// Neural-ADB with a Thompson-sampled context rule on a calibrated last-layer
// posterior (ours: a repair of eq. 3, see package experiments/lockon).
// The arm rule (eqs. 4 and 5 or 7) and the paper's V are unchanged; only c_t
// changes:
//
//	ṽ = v_t + ν̂ L z,  z ~ N(0, I_w),  L Lᵀ = P⁻¹          (a posterior draw, lastLayer)
//	f̃(c,a) = ṽᵀ e(x_{c,a}) = h(x_{c,a};θ_t) + ν̂ e(x_{c,a})ᵀ L z
//	c_t = argmax_c [max_a f̃(c,a) − f̃(c, π_t(c))]
//
// with π_t the current policy (eq. 8). Under the posterior, context c is chosen
// with the probability that it has the largest policy loss, that is, that it
// is the context of the worst sub-optimality gap (eq. 1): probability matching
// on the quantity the paper bounds. The draw is random, so the rule cannot
// lock on as eq. (3) does, yet it favours contexts whose policy may be badly
// wrong.
//
// ν̂ is not the paper's ν (which stays 1 in the arm rule): it is refitted after
// every retrain by maximising the prequential likelihood of all duels so far,
// each predicted by the model that chose it before training on it (fitNu2), so
// that the posterior's width matches how well the model has predicted answers
// it had not seen. RuleSigma2 exposes ν̂² (e_a − e_b)ᵀ P⁻¹ (e_a − e_b) for the
// calibration check of the lock-on study.
type NeuralADBTSCtx struct {
	*NeuralADB
	post       *lastLayer
	nu2        float64
	recM, recV []float64 // prequential records: h_win − h_lose and its variance
	policy     []int
	g          []float64
	loss       []float64
}

func init() {
	Register("neural-adb-tsctx-ucb", "ours: Neural-ADB's UCB arm rule; context by Thompson sampling of the largest policy loss on a last-layer posterior with ν fitted on held-out duels (repair of eq. 3)",
		func(env Env) (Learner, error) { return NewNeuralADBTSCtx(env, false) })
	Register("neural-adb-tsctx-ts", "ours: Neural-ADB's TS arm rule; context by Thompson sampling of the largest policy loss on a last-layer posterior with ν fitted on held-out duels (repair of eq. 3)",
		func(env Env) (Learner, error) { return NewNeuralADBTSCtx(env, true) })
	DeclareReads("neural-adb-tsctx-ucb", "", ReadsFields(neuralADBReads))
	DeclareReads("neural-adb-tsctx-ts", "", ReadsFields(neuralADBReads))
	// Only the context rule differs from the paper's learners, and a
	// passive twin never calls it.
	DeclarePassiveAs("neural-adb-tsctx-ucb", "neural-adb-ucb")
	DeclarePassiveAs("neural-adb-tsctx-ts", "neural-adb-ts")
}

// NewNeuralADBTSCtx builds the Thompson-sampled-context variant with the UCB or
// the TS arm rule.
func NewNeuralADBTSCtx(env Env, thompson bool) (*NeuralADBTSCtx, error) {
	b, err := NewNeuralADB(env, thompson, nil)
	if err != nil {
		return nil, err
	}
	l := &NeuralADBTSCtx{NeuralADB: b, nu2: 1, g: make([]float64, env.Config.Width), loss: make([]float64, env.Pool.Contexts)}
	l.post = newLastLayer(b.NeuralModel)
	b.ContextRule = func(_ *NeuralADB, o Offer) int { return l.sampledWorstContext(o) }
	return l, nil
}

// sampledWorstContext draws f̃ from the posterior and returns the offered
// context of the largest policy loss under it (the policy's arm and the best
// arm among all of the context's arms: the loss does not depend on which
// pairs may be asked).
func (l *NeuralADBTSCtx) sampledWorstContext(o Offer) int {
	w, K := l.post.w, l.Pool.Arms
	l.post.sampleDirection(l.g, l.Rng.NormFloat64)
	nu := math.Sqrt(l.nu2)
	l.policy = l.policyAll(l.policy)
	h := l.RowScores()
	l.post.embed(l.NeuralModel)
	l.ctxs = o.ContextList(l.Pool, l.ctxs)
	l.loss = resize(l.loss, len(l.ctxs))
	loss := l.loss
	for i, c := range l.ctxs {
		best, pi := math.Inf(-1), 0.0
		for a := range K {
			n := c*K + a
			f := h[n] + nu*plusDot(l.post.emb[n*w:(n+1)*w], l.g)
			best = max(best, f)
			if a == l.policy[c] {
				pi = f
			}
		}
		loss[i] = best - pi
	}
	return l.ctxs[ArgmaxRand(loss, -1, l.Rng)]
}

// Observe implements Learner: the duel is recorded for ν̂ before the network
// sees it, then V, the training data and the posterior are updated.
func (l *NeuralADBTSCtx) Observe(q Query, y Feedback) {
	win, lose := q.WinnerLoser(y)
	rw, rl := l.Pool.Row(q.Context, win), l.Pool.Row(q.Context, lose)
	h := l.RowScores()
	l.post.embed(l.NeuralModel)
	l.recM = append(l.recM, h[rw]-h[rl])
	l.recV = append(l.recV, l.post.var2(rw, rl))
	trains := l.Retrains()
	l.NeuralADB.Observe(q, y)
	if l.Retrains() > trains { // the network was retrained
		l.post.duels = append(l.post.duels, [2]int{rw, rl})
		l.post.rebuild(l.NeuralModel)
		l.nu2 = fitNu2(l.recM, l.recV)
		return
	}
	l.post.add(l.NeuralModel, rw, rl)
}

// RuleSigma2 returns ν̂² (e_a − e_b)ᵀ P⁻¹ (e_a − e_b), the variance of
// h_a − h_b under the rule's posterior.
func (l *NeuralADBTSCtx) RuleSigma2(c, a, b int) float64 {
	K := l.Pool.Arms
	l.post.embed(l.NeuralModel)
	return l.nu2 * l.post.var2(c*K+a, c*K+b)
}

// Nu2 returns the current ν̂².
func (l *NeuralADBTSCtx) Nu2() float64 { return l.nu2 }
