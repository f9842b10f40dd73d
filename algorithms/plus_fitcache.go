package algorithms

import (
	"math"

	"github.com/neural-adb/nadb/internal/gemm"
	"github.com/neural-adb/nadb/internal/logistic"
	"github.com/neural-adb/nadb/internal/xmath"
)

// The grid searches of plusFitTemperature and plusPosterior.fitNu evaluate
// the log-likelihood of every prequential record at a few dozen scales
// after every retrain, while the records only grow: the caches below keep
// each record's term at each scale visited, so that a retrain evaluates the
// logistic function on the new records only. The sums are formed exactly
// as before (the same terms, weighted and added in the same order), so the
// fits are bit for bit those without the caches.

// plusCacheLen bounds the records whose terms are kept per scale (the terms
// of later records are computed at every call); it bounds the caches'
// memory at 8·plusCacheLen bytes per scale.
const plusCacheLen = 4096

// plusDiscounts writes the discount weights γ^{n−1−s} of n records into
// *buf (the product formed from the last record backwards, as the fits have
// always formed it) and returns them.
func plusDiscounts(buf *[]float64, n int, gamma float64) []float64 {
	w := growF(buf, n)
	f := 1.0
	for s := n - 1; s >= 0; s-- {
		w[s] = f
		f *= gamma
	}
	return w
}

// plusPrefixEqual reports whether the first len(old) values of cur are old,
// bit for bit.
func plusPrefixEqual(old, cur []float64) bool {
	if len(cur) < len(old) {
		return false
	}
	for i, v := range old {
		if math.Float64bits(v) != math.Float64bits(cur[i]) {
			return false
		}
	}
	return true
}

// plusTempCache is plusFitTemperature with its terms log μ(τ_j m_s) kept
// across calls (the margins of a member only grow).
type plusTempCache struct {
	marg  []float64   // the margins whose terms are kept
	terms [][]float64 // terms[j+24][s] = log μ(2^{j/4} m_s)
	w     []float64
}

// fit returns plusFitTemperature(marg, gamma), bit for bit.
func (tc *plusTempCache) fit(marg []float64, gamma float64) (tau, ll float64) {
	const jLo, jHi = -24, 8
	if !plusPrefixEqual(tc.marg, marg) {
		tc.marg = tc.marg[:0]
		for k := range tc.terms {
			tc.terms[k] = tc.terms[k][:0]
		}
	}
	if tc.terms == nil {
		tc.terms = make([][]float64, jHi-jLo+1)
	}
	kept := min(len(marg), plusCacheLen)
	w := plusDiscounts(&tc.w, len(marg), gamma)
	tau, ll = 0, 0
	for _, ws := range w {
		ll -= ws * math.Ln2
	}
	for j := jLo; j <= jHi; j++ {
		t := xmath.Pow(2, float64(j)/4)
		c := tc.terms[j-jLo]
		for _, ms := range marg[len(c):kept] {
			c = append(c, logistic.LogSigmoid(t*ms))
		}
		tc.terms[j-jLo] = c
		v := 0.0
		for s, term := range c {
			v += w[s] * term
		}
		for s := kept; s < len(marg); s++ {
			v += w[s] * logistic.LogSigmoid(t*marg[s])
		}
		if v > ll {
			tau, ll = t, v
		}
	}
	tc.marg = append(tc.marg, marg[len(tc.marg):kept]...)
	return tau, ll
}

// plusNuCache keeps, for the (τ, ν²) pairs of fitNu's recent grid searches,
// the terms log μ(τ m_s / √(1 + π τ² ν² v_s / 8)) of the records (m_s, v_s),
// which only grow. Pairs a call does not visit are dropped at its end.
type plusNuCache struct {
	recM, recV []float64 // the records whose terms are kept
	pairs      map[[2]uint64]*plusNuTerms
	call       int
	w          []float64
	y, ex, lg  []float64 // terms' workspace
}

// plusNuTerms are the kept terms of one (τ, ν²) pair and the call that last
// used them.
type plusNuTerms struct {
	terms []float64
	used  int
}

// begin starts a call on the records (recM, recV), discarding what was kept
// if the kept records are not their beginning.
func (nc *plusNuCache) begin(recM, recV []float64) {
	if nc.pairs == nil || !plusPrefixEqual(nc.recM, recM) || !plusPrefixEqual(nc.recV, recV) {
		nc.recM, nc.recV = nc.recM[:0], nc.recV[:0]
		nc.pairs = map[[2]uint64]*plusNuTerms{}
	}
	nc.call++
}

// end records the records now kept and drops the pairs the call did not
// use.
func (nc *plusNuCache) end(recM, recV []float64) {
	kept := min(len(recM), plusCacheLen)
	nc.recM = append(nc.recM, recM[len(nc.recM):kept]...)
	nc.recV = append(nc.recV, recV[len(nc.recV):kept]...)
	for k, e := range nc.pairs {
		if e.used < nc.call {
			delete(nc.pairs, k)
		}
	}
}

// terms appends to dst the terms log μ(x_s), x_s = τ m_s / √(1 + π τ² ν² v_s / 8),
// of the records (m_s, v_s), with logistic.LogSigmoid's bits: −Softplus(−x_s)
// by plusSoftplusTo.
func (nc *plusNuCache) terms(dst []float64, tau, nu2 float64, recM, recV []float64) []float64 {
	n := len(recM)
	recV = recV[:n]
	y := growF(&nc.y, n)
	for s, m := range recM {
		y[s] = -(tau * m / math.Sqrt(1+math.Pi*tau*tau*nu2*recV[s]/8))
	}
	sp := growF(&nc.lg, n)
	plusSoftplusTo(sp, y, growF(&nc.ex, n))
	for _, v := range sp {
		dst = append(dst, -v)
	}
	return dst
}

// plusSoftplusTo writes logistic.Softplus(y_s) into dst, bit for bit:
// y + log1p(e^{−y}) for y > 0 and log1p(e^y) otherwise, the logarithms
// taken at once by gemm.Log1p (math.Log1p's bits). ex is workspace; neither
// it nor dst may overlap y, nor each other.
func plusSoftplusTo(dst, y, ex []float64) {
	n := len(y)
	dst, ex = dst[:n], ex[:n]
	for s, v := range y {
		if v > 0 {
			ex[s] = xmath.Exp(-v)
		} else {
			ex[s] = xmath.Exp(v)
		}
	}
	gemm.Log1p(dst, ex)
	for s, v := range y {
		if v > 0 {
			dst[s] = v + dst[s]
		}
	}
}

// ll returns fitNu's discounted log-likelihood Σ_s w_s log μ(τ m_s / √(1 + π τ² ν² v_s / 8)).
func (nc *plusNuCache) ll(tau, nu2 float64, recM, recV, w []float64) float64 {
	term := func(s int) float64 {
		return logistic.LogSigmoid(tau * recM[s] / math.Sqrt(1+math.Pi*tau*tau*nu2*recV[s]/8))
	}
	key := [2]uint64{math.Float64bits(tau), math.Float64bits(nu2)}
	e := nc.pairs[key]
	if e == nil {
		e = &plusNuTerms{}
		nc.pairs[key] = e
	}
	e.used = nc.call
	kept := min(len(recM), plusCacheLen)
	if cap(e.terms) < kept { // room for this call's records and a few calls' more
		e.terms = append(make([]float64, 0, kept+kept/4), e.terms...)
	}
	if s0 := len(e.terms); s0 < kept {
		e.terms = nc.terms(e.terms, tau, nu2, recM[s0:kept], recV[s0:kept])
	}
	v := 0.0
	for s, t := range e.terms[:kept] {
		v += w[s] * t
	}
	for s := kept; s < len(recM); s++ {
		v += w[s] * term(s)
	}
	return v
}
