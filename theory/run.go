package theory

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/neural-adb/nadb/experiments"
)

// Options configures Run.
type Options struct {
	// Quick runs every check at a reduced size (seconds instead of minutes).
	Quick bool
	// Workers bounds the parallel runs (0: GOMAXPROCS); results do not depend
	// on it.
	Workers int
	// Log receives one progress line per stage (nil: none).
	Log io.Writer
}

// Results are every check of the package, as written by Results.Write.
type Results struct {
	Quick bool
	// Synthetic is Theorem 1 on the synthetic generators.
	Synthetic *Theorem1Report
	// Neural is Theorem 1 on Neural-ADB's queried sequences (reduced scale).
	Neural *Theorem1Report
	// Counterexamples holds the smallest counterexample to every claim
	// (Found is false for the repaired statement unless it fails).
	Counterexamples []Counterexample
	// NonDegenerate is the first violation of Theorem 1 as stated by
	// SpikeThenConstant{L: 1, C: 1/√2}, a sequence that never vanishes.
	NonDegenerate Counterexample
	// Continuous is the Monte Carlo of SpikeThenUniform (z_1 = 1, then
	// i.i.d. uniform on (−1, 1)) at the horizons ContinuousT.
	Continuous *Theorem1Report
	// Monotone is the bound with Σ_max = M·I (MonotoneTable).
	Monotone []MonotoneRow
	// Paper is d̃ and the finite-Z Theorem 1 check at the paper's scale.
	Paper *PaperScaleReport
	// Kappa tabulates κ_μ of the synthetic problems at the paper's scale.
	Kappa []KappaRow
}

// Search limits of the smallest-counterexample search.
const (
	counterMaxDim = 3
	counterMaxT   = 200
)

// The robust counterexamples: horizons of the continuous random sequence, and
// the horizons and scales M of the monotonicity table (in d = 4, the
// dimension of the synthetic check).
var (
	ContinuousT = []int{25, 50, 75, 100, 200, 500, 1000}
	MonotoneT   = []int{100, 1000, 10000}
	MonotoneM   = []float64{1, 1.5, 2, 10, 100}
)

// ContinuousOptions is the Monte Carlo of SpikeThenUniform: λ = L = 1,
// δ = 0.05, 1000 sequences (200 when quick).
func ContinuousOptions(quick bool) Theorem1Options {
	o := Theorem1Options{Generators: []Generator{SpikeThenUniform{L: 1}}, T: ContinuousT, Seeds: 1000, Lambda: 1, Delta: 0.05, Level: 0.95, SlopePoints: 3}
	if quick {
		o.Seeds = 200
	}
	return o
}

// Run performs every check: Theorem 1 on the synthetic generators and on
// Neural-ADB's sequences, the smallest counterexamples, the paper-scale
// effective dimension, and κ_μ.
func Run(ctx context.Context, opts Options) (*Results, error) {
	logf := func(format string, args ...any) {
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, format+"\n", args...)
		}
	}
	r := &Results{Quick: opts.Quick}
	var err error

	so := DefaultTheorem1Options(opts.Quick)
	so.Workers = opts.Workers
	logf("theory: Theorem 1 on %d synthetic generators, %d seeds, T ≤ %d", len(so.Generators), so.Seeds, so.T[len(so.T)-1])
	if r.Synthetic, err = CheckTheorem1(ctx, so); err != nil {
		return nil, err
	}

	no := NeuralTheorem1Options(opts.Quick)
	no.Workers = opts.Workers
	logf("theory: Theorem 1 on Neural-ADB's sequences (p = %d), %d seeds, T ≤ %d", no.Generators[0].Dim(), no.Seeds, no.T[len(no.T)-1])
	if r.Neural, err = CheckTheorem1(ctx, no); err != nil {
		return nil, err
	}

	logf("theory: smallest counterexamples (d ≤ %d, T ≤ %d)", counterMaxDim, counterMaxT)
	for _, c := range Claims {
		ce, err := SmallestCounterexample(c, counterMaxDim, counterMaxT, so.Lambda, 1, so.Delta)
		if err != nil {
			return nil, err
		}
		r.Counterexamples = append(r.Counterexamples, ce)
	}
	if r.NonDegenerate, err = FirstViolation(SpikeThenConstant{L: 1, C: 1 / math.Sqrt2}, Literal, 0, 1000, so.Lambda, so.Delta); err != nil {
		return nil, err
	}
	co := ContinuousOptions(opts.Quick)
	co.Workers = opts.Workers
	logf("theory: continuous random counterexample, %d seeds, T ≤ %d", co.Seeds, co.T[len(co.T)-1])
	if r.Continuous, err = CheckTheorem1(ctx, co); err != nil {
		return nil, err
	}
	r.Monotone = MonotoneTable(MonotoneT, MonotoneM, 4, so.Lambda, 1, so.Delta)

	po := DefaultPaperScaleOptions(opts.Quick)
	po.Workers = opts.Workers
	logf("theory: paper scale (p = 3550): %v, %d seeds, T ≤ %d", po.Algorithms, po.Seeds, po.T[len(po.T)-1])
	if r.Paper, err = PaperScale(ctx, po); err != nil {
		return nil, err
	}

	seeds := 10
	if opts.Quick {
		seeds = 3
	}
	logf("theory: κ_μ of square, sine, cosine over %d seeds", seeds)
	if r.Kappa, err = KappaTable([]string{"square", "sine", "cosine"}, experiments.DefaultProblem(), seeds, 0, 1, so.Delta); err != nil {
		return nil, err
	}
	return r, nil
}
