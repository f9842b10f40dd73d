package stats

import (
	"math"
	"slices"

	"github.com/neural-adb/nadb/internal/xmath"
)

// SignedRank is the result of a Wilcoxon signed-rank test of H1: the paired
// differences a − b tend to be negative (a below b).
type SignedRank struct {
	N     int     // pairs with a non-zero difference (the ones ranked)
	Zeros int     // pairs with a zero difference (dropped, Wilcoxon's rule)
	WPlus float64 // sum of the ranks of the positive differences (midranks for ties)
	P     float64 // one-sided p-value P(W+ ≤ observed) under H0
	Exact bool    // P is from the exact null distribution (else normal approximation)
}

// signedRankExactMax is the largest number of ranked pairs for which
// SignedRankLess computes the exact null distribution; beyond it the normal
// approximation is accurate to far better than the decisions need.
const signedRankExactMax = 300

// SignedRankLess tests whether a tends to be smaller than b, pairing a[i]
// with b[i] (the same seed), by the Wilcoxon signed-rank test: the absolute
// differences are ranked (tied values get the mean of their ranks), zero
// differences are dropped, and the p-value is the probability under H0 (each
// difference's sign a fair coin, independently) that the sum of the ranks of
// the positive differences is at most the observed one.
//
// The null distribution is exact (the permutation distribution of the signs
// given the ranks, so ties are handled exactly, as the conditional test) for
// up to 300 ranked pairs; beyond, the normal approximation with tie
// correction and continuity correction is used. The test does not assume the
// differences are normal, so a single extreme seed — common for max-type
// metrics such as the worst gap — weighs as one rank, not by its size. A NaN
// among the inputs gives P = NaN. It panics if the lengths differ.
func SignedRankLess(a, b []float64) SignedRank {
	if len(a) != len(b) {
		panic("stats: SignedRankLess length mismatch")
	}
	var d []float64
	r := SignedRank{}
	for i := range a {
		x := a[i] - b[i]
		switch {
		case math.IsNaN(x):
			return SignedRank{N: len(a), P: math.NaN(), WPlus: math.NaN()}
		case x == 0:
			r.Zeros++
		default:
			d = append(d, x)
		}
	}
	n := len(d)
	r.N = n
	if n == 0 {
		r.P = 1
		r.Exact = true
		return r
	}
	// Midranks of |d|, doubled so that they are integers.
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		ai, aj := math.Abs(d[i]), math.Abs(d[j])
		switch {
		case ai < aj:
			return -1
		case ai > aj:
			return 1
		}
		return 0
	})
	rank2 := make([]int, n) // twice the midrank
	tieTerm := 0.0          // Σ (t³ − t) over tie groups
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && math.Abs(d[idx[hi]]) == math.Abs(d[idx[lo]]) {
			hi++
		}
		// ranks lo+1 … hi share the midrank (lo+1+hi)/2.
		for k := lo; k < hi; k++ {
			rank2[idx[k]] = lo + 1 + hi
		}
		t := float64(hi - lo)
		tieTerm += t*t*t - t
		lo = hi
	}
	w2 := 0 // twice W+
	for i, x := range d {
		if x > 0 {
			w2 += rank2[i]
		}
	}
	r.WPlus = float64(w2) / 2
	if n <= signedRankExactMax {
		r.P, r.Exact = signedRankCDF(rank2, w2), true
		return r
	}
	nf := float64(n)
	mean := nf * (nf + 1) / 4
	variance := nf*(nf+1)*(2*nf+1)/24 - tieTerm/48
	z := (r.WPlus + 0.5 - mean) / math.Sqrt(variance)
	r.P = 0.5 * xmath.Erfc(-z/math.Sqrt2) // the standard normal CDF as distuv.UnitNormal.CDF evaluates it, with the same bits on every processor
	return r
}

// signedRankCDF returns P(Σ_i s_i·rank2_i ≤ w2) for independent fair coins
// s_i ∈ {0, 1}: the exact null distribution of twice W+ by dynamic
// programming over the ranks (probabilities, halved at each step, so that
// no count overflows).
func signedRankCDF(rank2 []int, w2 int) float64 {
	total := 0
	for _, r := range rank2 {
		total += r
	}
	p := make([]float64, total+1)
	p[0] = 1
	reach := 0
	for _, r := range rank2 {
		for s := reach; s >= 0; s-- {
			if p[s] != 0 {
				p[s+r] += p[s] / 2
				p[s] /= 2
			}
		}
		reach += r
	}
	cdf := 0.0
	for s := 0; s <= min(w2, total); s++ {
		cdf += p[s]
	}
	return min(cdf, 1)
}
