package realdata

import (
	"fmt"
	"slices"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
)

// scorerLearner adapts a Scorer to the Learner argument of experiments.ExtraEvaluator.
type scorerLearner struct {
	algorithms.Learner // nil: only Score is called
	algorithms.Scorer
}

// Reference is the level a non-learner reaches on a real-data problem: its
// value of every extra column of the problem's evaluator, per seed.
type Reference struct {
	Name   string
	Values [][]float64 // [seed−1][column]
}

// ReferenceNote says what the references are, for the tables that show them.
const ReferenceNote = "The linear reference sees every training answer once (CEMS: all strict answers of the training students; Shuttle: for every pool sample, the true class beating each other class, noise-free), so it bounds what the linear learners can reach from a T-duel budget of actively chosen, noisy answers."

// References returns, for seeds 1..seeds of the real-data problem p (cems
// or shuttle), the extra columns of its evaluator and the levels of
// references that are not active learners: the linear Bradley–Terry MLE
// fitted passively to all training information at once, a constant model,
// and (shuttle) the majority class.
func References(p experiments.ProblemSpec, seeds int) (cols []string, refs []Reference, err error) {
	index := map[string]int{}
	add := func(name string, v []float64) {
		i, ok := index[name]
		if !ok {
			i = len(refs)
			index[name] = i
			refs = append(refs, Reference{Name: name})
		}
		refs[i].Values = append(refs[i].Values, v)
	}
	for seed := 1; seed <= seeds; seed++ {
		prob, err := p.Build(uint64(seed))
		if err != nil {
			return nil, nil, err
		}
		ev, ok := prob.Evaluator.(experiments.ExtraEvaluator)
		if !ok {
			return nil, nil, fmt.Errorf("realdata: problem %s has no held-out columns", p.Name)
		}
		cols = ev.ExtraColumns()
		cfg := algorithms.Default()
		cfg.RetrainEvery, cfg.MLEIters = 1<<30, 100
		m := algorithms.NewLinearBT(algorithms.Env{Pool: prob.Pool, Config: cfg, Seed: uint64(seed)})
		K := prob.Pool.Arms
		switch e := prob.Evaluator.(type) {
		case *cemsEvaluator:
			for _, a := range e.replay.Answers.Strict() {
				if a.Y == 1 {
					m.AddDuel(a.Context, a.Arm1, a.Arm2)
				} else {
					m.AddDuel(a.Context, a.Arm2, a.Arm1)
				}
			}
		case *shuttleEvaluator:
			for c := range prob.Pool.Contexts {
				y := slices.Index(e.F[c*K:(c+1)*K], slices.Max(e.F[c*K:(c+1)*K]))
				for a := range K {
					if a != y {
						m.AddDuel(c, y, a)
					}
				}
			}
		}
		m.Fit()
		add("linear BT fitted to all training information at once (λ = 1)", ev.Extra(nil, scorerLearner{Scorer: m}))
		if e, ok := prob.Evaluator.(*cemsEvaluator); ok {
			// The same without covariates: school indicators only (a
			// population ranking of the schools).
			K, d := prob.Pool.Arms, prob.Pool.Dim
			x := make([]float64, prob.Pool.Rows()*K)
			for n := range prob.Pool.Rows() {
				copy(x[n*K:(n+1)*K], prob.Pool.X[n*d:n*d+K])
			}
			sub, err := algorithms.NewPool(prob.Pool.Contexts, K, K, x)
			if err != nil {
				return nil, nil, err
			}
			ms := algorithms.NewLinearBT(algorithms.Env{Pool: sub, Config: cfg, Seed: uint64(seed)})
			for _, a := range e.replay.Answers.Strict() {
				if a.Y == 1 {
					ms.AddDuel(a.Context, a.Arm1, a.Arm2)
				} else {
					ms.AddDuel(a.Context, a.Arm2, a.Arm1)
				}
			}
			ms.Fit()
			add("the same on school indicators only (no covariates: a population ranking)", ev.Extra(nil, scorerLearner{Scorer: projected{ms, d, K}}))
		}
		add("constant model (every arm scored alike)", ev.Extra(nil, scorerLearner{Scorer: constRows{prob.Pool.Dim}}))
		if p.Name == "shuttle" {
			add("majority class (Rad.Flow) always", ev.Extra(nil, scorerLearner{Scorer: majority{}}))
		}
	}
	return cols, refs, nil
}

// projected scores rows of dim features with a scorer of their first k.
type projected struct {
	s      algorithms.Scorer
	dim, k int
}

func (p projected) Score(dst, x []float64) []float64 {
	n := len(x) / p.dim
	y := make([]float64, n*p.k)
	for i := range n {
		copy(y[i*p.k:(i+1)*p.k], x[i*p.dim:i*p.dim+p.k])
	}
	return p.s.Score(dst, y)
}

// constRows scores every row of dim features 0.
type constRows struct{ dim int }

func (c constRows) Score(dst, x []float64) []float64 { return make([]float64, len(x)/c.dim) }

// majority scores the first shuttle class (Rad.Flow, the majority) 1 and the
// others 0; rows have 7 blocks of 10 features and hold their arm's block.
type majority struct{}

func (majority) Score(dst, x []float64) []float64 {
	const dim = 70
	out := make([]float64, len(x)/dim)
	for n := range out {
		if n%7 == 0 {
			out[n] = 1
		}
	}
	return out
}
