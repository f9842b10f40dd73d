package realdata

import (
	"fmt"
	"io/fs"
	"math"
	"slices"
	"sync"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/pool"
	"github.com/neural-adb/nadb/experiments/realdata/data"
	"github.com/neural-adb/nadb/internal/csvtab"
)

// Shuttle is the Statlog Shuttle classification data turned into a contextual
// dueling bandit, the conversion NeuralUCB and NeuralTS use for their
// "statlog" benchmark (data: experiments/data/README.md).
//
// Each sample is a context and each of the 7 classes an arm; the latent
// utility of arm a in the context of a sample with label y is
// f(c,a) = Scale·1[a = y] (default Scale = 2), and duels are Bradley–Terry
// draws: the true class beats any other with probability μ(2) ≈ 0.88, and two
// wrong classes tie in expectation (a fair coin). Scale = 2 keeps the answers
// informative but noisy, like the paper's Sine problem (differences up to 4).
//
// # Pool and features
//
// The run seed draws a random split of the 58,000 samples (experiments.Split,
// stream (seed, 101)): Holdout of them (default 2,000) are held out and
// Contexts of the others (default 300, the paper's pool size) form the pool,
// each in the data's order. The draw is
// uniform, not stratified: the pool keeps the data's class imbalance (78.6%
// Rad.Flow; the four rarest classes together 0.4%, so a pool of 300 holds about
// one of their samples), and a policy that always names Rad.Flow has mean gap
// about 0.21·Scale. Classes absent from the pool stay arms.
//
// The 9 features are standardised with the mean and (n−1) standard deviation
// of the pool's samples (a feature constant in the pool is only centred), and
// the held-out samples use the pool's statistics. Several features have heavy
// tails (|z| up to ~100 over the full data); we do not clip them. The
// (context, arm) row is the disjoint encoding of NeuralUCB/NeuralTS with a
// constant appended to the sample: x_{c,a} ∈ R^{70} is zero except block a
// (features 10a … 10a+9), which holds the 9 standardised features and a 1.
// The constant lets every model, the linear ones and the bias-free MLP
// included, express a base rate per class; without it the linear
// Bradley–Terry learner (random) reached 44% held-out accuracy at T = 1000
// (seed 1), below the majority class, and 83% with it.
//
// # Metrics
//
// The problem is built by pool.NewProblem, the mechanism every data problem
// shares. The standard columns use f on the pool (mean_gap/Scale is the
// pool's error rate of the policy). The extra columns score the learner's
// model (algorithms.Scorer) on the held-out samples, predicting
// argmax_a h(x_{c,a}) (exact ties: the expected value under a uniform choice
// among the tied classes): test_accuracy, test_balanced_accuracy (the mean
// over the classes present in the held-out set of their recall), and the
// shared test_mean_gap (Scale × (1 − test_accuracy)) and test_worst_gap. NaN
// for learners without a Scorer.
type Shuttle struct {
	Contexts int     // pool size; 0 means 300
	Holdout  float64 // held-out samples, a count or a fraction (experiments.SplitSizes); 0 means 2000
	Scale    float64 // utility of the true class, c; 0 means 2
	FS       fs.FS   // the data folder (data.Open); nil means the shipped data
}

// Shuttle defaults.
const (
	DefaultShuttleContexts = 300
	DefaultShuttleHoldout  = 2000
	DefaultShuttleScale    = 2.0
)

// ShuttleClasses are the class labels in the UCI order (classes 1…7): arm a is
// ShuttleClasses[a].
var ShuttleClasses = []string{"Rad.Flow", "Fpv.Close", "Fpv.Open", "High", "Bypass", "Bpv.Close", "Bpv.Open"}

const shuttleFeatures = 9

type shuttleData struct {
	X     []float64 // samples × 9
	Label []int8    // index into ShuttleClasses
}

var shippedShuttle = sync.OnceValues(func() (*shuttleData, error) { return readShuttle(data.Shipped()) })

func readShuttle(fsys fs.FS) (*shuttleData, error) {
	name := data.Shuttle[0]
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("shuttle: %w", err)
	}
	defer f.Close()
	t, err := csvtab.Read(f, name)
	if err != nil {
		return nil, err
	}
	want := []string{"V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8", "V9", "Class"}
	cols, err := t.Require(want...)
	if err != nil {
		return nil, err
	}
	if len(t.Header) != len(want) {
		return nil, &csvtab.Error{File: name, Line: t.HeaderLine, Msg: fmt.Sprintf("%d columns, want exactly %v", len(t.Header), want)}
	}
	d := &shuttleData{X: make([]float64, 0, len(t.Rows)*shuttleFeatures), Label: make([]int8, len(t.Rows))}
	for r := range t.Rows {
		for _, col := range cols[:shuttleFeatures] {
			x, err := t.Float(r, col)
			if err != nil {
				return nil, err
			}
			d.X = append(d.X, x)
		}
		k := slices.Index(ShuttleClasses, t.Rows[r][cols[shuttleFeatures]])
		if k < 0 {
			return nil, t.ErrAt(r, cols[shuttleFeatures], "unknown class %q (want one of %q)", t.Rows[r][cols[shuttleFeatures]], ShuttleClasses)
		}
		d.Label[r] = int8(k)
	}
	if len(d.Label) < 2 {
		return nil, &csvtab.Error{File: name, Msg: "fewer than 2 samples"}
	}
	return d, nil
}

// New builds the benchmark for seed: the pool and held-out samples from the
// stream (seed, 101), Bradley–Terry draws from (seed, 102).
func (s Shuttle) New(seed uint64) (*experiments.Problem, error) {
	d, err := loadData(s.FS, shippedShuttle, readShuttle)
	if err != nil {
		return nil, err
	}
	scale := s.Scale
	if scale == 0 {
		scale = DefaultShuttleScale
	}
	if !(scale > 0) || math.IsInf(scale, 0) {
		return nil, &experiments.FieldError{Pkg: "realdata", Field: "scale", Msg: fmt.Sprintf("utility of the true class must be a positive number, got %v", scale)}
	}
	contexts := s.Contexts
	if contexts == 0 {
		contexts = DefaultShuttleContexts
	}
	hold, n, err := experiments.SplitSizes(s.Holdout, DefaultShuttleHoldout, contexts, len(d.Label), "sample")
	if err != nil {
		return nil, err
	}
	poolIdx, testIdx := experiments.Split(len(d.Label), hold, n, seed)

	// Standardise with the pool's statistics.
	mean, sd := make([]float64, shuttleFeatures), make([]float64, shuttleFeatures)
	for _, i := range poolIdx {
		for k := range shuttleFeatures {
			mean[k] += d.X[i*shuttleFeatures+k]
		}
	}
	for k := range mean {
		mean[k] /= float64(n)
	}
	for _, i := range poolIdx {
		for k := range shuttleFeatures {
			v := d.X[i*shuttleFeatures+k] - mean[k]
			sd[k] += v * v
		}
	}
	for k := range sd {
		sd[k] = math.Sqrt(sd[k] / float64(max(n-1, 1)))
		if sd[k] == 0 {
			sd[k] = 1
		}
	}
	K := len(ShuttleClasses)
	const block = shuttleFeatures + 1
	dim := K * block
	part := func(idx []int) (pool.Part, error) {
		x := make([]float64, len(idx)*K*dim)
		p := pool.Part{Utility: make([]float64, len(idx)*K)}
		for c, i := range idx {
			for a := range K {
				row := x[(c*K+a)*dim+a*block:]
				for k := range shuttleFeatures {
					row[k] = (d.X[i*shuttleFeatures+k] - mean[k]) / sd[k]
				}
				row[shuttleFeatures] = 1
			}
			p.Utility[c*K+int(d.Label[i])] = scale
			p.IDs = append(p.IDs, ShuttleClasses...)
		}
		var err error
		p.Pool, err = algorithms.NewPool(len(idx), K, dim, x)
		return p, err
	}
	train, err := part(poolIdx)
	if err != nil {
		return nil, err
	}
	test, err := part(testIdx)
	if err != nil {
		return nil, err
	}
	testLabel := make([]int8, len(testIdx))
	for c, i := range testIdx {
		testLabel[c] = d.Label[i]
	}
	return pool.NewProblem(pool.Setup{
		Name: "shuttle", Train: train, Test: &test, Seed: seed,
		Columns: []string{"test_accuracy", "test_balanced_accuracy"},
		Metrics: func(dst, h []float64) []float64 {
			acc, bal := classAccuracy(h, testLabel, K)
			return append(dst, acc, bal)
		},
	})
}

// classAccuracy returns the expected accuracy and balanced accuracy of
// predicting argmax_a h(c,a) for every sample c with label label[c], a uniform
// choice among exact ties (a NaN score counts as wrong).
func classAccuracy(h []float64, label []int8, K int) (acc, balanced float64) {
	hit := make([]float64, K)
	count := make([]int, K)
	for c, y := range label {
		hc := h[c*K : (c+1)*K]
		best := slices.Max(hc)
		ties := 0
		for _, v := range hc {
			if v == best {
				ties++
			}
		}
		if hc[y] == best {
			hit[y] += 1 / float64(ties)
		}
		count[y]++
	}
	classes := 0
	for k := range K {
		acc += hit[k]
		if count[k] > 0 {
			balanced += hit[k] / float64(count[k])
			classes++
		}
	}
	return acc / float64(len(label)), balanced / float64(classes)
}
