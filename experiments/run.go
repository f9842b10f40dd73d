package experiments

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/neural-adb/nadb/algorithms"
)

// Spec is one complete, deterministic run: the same Spec gives the same
// result bytes (apart from elapsed time).
type Spec struct {
	Algorithm string            `json:"algorithm"`
	Problem   ProblemSpec       `json:"problem"`
	Config    algorithms.Config `json:"config"`
	T         int               `json:"T"`     // rounds (duels)
	Every     int               `json:"every"` // checkpoint period
	Seed      uint64            `json:"seed"`
}

// Validate reports the first invalid field, named as the nadb flag.
func (s Spec) Validate() error {
	if _, err := algorithms.Lookup(s.Algorithm); err != nil {
		return fmt.Errorf("algo: %w", err)
	}
	if err := s.Problem.Validate(); err != nil {
		return err
	}
	if s.T <= 0 {
		return fmt.Errorf("T: number of rounds must be positive, got %d", s.T)
	}
	if s.Every <= 0 {
		return fmt.Errorf("every: checkpoint period must be positive, got %d", s.Every)
	}
	return s.Config.Validate()
}

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
	res := &Result{Spec: spec, Counts: make([]int, prob.Pool.Contexts)}
	extra, _ := prob.Evaluator.(ExtraEvaluator)
	if extra != nil {
		res.ExtraColumns = extra.ExtraColumns()
	}
	var (
		policy []int
		gaps   []float64
		regret float64
	)
	check := func(t int) {
		policy = learner.Policy(policy)
		gaps = prob.Evaluator.Gaps(gaps, policy)
		cp := Checkpoint{T: t, WorstGap: slices.Max(gaps), QueriedGap: math.NaN(), AvgRegret: math.NaN(), TopShare: math.NaN()}
		sum, qsum, top := 0.0, 0.0, 0
		for c, g := range gaps {
			sum += g
			if n := res.Counts[c]; n > 0 {
				qsum += float64(n) * g
				cp.Distinct++
				top = max(top, n)
			}
		}
		cp.MeanGap = sum / float64(len(gaps))
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
	}
	check(0)
	for t := 1; t <= spec.T; t++ {
		if t%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		q := learner.Select()
		if err := q.Validate(prob.Pool); err != nil {
			return nil, fmt.Errorf("%s at round %d: invalid %w", spec.Algorithm, t, err)
		}
		y := prob.Oracle.Answer(q)
		learner.Observe(q, y)
		res.Counts[q.Context]++
		regret += prob.Evaluator.Regret(q)
		if t%spec.Every == 0 || t == spec.T {
			check(t)
		}
	}
	return res, nil
}

// WriteCSV writes the result's checkpoints under the Columns header followed by
// its extra columns. Numbers use the shortest representation that round-trips,
// so equal results give equal bytes (elapsed_s aside).
func WriteCSV(w io.Writer, res *Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(append(slices.Clone(Columns), res.ExtraColumns...)); err != nil {
		return err
	}
	cps := res.Checkpoints
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, cp := range cps {
		rec := []string{strconv.Itoa(cp.T), f(cp.WorstGap), f(cp.MeanGap), f(cp.QueriedGap), f(cp.AvgRegret),
			strconv.Itoa(cp.Distinct), strconv.FormatFloat(cp.Elapsed, 'f', 3, 64), f(cp.TopShare)}
		for _, x := range cp.Extra {
			rec = append(rec, f(x))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
