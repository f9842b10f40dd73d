// Package stats holds the few statistics the reproduction reports: means with
// t-based confidence intervals, paired one-sided tests across seeds (the
// t-test, and the exact Wilcoxon signed-rank test for heavy-tailed metrics
// such as the worst gap), Holm's correction, percentile bootstrap intervals
// over seeds, and least-squares slopes for log–log rates.
//
// Intervals use Student's t with n−1 degrees of freedom and the unbiased
// standard deviation (gonum's stat.MeanStdDev): with 10 seeds the normal
// approximation (z = 1.96) would be about 12% too narrow.
package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// MeanCI returns the mean of x and the half-width of its two-sided confidence
// interval at level (e.g. 0.95). With fewer than two values the half-width is NaN.
func MeanCI(x []float64, level float64) (mean, half float64) {
	n := len(x)
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	if n == 1 {
		return x[0], math.NaN()
	}
	m, sd := stat.MeanStdDev(x, nil)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(1 - (1-level)/2)
	return m, t * sd / math.Sqrt(float64(n))
}

// PairedT is the result of a paired t-test of H1: mean(a − b) < 0.
type PairedT struct {
	N        int
	MeanDiff float64 // mean of a − b
	T        float64 // t statistic
	P        float64 // one-sided p-value for mean(a − b) < 0
}

// PairedTLess tests whether a is smaller than b on average, pairing a[i] with
// b[i] (the same seed). It panics if the lengths differ. With zero variance the
// p-value is 0 or 1 by the sign of the mean difference (0.5 if it is 0).
func PairedTLess(a, b []float64) PairedT {
	if len(a) != len(b) {
		panic("stats: PairedTLess length mismatch")
	}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	n := len(d)
	r := PairedT{N: n}
	if n < 2 {
		r.MeanDiff, r.T, r.P = math.NaN(), math.NaN(), math.NaN()
		return r
	}
	m, sd := stat.MeanStdDev(d, nil)
	r.MeanDiff = m
	if sd == 0 {
		switch {
		case m < 0:
			r.T, r.P = math.Inf(-1), 0
		case m > 0:
			r.T, r.P = math.Inf(1), 1
		default:
			r.T, r.P = 0, 0.5
		}
		return r
	}
	r.T = m / (sd / math.Sqrt(float64(n)))
	r.P = distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.CDF(r.T)
	return r
}

// Holm returns Holm–Bonferroni adjusted p-values (same order as p): reject
// hypothesis i at family-wise level α when adjusted[i] ≤ α. A NaN p-value (a
// test that could not be computed) stays NaN, so that a caller cannot mistake
// it for a decision, and counts as p = 1 for the others: their adjustment
// still uses the full family size m, which keeps them valid.
func Holm(p []float64) []float64 {
	m := len(p)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	// NaN sorts last, after every p ≤ 1.
	key := func(i int) float64 {
		if math.IsNaN(p[i]) {
			return math.Inf(1)
		}
		return p[i]
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case key(a) < key(b):
			return -1
		case key(a) > key(b):
			return 1
		}
		return 0
	})
	adj := make([]float64, m)
	running := 0.0
	for k, i := range idx {
		if math.IsNaN(p[i]) {
			adj[i] = math.NaN()
			continue
		}
		v := math.Min(1, float64(m-k)*p[i])
		running = math.Max(running, v)
		adj[i] = running
	}
	return adj
}

// Slope fits y = a + b·x by least squares and returns b with the half-width
// of its confidence interval at level (t with n−2 degrees of freedom).
func Slope(x, y []float64, level float64) (b, half float64) {
	b, half, _ = SlopeTest(x, y, level)
	return b, half
}
