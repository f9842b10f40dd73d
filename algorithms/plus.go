package algorithms

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// PlusOptions are the switches of neural-adb-plus. DefaultPlusOptions is the
// configuration the learner runs with; Config.PlusAblate removes one
// ingredient at a time (plusOptions) for the ablation study.
type PlusOptions struct {
	// Lambdas is the grid of λ in (λ/2)‖θ − θ0‖² (+Inf: the linear part
	// alone); one model is trained per value.
	Lambdas []float64
	// LambdaU is the penalty (LambdaU/2)‖u‖² of the linear part uᵀx.
	LambdaU float64
	// NewtonIters bounds the Newton steps in u per retrain.
	NewtonIters int
	// Steps and LearningRate: Adam steps on θ per retrain; with
	// StepBudget > 0 a retrain on n duels takes
	// max(Steps, min(MaxSteps, StepBudget/n)) steps instead.
	Steps, StepBudget, MaxSteps int
	LearningRate                float64
	// PreqHalfLife is the discount of the prequential log-likelihood: a
	// duel's weight falls by 1/PreqHalfLife per later duel.
	PreqHalfLife float64
	// Temperature ranks the members by their discounted prequential
	// log-likelihood after a fitted temperature τ (which leaves the policy
	// unchanged); false ranks them by the raw one.
	Temperature bool
	// Average replaces the best member by the average of all members,
	// weighted by exp(criterion), on its scale (plusModel.average).
	Average bool
	// Fisher weights every duel of the posterior's curvature by the
	// Bradley–Terry Fisher information μ'(h_a − h_b); false uses its
	// largest value 1/4 for every duel.
	Fisher bool
	// FitNu refits ν̂ on the prequential records after every retrain;
	// false keeps ν̂ = 1.
	FitNu bool
	// KG chooses among the candidate duels by the pool-wide knowledge
	// gradient; false by each duel's own expected improvement.
	KG bool
	// Candidates is the number of offered contexts drawn uniformly per round
	// among which the duel is chosen (0: every offered context).
	Candidates int
	// Explore is the probability of a random duel instead: a uniformly
	// random candidate context and a uniformly random allowed pair in it.
	Explore float64
}

// DefaultPlusOptions returns the configuration of neural-adb-plus.
func DefaultPlusOptions() PlusOptions {
	return PlusOptions{
		Lambdas: []float64{1, 10, 100, math.Inf(1)}, LambdaU: 1, NewtonIters: 3,
		Steps: 25, StepBudget: 12500, MaxSteps: 200, LearningRate: 1e-3, PreqHalfLife: 200,
		Temperature: true, Average: true, Fisher: true, FitNu: true, KG: true, Candidates: 32, Explore: 0.1,
	}
}

// plusOptions returns DefaultPlusOptions with the ingredient a removed;
// lambda is the single λ of PlusFixedLambda (Config.Lambda).
func plusOptions(a PlusAblation, lambda float64) PlusOptions {
	o := DefaultPlusOptions()
	switch a {
	case PlusFixedLambda:
		o.Lambdas = []float64{lambda}
	case PlusRawLikelihood:
		o.Temperature = false
	case PlusNoAverage:
		o.Average = false
	case PlusNoStepBudget:
		o.StepBudget = 0
	case PlusNoFisher:
		o.Fisher = false
	case PlusNoNuFit:
		o.FitNu = false
	case PlusNoKG:
		o.KG = false
	case PlusNoRandomDuels:
		o.Explore = 0
	}
	return o
}

// NeuralADBPlus is neural-adb-plus (ours; plus_doc.go describes it).
type NeuralADBPlus struct {
	pool  *Pool
	cfg   Config
	opt   PlusOptions
	model *plusModel
	post  *plusPosterior
	rng   *rand.Rand

	// Per-row state in step with the pool (Pool.Generation): rows below
	// done belong to committed contexts and are current.
	gen     uint64
	done    int
	prio    []int32
	prioRng *rand.Rand

	armScratch []float64
	ctxScratch []float64
	ctxs       []int
	candBuf    []int
	asked      map[[3]int]bool // (context, arm, arm) pairs asked so far
	pend       pending         // queries in the posterior before their answers (Pend)
	pendRows   [][2]int
	kgWS       kgScratch
	replay     replaySchedule // the schedule while replaying a log (replay.go)
	trainedAt  int            // answers at the last retrain
}

func init() {
	Register("neural-adb-plus", "ours: linear part + MLP, λ members averaged by prequential likelihood, calibrated last-layer Laplace posterior, pool-wide knowledge-gradient duel choice",
		func(env Env) (Learner, error) {
			return NewNeuralADBPlus(env, plusOptions(env.Config.PlusAblate, env.Config.Lambda))
		})
	DeclareReads("neural-adb-plus", "-lambda only with -plus-ablate fixed-lambda; its other settings are fixed (go doc algorithms.DefaultPlusOptions)",
		func(c Config) []string {
			r := []string{"depth", "width", "retrain-every", "plus-ablate"}
			if c.PlusAblate == PlusFixedLambda {
				r = append(r, "lambda")
			}
			return r
		})
}

func errPlus(format string, args ...any) error {
	return fmt.Errorf("algorithms: neural-adb-plus: "+format, args...)
}

// NewNeuralADBPlus builds the learner with the given options.
func NewNeuralADBPlus(env Env, opt PlusOptions) (*NeuralADBPlus, error) {
	if len(opt.Lambdas) == 0 {
		return nil, errPlus("no λ in the grid")
	}
	for _, l := range opt.Lambdas {
		if !(l > 0) {
			return nil, errPlus("λ grid values must be positive (+Inf: the linear part alone), got %v", l)
		}
	}
	if !(opt.LambdaU > 0) {
		return nil, errPlus("LambdaU must be positive, got %v", opt.LambdaU)
	}
	m, err := newPlusModel(env, opt)
	if err != nil {
		return nil, err
	}
	p := env.Pool
	prioRng := NewStream(env.Seed, streamPolicy)
	l := &NeuralADBPlus{
		pool: p, cfg: env.Config, opt: opt, model: m,
		post:       newPlusPosterior(p, env.Config.Width),
		rng:        NewStream(env.Seed, streamSelect),
		prio:       tiePriority(p.Rows(), prioRng),
		prioRng:    prioRng,
		armScratch: make([]float64, p.Arms),
		asked:      map[[3]int]bool{},
		gen:        p.Generation(),
		done:       p.Committed() * p.Arms,
	}
	l.post.rebuild(m.Current(), opt.LambdaU, nil, l.fisher)
	return l, nil
}

// fisher returns the curvature weight of a duel with margin x: μ'(x), or
// 1/4 without Options.Fisher.
func (l *NeuralADBPlus) fisher(x float64) float64 {
	if !l.opt.Fisher {
		return 0.25
	}
	return plusDsigmoid(x)
}

// sync brings the per-row state up to date with the pool (committed contexts
// added, fresh ones replaced; see Pool): the members' scores, the averaged
// scores, the posterior features and blocks, and the tie-break priorities of
// the rows that changed. It does nothing on a fixed pool.
func (l *NeuralADBPlus) sync() {
	p := l.pool
	if p.Generation() == l.gen {
		return
	}
	l.gen = p.Generation()
	rows, committed := p.Rows(), p.Committed()*p.Arms
	for len(l.prio) < rows {
		l.prio = append(l.prio, int32(l.prioRng.Uint32()>>1))
	}
	lo := min(l.done, rows)
	l.model.grow(rows)
	l.model.evalRows(lo, rows)
	l.post.grow()
	l.post.evalRows(lo/p.Arms, p.Contexts)
	l.done = committed
}

// Select implements Learner: Candidates offered contexts are drawn, then
// selectFrom applies the rules.
func (l *NeuralADBPlus) Select(o Offer) Query {
	l.sync()
	l.ctxs = o.ContextList(l.pool, l.ctxs)
	C := len(l.ctxs)
	n := l.opt.Candidates
	l.candBuf = l.candBuf[:0]
	if n <= 0 || n >= C {
		l.candBuf = append(l.candBuf, l.ctxs...)
	} else {
		for _, i := range l.rng.Perm(C)[:n] {
			l.candBuf = append(l.candBuf, l.ctxs[i])
		}
	}
	return l.selectFrom(l.candBuf, o)
}

// Pend implements Pender: the duel joins the posterior's curvature now (it
// depends on which duel is asked, not on its answer), so that the next
// query of a batch accounts for what this one will teach. In the
// fresh-context reading, where a pending duel's context is dropped or moved
// at the next commit, it does nothing.
func (l *NeuralADBPlus) Pend(q Query) {
	if l.pool.Fresh() > 0 {
		return
	}
	l.sync()
	ra, rb := l.pool.Row(q.Context, q.Arm1), l.pool.Row(q.Context, q.Arm2)
	hm := l.post.mb.h
	l.post.add(ra, rb, l.fisher(hm[ra]-hm[rb]))
	l.pend.add(q)
	l.pendRows = append(l.pendRows, [2]int{ra, rb})
}

// Observe implements Learner: the duel is scored prequentially, added to the
// posterior (unless it was pending) and to the training data; every
// Config.RetrainEvery duels the members are retrained and averaged, the
// posterior rebuilt and ν̂ refitted.
func (l *NeuralADBPlus) Observe(q Query, y Feedback) {
	l.sync()
	win, lose := q.WinnerLoser(y)
	rw, rl := l.pool.Row(q.Context, win), l.pool.Row(q.Context, lose)
	h := l.model.H()
	// A duel whose context and arm pair were asked before is no test of
	// generalisation (a replayed answer is known): only new ones are scored.
	key := [3]int{q.Context, min(win, lose), max(win, lose)}
	fresh := !l.asked[key]
	l.asked[key] = true
	if fresh {
		l.post.record(rw, rl, h)
	}
	l.model.Record(rw, rl, fresh)
	if l.pend.take(q) {
		l.dropPending(rw, rl)
	} else {
		hm := l.post.mb.h // the Fisher weight of the member the posterior is of
		l.post.add(rw, rl, l.fisher(hm[rw]-hm[rl]))
	}
	if len(l.model.duels)%l.cfg.RetrainEvery == 0 && l.replay.due(len(l.model.duels)) {
		l.retrain()
	}
}

// retrain retrains the model family and rebuilds the posterior at it.
func (l *NeuralADBPlus) retrain() {
	l.model.Train()
	l.trainedAt = len(l.model.duels)
	l.post.rebuild(l.model.Current(), l.opt.LambdaU, l.posteriorDuels(), l.fisher)
	if l.opt.FitNu {
		l.post.fitNu(1 - 1/l.opt.PreqHalfLife)
	}
}

// dropPending removes one pending duel of rows {a, b} (now answered).
func (l *NeuralADBPlus) dropPending(a, b int) {
	for i, r := range l.pendRows {
		if (r[0] == a && r[1] == b) || (r[0] == b && r[1] == a) {
			l.pendRows = append(l.pendRows[:i], l.pendRows[i+1:]...)
			return
		}
	}
}

// posteriorDuels returns the duels of the posterior's curvature: the
// answered ones and the pending ones.
func (l *NeuralADBPlus) posteriorDuels() [][2]int {
	out := make([][2]int, 0, len(l.model.duels)+len(l.pendRows))
	for _, d := range l.model.duels {
		out = append(out, [2]int{d.Win, d.Lose})
	}
	return append(out, l.pendRows...)
}

// Policy implements Learner: π(c) = argmax_a h̄(x_{c,a}) for every committed
// context.
func (l *NeuralADBPlus) Policy(dst []int) []int {
	l.sync()
	return PolicyFromScores(dst, l.pool.Committed(), l.pool.Arms, l.model.H(), l.prio)
}

// RowScores implements Scorer's row form: h̄ of every pool row (read only).
func (l *NeuralADBPlus) RowScores() []float64 {
	l.sync()
	return l.model.H()
}

// Score implements Scorer: the calibrated average Σ_λ w_λ τ_λ h_λ(x).
func (l *NeuralADBPlus) Score(dst, x []float64) []float64 { return l.model.score(dst, x) }

// Scores returns the calibrated utility estimates τ̂h̄(x_{c,a}) of the arms of
// context c (τ̂ fitted with ν̂; a fresh slice).
func (l *NeuralADBPlus) Scores(c int) []float64 {
	l.sync()
	K := l.pool.Arms
	h := l.model.H()[c*K : (c+1)*K]
	out := make([]float64, K)
	for a := range out {
		out[a] = l.post.tau * h[a]
	}
	return out
}

// RuleSigma2 returns the posterior variance of τ̂(h_a − h_b) in context c,
// τ̂²ν̂²(z_a − z_b)ᵀΣ(z_a − z_b): with Scores, what a calibration check of
// the learner's uncertainty reads.
func (l *NeuralADBPlus) RuleSigma2(c, a, b int) float64 {
	l.sync()
	return l.post.tau * l.post.tau * l.post.nu2 * l.post.var2(c, a, b)
}
