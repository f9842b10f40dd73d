package stats

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// SlopeTest fits y = a + b·x by least squares and returns b, the half-width
// of its two-sided interval at level, and the one-sided p-value of H1: b > 0.
// Replicates (several y at the same x) are allowed and count as observations.
func SlopeTest(x, y []float64, level float64) (b, half, pGreater float64) {
	n := len(x)
	if n != len(y) {
		panic("stats: SlopeTest length mismatch")
	}
	if n < 3 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	a, b := stat.LinearRegression(x, y, nil, false)
	mx := stat.Mean(x, nil)
	sxx, sse := 0.0, 0.0
	for i := range x {
		sxx += (x[i] - mx) * (x[i] - mx)
		r := y[i] - a - b*x[i]
		sse += r * r
	}
	se := math.Sqrt(sse / float64(n-2) / sxx)
	dist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 2)}
	half = dist.Quantile(1-(1-level)/2) * se
	if se == 0 {
		switch {
		case b > 0:
			return b, 0, 0
		case b < 0:
			return b, 0, 1
		}
		return b, 0, 0.5
	}
	return b, half, 1 - dist.CDF(b/se)
}

// ANOVA is a one-way analysis of variance across groups.
type ANOVA struct {
	F, P         float64 // F statistic and its p-value
	DFb, DFw     int     // degrees of freedom between and within
	EtaSquared   float64 // share of variance explained by the grouping
	GroupMeans   []float64
	PooledStdDev float64
}

// OneWayANOVA tests H0: every group has the same mean.
func OneWayANOVA(groups [][]float64) ANOVA {
	k := len(groups)
	var all []float64
	r := ANOVA{GroupMeans: make([]float64, k)}
	for i, g := range groups {
		r.GroupMeans[i] = stat.Mean(g, nil)
		all = append(all, g...)
	}
	grand := stat.Mean(all, nil)
	ssb, ssw := 0.0, 0.0
	for i, g := range groups {
		ssb += float64(len(g)) * (r.GroupMeans[i] - grand) * (r.GroupMeans[i] - grand)
		for _, v := range g {
			ssw += (v - r.GroupMeans[i]) * (v - r.GroupMeans[i])
		}
	}
	r.DFb, r.DFw = k-1, len(all)-k
	if r.DFb < 1 || r.DFw < 1 {
		r.F, r.P = math.NaN(), math.NaN()
		return r
	}
	r.PooledStdDev = math.Sqrt(ssw / float64(r.DFw))
	r.EtaSquared = ssb / (ssb + ssw)
	if ssw == 0 {
		r.F, r.P = math.Inf(1), 0
		if ssb == 0 {
			r.F, r.P = 0, 1
		}
		return r
	}
	r.F = (ssb / float64(r.DFb)) / (ssw / float64(r.DFw))
	r.P = 1 - distuv.F{D1: float64(r.DFb), D2: float64(r.DFw)}.CDF(r.F)
	return r
}

// PairedMDE returns the smallest mean paired difference a one-sided paired
// t-test with n pairs detects with the given power at level alpha, for
// differences with standard deviation sd: (t_{1−α} + t_{power}) · sd/√n, with
// n−1 degrees of freedom (the usual approximation to the noncentral t).
func PairedMDE(n int, sd, alpha, power float64) float64 {
	if n < 2 {
		return math.NaN()
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}
	return (t.Quantile(1-alpha) + t.Quantile(power)) * sd / math.Sqrt(float64(n))
}
