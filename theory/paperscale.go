package theory

import (
	"context"
	"fmt"
	"math"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/gram"
	"github.com/neural-adb/nadb/internal/par"
	"github.com/neural-adb/nadb/internal/stats"
)

// PaperScaleOptions configures PaperScale: learners run on the paper's
// synthetic problem with the paper's network, and d̃ (eq. 9) and the
// Theorem 1 quantities on the pool's finite Z are computed exactly along the
// way through the kernel route (no p×p matrix).
type PaperScaleOptions struct {
	Problem    experiments.ProblemSpec
	Config     algorithms.Config
	Algorithms []string // Neural-ADB learners (algorithms.NeuralADB)
	T          []int    // checkpoints, strictly increasing, each < p
	Seeds      int
	FirstSeed  uint64
	Delta      float64
	Level      float64
	// SlopePoints: slopes are fitted on the largest this many checkpoints.
	SlopePoints int
	Workers     int // 0: GOMAXPROCS; results do not depend on it
}

// DefaultPaperScaleOptions is the paper's setting (Square, d = 20, K = 10,
// 300 contexts, width 50, p = 3,550, T up to 1000) for Neural-ADB as written
// and with random contexts, 10 seeds (quick: T ≤ 200, 2 seeds).
func DefaultPaperScaleOptions(quick bool) PaperScaleOptions {
	o := PaperScaleOptions{
		Problem:    experiments.DefaultProblem(),
		Config:     algorithms.Default(),
		Algorithms: []string{"neural-adb-ucb", "neural-adb-ucb-randctx"},
		T:          []int{10, 20, 50, 100, 200, 500, 1000},
		Seeds:      10, Delta: 0.05, Level: 0.95, SlopePoints: 4,
	}
	if quick {
		o.T, o.Seeds = []int{10, 20, 50, 100, 200}, 2
	}
	return o
}

// PaperScalePoint aggregates one learner at one checkpoint over seeds.
type PaperScalePoint struct {
	Algorithm string
	T, N      int
	// DTilde is d̃ at κ = Config.Kappa (mean and interval half-width).
	DTilde, DTildeHalf float64
	Distinct           float64 // mean number of distinct contexts queried
	// BriefBound is p·log(1 + αTL²/p) (one pair per round), PairsBound the
	// same with T·K(K−1)/2 pairs, TraceBound r·log(1 + α·tr𝕍/r); means.
	BriefBound, PairsBound, TraceBound float64
	// BriefExceeded counts seeds with d̃ > BriefBound.
	BriefExceeded int
	// MaxNorm is max over the pool's pair differences of ‖z‖_{V_T⁻¹}
	// (V_T the learner's own, (λ/κ)I + Σψψᵀ), mean and half-width.
	MaxNorm, MaxNormHalf float64
	// MaxNormBall is L/√λmin(V_T) = L·√(κ/λ): λmin(V_T) = λ/κ exactly
	// because V_T − (λ/κ)I has rank ≤ T < p.
	MaxNormBall float64
	L           float64 // mean of L = max ‖φ(c,a) − φ(c,b)‖
	// Literal is L/G_T of Theorem 1 with Σmax = L²·I and C_s = L⁴ in
	// dimension p (mean of the defined values); LiteralViolations counts
	// seeds with MaxNorm above it.
	Literal           Bound
	LiteralViolations int
}

// PaperScaleSummary holds the log–log slopes of one learner.
type PaperScaleSummary struct {
	Algorithm string
	// DTildeSlope is the slope of log d̃ against log T (the paper needs
	// d̃ = õ(√T), i.e. a slope below 1/2, for its rates to decrease).
	DTildeSlope Slope
	// RateSlope is the slope of √(d̃/T), the rate of Theorems 2 and 3.
	RateSlope Slope
	// MaxNormSlope is the slope of max_{z∈Z}‖z‖_{V_T⁻¹} (Theorem 1: −1/2).
	MaxNormSlope Slope
}

// PaperScaleReport is the result of PaperScale.
type PaperScaleReport struct {
	Options   PaperScaleOptions
	P         int     // number of parameters
	Alpha     float64 // κ/λ of the configuration
	Points    []PaperScalePoint
	Summaries []PaperScaleSummary
}

type paperCheck struct {
	dt                        EffDim
	distinct                  int
	brief, pairs              float64
	maxNorm, L                float64
	literal                   Bound
	literalViolated, exceeded bool
}

// PaperScale runs every learner for every seed and evaluates d̃ and the
// finite-Z Theorem 1 check at every checkpoint.
func PaperScale(ctx context.Context, opts PaperScaleOptions) (*PaperScaleReport, error) {
	if err := opts.Problem.Validate(); err != nil {
		return nil, err
	}
	if err := opts.Config.Validate(); err != nil {
		return nil, err
	}
	arch := opts.Config.Arch(opts.Problem.Dim)
	p := arch.NumParams()
	switch {
	case len(opts.T) == 0 || opts.T[0] < 1 || !increasing(opts.T):
		return nil, fmt.Errorf("theory: checkpoints %v must be positive and strictly increasing", opts.T)
	case opts.T[len(opts.T)-1] >= p:
		return nil, fmt.Errorf("theory: the largest checkpoint %d must be below p = %d (λmin(V_T) = λ/κ is then exact)", opts.T[len(opts.T)-1], p)
	case opts.Seeds < 1 || len(opts.Algorithms) == 0:
		return nil, fmt.Errorf("theory: need at least one seed and one algorithm")
	case !(opts.Delta > 0 && opts.Delta < 1) || !(opts.Level > 0 && opts.Level < 1):
		return nil, fmt.Errorf("theory: δ = %v and level = %v must be in (0, 1)", opts.Delta, opts.Level)
	case opts.SlopePoints < 3:
		return nil, fmt.Errorf("theory: slope points = %d, need ≥ 3", opts.SlopePoints)
	}
	A := len(opts.Algorithms)
	res := make([][][]paperCheck, A)
	errs := make([][]error, A)
	for a := range res {
		res[a] = make([][]paperCheck, opts.Seeds)
		errs[a] = make([]error, opts.Seeds)
	}
	if err := par.ForEach(ctx, A*opts.Seeds, opts.Workers, func(k int) error {
		a, i := k/opts.Seeds, k%opts.Seeds
		res[a][i], errs[a][i] = paperRun(ctx, opts, opts.Algorithms[a], opts.FirstSeed+uint64(i), p)
		return nil
	}, nil); err != nil {
		return nil, err
	}
	rep := &PaperScaleReport{Options: opts, P: p, Alpha: opts.Config.Kappa / opts.Config.Lambda}
	for a, alg := range opts.Algorithms {
		for i, err := range errs[a] {
			if err != nil {
				return nil, fmt.Errorf("%s, seed %d: %w", alg, opts.FirstSeed+uint64(i), err)
			}
		}
		var ts, dts, rates, norms []float64
		for k, T := range opts.T {
			pt := PaperScalePoint{Algorithm: alg, T: T, N: opts.Seeds}
			dt := make([]float64, opts.Seeds)
			mn := make([]float64, opts.Seeds)
			sumLit, nLit := 0.0, 0
			for i := range opts.Seeds {
				r := res[a][i][k]
				dt[i], mn[i] = r.dt.Value, r.maxNorm
				pt.Distinct += float64(r.distinct)
				pt.BriefBound += r.brief
				pt.PairsBound += r.pairs
				pt.TraceBound += r.dt.TraceBound(rep.Alpha)
				pt.L += r.L
				pt.MaxNormBall += r.L / math.Sqrt(opts.Config.Lambda/opts.Config.Kappa)
				if r.exceeded {
					pt.BriefExceeded++
				}
				if r.literal.Defined {
					sumLit += r.literal.Value
					nLit++
				}
				if r.literalViolated {
					pt.LiteralViolations++
				}
			}
			n := float64(opts.Seeds)
			pt.Distinct /= n
			pt.BriefBound /= n
			pt.PairsBound /= n
			pt.TraceBound /= n
			pt.L /= n
			pt.MaxNormBall /= n
			if nLit > 0 {
				pt.Literal = Bound{Value: sumLit / float64(nLit), Defined: true}
			}
			pt.DTilde, pt.DTildeHalf = stats.MeanCI(dt, opts.Level)
			pt.MaxNorm, pt.MaxNormHalf = stats.MeanCI(mn, opts.Level)
			if opts.Seeds == 1 {
				pt.DTildeHalf, pt.MaxNormHalf = 0, 0
			}
			rep.Points = append(rep.Points, pt)
			ts = append(ts, float64(T))
			dts = append(dts, pt.DTilde)
			rates = append(rates, math.Sqrt(pt.DTilde/float64(T)))
			norms = append(norms, pt.MaxNorm)
		}
		rep.Summaries = append(rep.Summaries, PaperScaleSummary{
			Algorithm:    alg,
			DTildeSlope:  logSlope(ts, dts, opts.SlopePoints, opts.Level),
			RateSlope:    logSlope(ts, rates, opts.SlopePoints, opts.Level),
			MaxNormSlope: logSlope(ts, norms, opts.SlopePoints, opts.Level),
		})
	}
	return rep, nil
}

// paperRun runs one learner on one seed and evaluates every checkpoint.
func paperRun(ctx context.Context, opts PaperScaleOptions, alg string, seed uint64, p int) ([]paperCheck, error) {
	in, err := newNeuralInstance(alg, opts.Problem, opts.Config, seed)
	if err != nil {
		return nil, err
	}
	pool := in.prob.Pool
	K0 := &gram.Dense{N: pool.Rows(), Data: in.feat.GramTo(nil)}
	L2 := 0.0
	for c := range pool.Contexts {
		for a := range pool.Arms {
			for b := a + 1; b < pool.Arms; b++ {
				i, j := pool.Row(c, a), pool.Row(c, b)
				L2 = math.Max(L2, K0.Entry(i, i)+K0.Entry(j, j)-2*K0.Entry(i, j))
			}
		}
	}
	L := math.Sqrt(L2)
	alpha := opts.Config.Kappa / opts.Config.Lambda
	counts := make([]int, pool.Contexts)
	out := make([]paperCheck, 0, len(opts.T))
	next := 0
	logTerm := math.Log(float64(p) / opts.Delta)
	err = experiments.Loop(ctx, in.learner, in.prob, 0, opts.T[len(opts.T)-1], experiments.Hooks{Observed: func(t int, q algorithms.Query, _ algorithms.Feedback) error {
		counts[q.Context]++
		if t != opts.T[next] {
			return nil
		}
		next++
		dt, err := EffectiveDimensionDual(K0, pool.Arms, counts, alpha)
		if err != nil {
			return err
		}
		mx := 0.0
		for c := range pool.Contexts {
			_, _, n2 := in.learner.Conf.MaxPair(c)
			mx = math.Max(mx, n2)
		}
		T := float64(t)
		r := paperCheck{
			dt: dt, distinct: len(distinct(counts)),
			brief: BriefBound(p, t, L, alpha), pairs: PairsBound(p, t, pool.Arms, L, alpha),
			maxNorm: math.Sqrt(mx), L: L,
			literal: NewBound(L, T*L2-math.Sqrt(8*T*L2*L2*logTerm)),
		}
		r.literalViolated = r.literal.Violated(r.maxNorm)
		r.exceeded = dt.Value > r.brief
		out = append(out, r)
		return nil
	}})
	if err != nil {
		return nil, err
	}
	return out, nil
}
