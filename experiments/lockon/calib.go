package lockon

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
)

// PairUncertainty is what the calibration check reads from a learner: its
// utility estimates h(x_{c,a}) and the σ²(c,a,b) it attaches to the
// difference of two arms (eq. 6 for Neural-ADB). algorithms.NeuralADB and
// every learner embedding it implement it.
type PairUncertainty interface {
	Scores(c int) []float64
	Sigma2(c, a, b int) float64
}

// RuleUncertainty is implemented by the repaired learners whose context rule
// uses an uncertainty of its own (for example a last-layer posterior): RuleSigma2
// is the σ² of h_a − h_b that rule works with, ν already applied.
type RuleUncertainty interface {
	Scores(c int) []float64
	RuleSigma2(c, a, b int) float64
}

// ruleSigma adapts a RuleUncertainty to PairUncertainty.
type ruleSigma struct{ RuleUncertainty }

func (r ruleSigma) Sigma2(c, a, b int) float64 { return r.RuleSigma2(c, a, b) }

// Calibration summarises how well the interval (h_a − h_b) ± ν σ(c,a,b)
// covers the true difference f_a − f_b over every arm pair a < b of every
// context in the pool.
type Calibration struct {
	Pairs    int     // arm pairs measured
	Coverage float64 // share of pairs with |err| ≤ ν σ, err = (h_a − h_b) − (f_a − f_b)
	MedianZ  float64 // median of |err|/σ
	Nu95     float64 // 0.95-quantile of |err|/σ: the ν that would cover 95% of the pairs
	Spearman float64 // rank correlation of σ with |err| (0: σ says nothing about where h is wrong)
}

// MeasureCalibration compares u's intervals at scale nu with the latent
// rewards. Pairs with σ = 0 count as covered only if err = 0 and enter the
// ratios as +Inf (or 0).
func MeasureCalibration(u PairUncertainty, lat *experiments.Latent, nu float64) Calibration {
	K := lat.Arms
	contexts := len(lat.F) / K
	n := contexts * K * (K - 1) / 2
	z := make([]float64, 0, n)
	sig := make([]float64, 0, n)
	abserr := make([]float64, 0, n)
	covered := 0
	for c := range contexts {
		h := u.Scores(c)
		f := lat.F[c*K : (c+1)*K]
		for a := range K {
			for b := a + 1; b < K; b++ {
				e := math.Abs((h[a] - h[b]) - (f[a] - f[b]))
				s := math.Sqrt(u.Sigma2(c, a, b))
				if e <= nu*s {
					covered++
				}
				r := 0.0
				if e > 0 {
					r = e / s // +Inf when s = 0
				}
				z = append(z, r)
				sig = append(sig, s)
				abserr = append(abserr, e)
			}
		}
	}
	cal := Calibration{Pairs: n, Coverage: float64(covered) / float64(n)}
	slices.Sort(z)
	cal.MedianZ = quantileSorted(z, 0.5)
	cal.Nu95 = quantileSorted(z, 0.95)
	cal.Spearman = spearman(sig, abserr)
	return cal
}

// quantileSorted returns the empirical p-quantile of sorted x (the smallest
// value with at least a share p of x at or below it).
func quantileSorted(x []float64, p float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	i := int(math.Ceil(p*float64(len(x)))) - 1
	return x[max(i, 0)]
}

// spearman returns the rank correlation of x and y (average ranks for ties);
// NaN if either is constant.
func spearman(x, y []float64) float64 {
	rx, ry := ranks(x), ranks(y)
	r := stat.Correlation(rx, ry, nil)
	return r
}

// ranks returns the 1-based ranks of x, ties sharing their average rank.
func ranks(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case x[a] < x[b]:
			return -1
		case x[a] > x[b]:
			return 1
		}
		return 0
	})
	r := make([]float64, len(x))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && x[idx[j+1]] == x[idx[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = avg
		}
		i = j + 1
	}
	return r
}

// calibrationEvaluator adds the calibration of the learner's intervals to a
// synthetic problem's checkpoints (columns CalibrationColumns).
type calibrationEvaluator struct {
	*experiments.Latent
	nu float64
}

// CalibrationColumns are the extra checkpoint columns of the lock-on study:
// the calibration of the paper's σ (eq. 6) at ν = Config.Nu, then that of the
// context rule's own σ (ν = 1 on RuleSigma2) for learners that have one (NaN
// otherwise).
var CalibrationColumns = []string{"coverage", "median_err_over_sigma", "nu95", "spearman_sigma_err",
	"rule_coverage", "rule_median_err_over_sigma", "rule_nu95", "rule_spearman_sigma_err"}

func (e calibrationEvaluator) ExtraColumns() []string { return CalibrationColumns }

func (e calibrationEvaluator) Extra(dst []float64, l algorithms.Learner) []float64 {
	dst = dst[:0]
	nan := math.NaN()
	if u, ok := l.(PairUncertainty); ok {
		c := MeasureCalibration(u, e.Latent, e.nu)
		dst = append(dst, c.Coverage, c.MedianZ, c.Nu95, c.Spearman)
	} else {
		dst = append(dst, nan, nan, nan, nan)
	}
	if r, ok := l.(RuleUncertainty); ok {
		c := MeasureCalibration(ruleSigma{r}, e.Latent, 1)
		dst = append(dst, c.Coverage, c.MedianZ, c.Nu95, c.Spearman)
	} else {
		dst = append(dst, nan, nan, nan, nan)
	}
	return dst
}

// WithCalibration returns prob with its evaluator extended by the calibration
// columns at scale nu. prob's evaluator must be a *Latent (synthetic problems).
func WithCalibration(prob *experiments.Problem, nu float64) *experiments.Problem {
	lat, ok := prob.Evaluator.(*experiments.Latent)
	if !ok {
		panic("experiments: WithCalibration needs a problem with latent rewards")
	}
	p := *prob
	p.Evaluator = calibrationEvaluator{Latent: lat, nu: nu}
	return &p
}
