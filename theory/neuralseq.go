package theory

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/mlp"
)

// NeuralSequence is the sequence a Neural-ADB learner actually queries on a
// synthetic problem: z_s = ψ_s = φ(c_s, winner) − φ(c_s, loser) with
// φ = g(·;θ0)/√w the θ0-gradient features, as explicit p-vectors (via
// mlp.Features.GradientTo). Meant for reduced scales where p×p
// eigen-decompositions are cheap (DefaultNeuralSequence: p = 112); the paper
// scale is covered by PaperScale through the kernel route.
type NeuralSequence struct {
	Algorithm string // a registered learner built on algorithms.NeuralADB
	Problem   experiments.ProblemSpec
	Config    algorithms.Config
}

// DefaultNeuralSequence returns the reduced-scale setting: Square, d = 5,
// K = 5, 30 contexts, width 8 (p = 112), the project's defaults otherwise.
func DefaultNeuralSequence(algorithm string) NeuralSequence {
	cfg := algorithms.Default()
	cfg.Width = 8
	return NeuralSequence{
		Algorithm: algorithm,
		Problem:   experiments.ProblemSpec{Name: "square", Dim: 5, Arms: 5, Contexts: 30, Theta: "sphere"},
		Config:    cfg,
	}
}

func (g NeuralSequence) arch() mlp.Arch {
	return g.Config.Arch(g.Problem.Dim)
}

func (g NeuralSequence) Name() string { return g.Algorithm }
func (g NeuralSequence) Dim() int     { return g.arch().NumParams() }
func (g NeuralSequence) Doc() GeneratorDoc {
	pb := g.Problem
	return GeneratorDoc{
		Rule: fmt.Sprintf("the pairs %s queries on %s (d=%d, K=%d, %d contexts, width %d, p=%d): z_s = φ(c_s,win) − φ(c_s,lose)",
			g.Algorithm, pb.Name, pb.Dim, pb.Arms, pb.Contexts, g.Config.Width, g.Dim()),
		Z:        "the pool's feature differences {φ(c,a) − φ(c,b)} (the Z of Theorems 2 and 3)",
		Sigma:    "given F_{s−1} (past answers and the learner's tie-break draws) the pair is fixed, and zzᵀ does not see the answer's sign: Σ_s = z_s z_sᵀ",
		SigmaMax: "L²·I, the least scalar upper bound over Z; L²·P_S (S = span Z, a proper subspace under the mirrored θ0) is also valid and has λmin = 0",
		SigmaMin: "0 (Σ_s is rank one): the repaired statement is vacuous",
	}
}

// neuralInstance is a built problem, learner, and the θ0 features.
type neuralInstance struct {
	prob    *experiments.Problem
	learner *algorithms.NeuralADB
	feat    *mlp.Features // φ = g(·;θ0)/√w
}

func newNeuralInstance(alg string, spec experiments.ProblemSpec, cfg algorithms.Config, seed uint64) (*neuralInstance, error) {
	if cfg.FeatureNorm != algorithms.FeatureAsDefined {
		return nil, fmt.Errorf("theory: feature-norm %q: the theorem checks use the paper's unnormalised features", cfg.FeatureNorm)
	}
	prob, err := spec.Build(seed)
	if err != nil {
		return nil, err
	}
	l, err := algorithms.New(alg, algorithms.Env{Pool: prob.Pool, Config: cfg, Seed: seed})
	if err != nil {
		return nil, err
	}
	n, ok := l.(*algorithms.NeuralADB)
	if !ok || n.Conf == nil {
		return nil, fmt.Errorf("theory: %s is not a Neural-ADB learner with an exact confidence state", alg)
	}
	// Nothing has been trained yet: the learner's network is at θ0.
	feat := n.Net.Clone().NewFeatures(prob.Pool.RowsTo(nil, 0, prob.Pool.Rows()), 1/float64(cfg.Width))
	return &neuralInstance{prob: prob, learner: n, feat: feat}, nil
}

// pairDifferences returns every φ(c,a) − φ(c,b), a < b, as rows.
func pairDifferences(phi *mat.Dense, contexts, arms int) *mat.Dense {
	_, p := phi.Dims()
	pairs := arms * (arms - 1) / 2
	z := mat.NewDense(contexts*pairs, p, nil)
	r := 0
	for c := range contexts {
		for a := range arms {
			for b := a + 1; b < arms; b++ {
				row := z.RawRowView(r)
				pa, pb := phi.RawRowView(c*arms+a), phi.RawRowView(c*arms+b)
				for k := range row {
					row[k] = pa[k] - pb[k]
				}
				r++
			}
		}
	}
	return z
}

func (g NeuralSequence) Generate(seed uint64, T int, lambda float64) (*Sequence, error) {
	if T < 1 {
		return nil, fmt.Errorf("%s: T = %d must be positive", g.Name(), T)
	}
	if want := g.Config.Lambda / g.Config.Kappa; lambda != want {
		return nil, fmt.Errorf("%s: the learner's V_0 is (λ/κ)·I = %g·I; run the check with λ = %g, not %g", g.Name(), want, want, lambda)
	}
	in, err := newNeuralInstance(g.Algorithm, g.Problem, g.Config, seed)
	if err != nil {
		return nil, err
	}
	p := g.Dim()
	pool := in.prob.Pool
	phi := mat.NewDense(pool.Rows(), p, nil)
	for i := range pool.Rows() {
		in.feat.GradientTo(phi.RawRowView(i), i)
	}
	sup := Finite{Points: pairDifferences(phi, pool.Contexts, pool.Arms), Label: "pool feature differences"}
	L := sup.Radius()
	z := mat.NewDense(T, p, nil)
	err = experiments.Loop(context.Background(), in.learner, in.prob, 0, T, experiments.Hooks{Observed: func(t int, q algorithms.Query, y algorithms.Feedback) error {
		win, lose := q.WinnerLoser(y)
		row := z.RawRowView(t - 1)
		pw, pl := phi.RawRowView(pool.Row(q.Context, win)), phi.RawRowView(pool.Row(q.Context, lose))
		for k := range row {
			row[k] = pw[k] - pl[k]
		}
		return nil
	}})
	if err != nil {
		return nil, err
	}
	return &Sequence{Z: z, Sigma: func(s int) *mat.SymDense { return outer(z.RawRowView(s - 1)) },
		Hyp: Hypotheses{L: L, SigmaMax: scaledIdentity(p, L*L), Support: sup}}, nil
}
