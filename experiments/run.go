package experiments

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/neural-adb/nadb/algorithms"
)

// Checkpoint holds the metrics of the policy at round T.
type Checkpoint struct {
	T          int       // rounds done
	WorstGap   float64   // max_c gap(c), eq. (1)
	MeanGap    float64   // mean over the pool of gap(c): the paper's "MAE", pool reading
	QueriedGap float64   // Σ_s gap(c_s)/t over the rounds so far: "MAE" as printed (NaN at t = 0)
	AvgRegret  float64   // R_t/t (NaN at t = 0)
	Distinct   int       // distinct contexts queried so far
	Elapsed    float64   // seconds since the run started
	TopShare   float64   // share of rounds spent on the most-queried context (NaN at t = 0)
	Extra      []float64 // values of Result.ExtraColumns, if the evaluator has any
}

// Columns is the CSV header of a run.
var Columns = []string{"t", "worst_gap", "mean_gap", "queried_gap", "avg_regret", "distinct_contexts", "elapsed_s", "top_context_share"}

// Result is a finished run.
type Result struct {
	Spec        Spec
	Checkpoints []Checkpoint
	// Counts[c] is how often context c was queried.
	Counts []int
	// ExtraColumns names Checkpoint.Extra (from an ExtraEvaluator).
	ExtraColumns []string
}

// Run executes spec, calling onCheckpoint (if not nil) as each checkpoint is
// reached. Checkpoints are taken at t = 0, every spec.Every rounds and at T.
func Run(ctx context.Context, spec Spec, onCheckpoint func(Checkpoint)) (*Result, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	prob, err := spec.Problem.Build(spec.Seed)
	if err != nil {
		return nil, err
	}
	return RunProblem(ctx, spec, prob, onCheckpoint)
}

// SetupError reports that a run could not start because the learner refused
// its configuration or problem (nothing has been computed yet).
type SetupError struct{ Err error }

func (e *SetupError) Error() string { return e.Err.Error() }
func (e *SetupError) Unwrap() error { return e.Err }

// RunProblem is Run on an already built problem. The first checkpoint (t = 0)
// is reported only once the learner is built, so a caller can print headers
// in onCheckpoint without printing them before a SetupError.
func RunProblem(ctx context.Context, spec Spec, prob *Problem, onCheckpoint func(Checkpoint)) (*Result, error) {
	start := time.Now()
	learner, err := algorithms.New(spec.Algorithm, algorithms.Env{Pool: prob.Pool, Config: spec.Config, Seed: spec.Seed})
	if err != nil {
		return nil, &SetupError{err}
	}
	return runLearner(ctx, spec, prob, learner, start, onCheckpoint)
}

// RunLearner is RunProblem with a learner built by the caller (for example
// from an unregistered algorithms.Factory): spec gives T, Every and the
// collection rule (Config.Collect) and is recorded in the result; its
// Algorithm and the rest of its Config are not used.
func RunLearner(ctx context.Context, spec Spec, prob *Problem, learner algorithms.Learner, onCheckpoint func(Checkpoint)) (*Result, error) {
	return runLearner(ctx, spec, prob, learner, time.Now(), onCheckpoint)
}

func runLearner(ctx context.Context, spec Spec, prob *Problem, learner algorithms.Learner, start time.Time, onCheckpoint func(Checkpoint)) (*Result, error) {
	res := &Result{Spec: spec, Counts: make([]int, prob.Pool.Committed())}
	extra, _ := prob.Evaluator.(ExtraEvaluator)
	if extra != nil {
		res.ExtraColumns = extra.ExtraColumns()
	}
	modelEv, _ := prob.Evaluator.(ModelEvaluator)
	var (
		policy      []int
		gaps, model []float64
		regret      float64
	)
	check := func(t int) error {
		policy = learner.Policy(policy)
		gaps = prob.Evaluator.Gaps(gaps, policy) // the learner's contexts
		over := gaps                             // the contexts worst and mean gap are over
		if modelEv != nil {
			var err error
			if model, err = modelEv.ModelGaps(model, learner); err != nil {
				return err
			}
			over = model
		}
		cp := Checkpoint{T: t, WorstGap: math.NaN(), MeanGap: math.NaN(), QueriedGap: math.NaN(), AvgRegret: math.NaN(), TopShare: math.NaN()}
		if len(over) > 0 {
			cp.WorstGap = slices.Max(over)
			sum := 0.0
			for _, g := range over {
				sum += g
			}
			cp.MeanGap = sum / float64(len(over))
		}
		qsum, top := 0.0, 0
		for c, n := range res.Counts {
			if n > 0 {
				qsum += float64(n) * gaps[c]
				cp.Distinct++
				top = max(top, n)
			}
		}
		if t > 0 {
			cp.QueriedGap = qsum / float64(t)
			cp.AvgRegret = regret / float64(t)
			cp.TopShare = float64(top) / float64(t)
		}
		if extra != nil {
			cp.Extra = extra.Extra(nil, learner)
		}
		cp.Elapsed = time.Since(start).Seconds()
		res.Checkpoints = append(res.Checkpoints, cp)
		if onCheckpoint != nil {
			onCheckpoint(cp)
		}
		return nil
	}
	if err := check(0); err != nil {
		return nil, &SetupError{err}
	}
	hooks := Hooks{Collect: algorithms.NewCollector(spec.Config.Collect, spec.Seed), Observed: func(t int, q algorithms.Query, y algorithms.Feedback) error {
		for len(res.Counts) <= q.Context { // a context committed in the fresh-context reading
			res.Counts = append(res.Counts, 0)
		}
		res.Counts[q.Context]++
		regret += prob.Evaluator.Regret(q)
		return nil
	}}
	for t := 0; t < spec.T; {
		next := min(t+spec.Every, spec.T)
		if err := Loop(ctx, learner, prob, t, next, hooks); err != nil {
			return nil, fmt.Errorf("%s: %w", spec.Algorithm, err)
		}
		t = next
		if err := check(t); err != nil {
			return nil, fmt.Errorf("%s: %w", spec.Algorithm, err)
		}
	}
	return res, nil
}

// Metric returns the value of a named metric at a checkpoint: one of the
// standard CSV columns or an extra column of the result.
func Metric(res *Result, cp Checkpoint, name string) (float64, error) {
	switch name {
	case "worst_gap":
		return cp.WorstGap, nil
	case "mean_gap":
		return cp.MeanGap, nil
	case "queried_gap":
		return cp.QueriedGap, nil
	case "avg_regret":
		return cp.AvgRegret, nil
	case "distinct_contexts":
		return float64(cp.Distinct), nil
	case "top_context_share":
		return cp.TopShare, nil
	}
	if i := slices.Index(res.ExtraColumns, name); i >= 0 {
		return cp.Extra[i], nil
	}
	return math.NaN(), fmt.Errorf("experiments: unknown metric %q", name)
}
