package algorithms

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/logistic"
	"github.com/neural-adb/nadb/internal/xmath"
)

// plusFitNuUncached is fitNu as it was before its cache: the reference the
// cached fit must reproduce bit for bit.
func plusFitNuUncached(recM, recV []float64, nu2, gamma float64) (float64, float64) {
	n := len(recM)
	w := make([]float64, n)
	f := 1.0
	for s := n - 1; s >= 0; s-- {
		w[s] = f
		f *= gamma
	}
	ll := func(tau, nu2 float64) float64 {
		v := 0.0
		for s, ms := range recM {
			v += w[s] * logistic.LogSigmoid(tau*ms/math.Sqrt(1+math.Pi*tau*tau*nu2*recV[s]/8))
		}
		return v
	}
	tau := 1.0
	for range 3 {
		best := math.Inf(-1)
		for k := -12; k <= 40; k++ {
			x := xmath.Pow(2, float64(k)/2)
			if v := ll(tau, x); v > best {
				best, nu2 = v, x
			}
		}
		best = math.Inf(-1)
		for j := -24; j <= 8; j++ {
			x := xmath.Pow(2, float64(j)/4)
			if v := ll(x, nu2); v > best {
				best, tau = v, x
			}
		}
	}
	return tau, nu2
}

// TestPlusFitCaches: the cached temperature and ν̂ fits equal the uncached
// ones bit for bit while the records grow (past plusCacheLen, where the
// later terms are computed at every call), and after the records change
// under the cache.
func TestPlusFitCaches(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var marg, recV []float64
	var tc plusTempCache
	ps := &plusPosterior{nu2: 1}
	grow := func(n int) {
		for range n {
			m := 2 * rng.NormFloat64()
			if rng.Float64() < 0.3 {
				m = -m
			}
			marg = append(marg, m)
			recV = append(recV, rng.ExpFloat64())
		}
	}
	check := func(step string, gamma float64) {
		t.Helper()
		wantTau, wantLL := plusFitTemperature(marg, gamma)
		gotTau, gotLL := tc.fit(marg, gamma)
		if math.Float64bits(gotTau) != math.Float64bits(wantTau) || math.Float64bits(gotLL) != math.Float64bits(wantLL) {
			t.Errorf("%s, %d margins: temperature fit (%v, %v), uncached (%v, %v)", step, len(marg), gotTau, gotLL, wantTau, wantLL)
		}
		ps.recM, ps.recV = marg, recV
		wantT, wantN := plusFitNuUncached(marg, recV, ps.nu2, gamma)
		ps.fitNu(gamma)
		if math.Float64bits(ps.tau) != math.Float64bits(wantT) || math.Float64bits(ps.nu2) != math.Float64bits(wantN) {
			t.Errorf("%s, %d records: ν̂ fit (τ %v, ν² %v), uncached (%v, %v)", step, len(marg), ps.tau, ps.nu2, wantT, wantN)
		}
	}
	for _, n := range []int{1, 19, 20, 100, 700} {
		grow(n)
		check("growing", 1-1.0/200)
	}
	check("same records, other discount", 0.9)
	marg[5] = -marg[5] // the records change under the caches
	check("changed record", 1-1.0/200)
	marg, recV = marg[:30], recV[:30]
	check("fewer records", 1-1.0/200)
	grow(plusCacheLen + 50 - len(marg))
	check("beyond the kept records", 1-1.0/200)
	grow(20)
	check("beyond the kept records", 1-1.0/200)
}

// TestPlusNuTerms: plusSoftplusTo gives logistic.Softplus's bits, and
// plusNuCache.terms logistic.LogSigmoid's bits of
// τ m_s / √(1 + π τ² ν² v_s / 8), on both sides of 0 and of gemm.Log1p's
// vector range (|x| near 0.88), for large margins and special values.
func TestPlusNuTerms(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	recM := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 800, -800, 40, -40, 0.8813, -0.8813, 0.8814, -0.8814, 1e-300, -1e-300}
	for range 20000 {
		recM = append(recM, math.Ldexp(rng.NormFloat64(), rng.IntN(12)-6))
	}
	recV := make([]float64, len(recM))
	for s := range recV {
		recV[s] = rng.ExpFloat64()
	}
	sp := make([]float64, len(recM))
	plusSoftplusTo(sp, recM, make([]float64, len(recM)))
	for s, y := range recM {
		if want := logistic.Softplus(y); math.Float64bits(sp[s]) != math.Float64bits(want) {
			t.Fatalf("y %v: plusSoftplusTo %v, Softplus %v", y, sp[s], want)
		}
	}
	var nc plusNuCache
	for _, p := range [][2]float64{{1, 1}, {0.3, 5}, {2, 0}, {1, math.Inf(1)}} {
		tau, nu2 := p[0], p[1]
		got := nc.terms(nil, tau, nu2, recM, recV)
		for s, m := range recM {
			want := logistic.LogSigmoid(tau * m / math.Sqrt(1+math.Pi*tau*tau*nu2*recV[s]/8))
			if math.Float64bits(got[s]) != math.Float64bits(want) {
				t.Fatalf("τ %v, ν² %v, m %v, v %v: term %v, LogSigmoid %v", tau, nu2, m, recV[s], got[s], want)
			}
		}
	}
}
