package lockon

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/sweep"
	"github.com/neural-adb/nadb/internal/stats"
)

// Stat is a mean over seeds with the half-width of its 95% t-interval.
type Stat struct {
	Mean, Half float64
	N          int
}

func newStat(x []float64) Stat {
	var v []float64
	for _, e := range x {
		if !math.IsNaN(e) {
			v = append(v, e)
		}
	}
	m, h := stats.MeanCI(v, 0.95)
	return Stat{Mean: m, Half: h, N: len(v)}
}

// String formats the mean ± half-width with 3 significant digits.
func (s Stat) String() string {
	if math.IsNaN(s.Mean) {
		return "–"
	}
	if math.IsNaN(s.Half) {
		return fmt.Sprintf("%.3g", s.Mean)
	}
	return fmt.Sprintf("%.3g ± %.2g", s.Mean, s.Half)
}

// LockonRow summarises one algorithm on one problem at T over the seeds.
type LockonRow struct {
	Problem, Algorithm, Comparator string
	Repair                         bool
	Distinct, TopShare             Stat
	MeanGap, WorstGap              Stat
	// One-sided paired t-tests across seeds against the comparator:
	// Less* test H1 "algorithm below comparator", Worse* the reverse.
	LessMean, LessWorst   stats.PairedT
	WorseMean, WorseWorst stats.PairedT
	// HolmMean and HolmWorst are the Holm-adjusted p-values of LessMean and
	// LessWorst within the algorithm's family (2 metrics × the problems).
	HolmMean, HolmWorst float64
	// Power of the comparison: the smallest mean paired difference a one-sided
	// test at α = 0.05 detects with 80% power given the observed spread of
	// the differences (stats.PairedMDE), and how many seeds the observed
	// difference would need for that (0 if it is not an improvement).
	MDEMean, MDEWorst     float64
	SeedsMean, SeedsWorst int
	// Calibration at T (means over seeds): the paper's σ at ν = Config.Nu and
	// the context rule's own σ (repairs only; NaN otherwise).
	Coverage, MedianZ, Nu95, Spearman                 Stat
	RuleCoverage, RuleMedianZ, RuleNu95, RuleSpearman Stat
}

// Passes reports whether the row's algorithm meets the bar on this problem:
// below its comparator on both gaps, Holm-adjusted p < 0.05.
func (r LockonRow) Passes() bool {
	return r.Comparator != "" && r.LessMean.MeanDiff < 0 && r.LessWorst.MeanDiff < 0 && r.HolmMean < 0.05 && r.HolmWorst < 0.05
}

// final returns the last checkpoint of res.
func final(res *experiments.Result) experiments.Checkpoint {
	return res.Checkpoints[len(res.Checkpoints)-1]
}

func extraAt(res *experiments.Result, cp experiments.Checkpoint, col string) float64 {
	if i := slices.Index(res.ExtraColumns, col); i >= 0 && i < len(cp.Extra) {
		return cp.Extra[i]
	}
	return math.NaN()
}

// runSet maps a run's key to its result.
type runSet map[string]*experiments.Result

func (rs runSet) get(s experiments.Spec) *experiments.Result {
	r, ok := rs[s.Key()]
	if !ok {
		panic(fmt.Sprintf("experiments: lock-on run missing: %s on %s seed %d", s.Algorithm, s.Problem.Name, s.Seed))
	}
	return r
}

// seeds returns the final checkpoints of algorithm on problem for seeds 1..n.
func (s LockonStudy) seeds(rs runSet, algorithm, problem string, n int, reading Reading) []*experiments.Result {
	cfg, err := reading.Apply(s.Config)
	if err != nil {
		panic(err)
	}
	out := make([]*experiments.Result, n)
	for i := range out {
		out[i] = rs.get(s.spec(algorithm, problem, cfg, i+1))
	}
	return out
}

func column(res []*experiments.Result, f func(*experiments.Result, experiments.Checkpoint) float64) []float64 {
	x := make([]float64, len(res))
	for i, r := range res {
		x[i] = f(r, final(r))
	}
	return x
}

var (
	colMean     = func(_ *experiments.Result, cp experiments.Checkpoint) float64 { return cp.MeanGap }
	colWorst    = func(_ *experiments.Result, cp experiments.Checkpoint) float64 { return cp.WorstGap }
	colDistinct = func(_ *experiments.Result, cp experiments.Checkpoint) float64 { return float64(cp.Distinct) }
	colTop      = func(_ *experiments.Result, cp experiments.Checkpoint) float64 { return cp.TopShare }
)

func colExtra(name string) func(*experiments.Result, experiments.Checkpoint) float64 {
	return func(r *experiments.Result, cp experiments.Checkpoint) float64 { return extraAt(r, cp, name) }
}

// Specs lists every run of the study (main table, sensitivity grid),
// without duplicates, in a fixed order.
func (s LockonStudy) Specs() []experiments.Spec {
	var out []experiments.Spec
	seen := map[string]bool{}
	add := func(sp experiments.Spec) {
		if k := sp.Key(); !seen[k] {
			seen[k] = true
			out = append(out, sp)
		}
	}
	for _, p := range s.Problems {
		for _, r := range s.Rules {
			for seed := 1; seed <= s.Seeds; seed++ {
				add(s.spec(r.Algorithm, p, s.Config, seed))
			}
		}
	}
	for _, rd := range s.Readings {
		cfg, err := rd.Apply(s.Config)
		if err != nil {
			panic(err)
		}
		for _, p := range s.Problems {
			for _, a := range []string{s.ReadingRule, s.ReadingRandom} {
				for seed := 1; seed <= s.ReadingSeeds; seed++ {
					add(s.spec(a, p, cfg, seed))
				}
			}
		}
	}
	return out
}

// LockonResults are the finished runs of a study.
type LockonResults struct {
	Study LockonStudy
	runs  runSet
}

// Run executes every run of the study on workers goroutines. With a cache,
// finished runs are loaded from it and new ones stored in it (keyed by Spec;
// use a cache directory of its own: these results carry the calibration
// columns, which plain runs of the same Spec do not).
func (s LockonStudy) Run(ctx context.Context, workers int, cache *sweep.Cache, progress func(done, total int, sp experiments.Spec)) (*LockonResults, error) {
	for _, rd := range s.Readings {
		if _, err := rd.Apply(s.Config); err != nil {
			return nil, err
		}
	}
	specs := s.Specs()
	run := RunCalibrated
	if cache != nil {
		run = func(ctx context.Context, sp experiments.Spec) (*experiments.Result, error) {
			if res, _, ok, err := cache.Load(sp); err != nil || ok {
				if err == nil && !slices.Equal(res.ExtraColumns, CalibrationColumns) {
					return nil, fmt.Errorf("cache %s holds a run of %s without the calibration columns: give the lock-on study a cache directory of its own", cache.Dir, sp.Algorithm)
				}
				return res, err
			}
			start := time.Now()
			res, err := RunCalibrated(ctx, sp)
			if err != nil {
				return nil, err
			}
			return res, cache.Store(res, time.Since(start).Seconds())
		}
	}
	res, err := RunAll(ctx, specs, workers, run, progress)
	if err != nil {
		return nil, err
	}
	rs := runSet{}
	for i, sp := range specs {
		rs[sp.Key()] = res[i]
	}
	return &LockonResults{Study: s, runs: rs}, nil
}

// Main returns the main table: every rule on every problem.
func (lr *LockonResults) Main() []LockonRow {
	s := lr.Study
	var rows []LockonRow
	for _, p := range s.Problems {
		for _, r := range s.Rules {
			res := s.seeds(lr.runs, r.Algorithm, p, s.Seeds, Reading{})
			row := LockonRow{Problem: p, Algorithm: r.Algorithm, Comparator: r.Comparator, Repair: r.Repair,
				Distinct: newStat(column(res, colDistinct)), TopShare: newStat(column(res, colTop)),
				MeanGap: newStat(column(res, colMean)), WorstGap: newStat(column(res, colWorst)),
				Coverage: newStat(column(res, colExtra("coverage"))), MedianZ: newStat(column(res, colExtra("median_err_over_sigma"))),
				Nu95: newStat(column(res, colExtra("nu95"))), Spearman: newStat(column(res, colExtra("spearman_sigma_err"))),
				RuleCoverage: newStat(column(res, colExtra("rule_coverage"))), RuleMedianZ: newStat(column(res, colExtra("rule_median_err_over_sigma"))),
				RuleNu95: newStat(column(res, colExtra("rule_nu95"))), RuleSpearman: newStat(column(res, colExtra("rule_spearman_sigma_err"))),
				HolmMean: math.NaN(), HolmWorst: math.NaN(), MDEMean: math.NaN(), MDEWorst: math.NaN(),
			}
			if r.Comparator != "" {
				cmp := s.seeds(lr.runs, r.Comparator, p, s.Seeds, Reading{})
				a, b := column(res, colMean), column(cmp, colMean)
				row.LessMean, row.WorseMean = stats.PairedTLess(a, b), stats.PairedTLess(b, a)
				row.MDEMean, row.SeedsMean = power(a, b)
				a, b = column(res, colWorst), column(cmp, colWorst)
				row.LessWorst, row.WorseWorst = stats.PairedTLess(a, b), stats.PairedTLess(b, a)
				row.MDEWorst, row.SeedsWorst = power(a, b)
			}
			rows = append(rows, row)
		}
	}
	// Holm within each algorithm's family of "less" tests.
	for _, r := range s.Rules {
		if r.Comparator == "" {
			continue
		}
		var idx []int
		var ps []float64
		for i, row := range rows {
			if row.Algorithm == r.Algorithm {
				idx = append(idx, i)
				ps = append(ps, row.LessMean.P, row.LessWorst.P)
			}
		}
		adj := stats.Holm(ps)
		for k, i := range idx {
			rows[i].HolmMean, rows[i].HolmWorst = adj[2*k], adj[2*k+1]
		}
	}
	return rows
}

// power returns the minimum detectable paired difference of a − b (α = 0.05,
// power 0.8, one-sided) and the number of seeds at which the observed mean
// difference would reach it (0 if the mean difference is not negative, −1
// beyond 10,000 seeds).
func power(a, b []float64) (mde float64, seeds int) {
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	m, sd := stat.MeanStdDev(d, nil)
	mde = stats.PairedMDE(len(d), sd, 0.05, 0.8)
	if !(m < 0) {
		return mde, 0
	}
	for n := 2; n <= 10000; n++ {
		if stats.PairedMDE(n, sd, 0.05, 0.8) <= -m {
			return mde, n
		}
	}
	return mde, -1
}

// SensitivityRow is one reading on one problem: the as-written rule and its
// random-context comparator under that reading.
type SensitivityRow struct {
	Reading, Problem    string
	Distinct, TopShare  Stat
	MeanGap, WorstGap   Stat
	RandMean, RandWorst Stat
	// RandBetterMean tests H1 "random contexts give a smaller mean gap".
	RandBetterMean, RandBetterWorst stats.PairedT
}

// Sensitivity returns the sensitivity grid.
func (lr *LockonResults) Sensitivity() []SensitivityRow {
	s := lr.Study
	var rows []SensitivityRow
	for _, rd := range s.Readings {
		for _, p := range s.Problems {
			a := s.seeds(lr.runs, s.ReadingRule, p, s.ReadingSeeds, rd)
			b := s.seeds(lr.runs, s.ReadingRandom, p, s.ReadingSeeds, rd)
			rows = append(rows, SensitivityRow{Reading: rd.Name, Problem: p,
				Distinct: newStat(column(a, colDistinct)), TopShare: newStat(column(a, colTop)),
				MeanGap: newStat(column(a, colMean)), WorstGap: newStat(column(a, colWorst)),
				RandMean: newStat(column(b, colMean)), RandWorst: newStat(column(b, colWorst)),
				RandBetterMean:  stats.PairedTLess(column(b, colMean), column(a, colMean)),
				RandBetterWorst: stats.PairedTLess(column(b, colWorst), column(a, colWorst)),
			})
		}
	}
	return rows
}

// CurvePoint is the across-seed mean of a metric at one checkpoint.
type CurvePoint struct {
	Problem, Algorithm, Metric string
	T                          int
	Stat                       Stat
}

// Curves returns mean_gap, worst_gap, distinct_contexts and top_context_share
// of every rule at every checkpoint.
func (lr *LockonResults) Curves() []CurvePoint {
	s := lr.Study
	metrics := []struct {
		name string
		f    func(*experiments.Result, experiments.Checkpoint) float64
	}{{"mean_gap", colMean}, {"worst_gap", colWorst}, {"distinct_contexts", colDistinct}, {"top_context_share", colTop}}
	var out []CurvePoint
	for _, p := range s.Problems {
		for _, r := range s.Rules {
			res := s.seeds(lr.runs, r.Algorithm, p, s.Seeds, Reading{})
			for _, m := range metrics {
				for k, cp := range res[0].Checkpoints {
					x := make([]float64, len(res))
					for i, rr := range res {
						x[i] = m.f(rr, rr.Checkpoints[k])
					}
					out = append(out, CurvePoint{Problem: p, Algorithm: r.Algorithm, Metric: m.name, T: cp.T, Stat: newStat(x)})
				}
			}
		}
	}
	return out
}
