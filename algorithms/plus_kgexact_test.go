package algorithms

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/xmath"
)

// plusKGReference is plusKG as first written (an insertion sort of arm
// indices, then the envelope over them): the reference its faster form
// must reproduce bit for bit.
func plusKGReference(mu, b []float64, best int) float64 {
	var idx []int
	for a := range mu {
		if a == best || mu[best]-mu[a] < 8*math.Abs(b[a]-b[best]) {
			idx = append(idx, a)
		}
	}
	if len(idx) < 2 {
		return 0
	}
	less := func(i, j int) bool { return b[i] < b[j] || (b[i] == b[j] && mu[i] < mu[j]) }
	for k := 1; k < len(idx); k++ {
		for q := k; q > 0 && less(idx[q], idx[q-1]); q-- {
			idx[q], idx[q-1] = idx[q-1], idx[q]
		}
	}
	var env []int
	var cut []float64
	for _, a := range idx {
		for len(env) > 0 {
			top := env[len(env)-1]
			if b[top] == b[a] {
				env = env[:len(env)-1]
				cut = cut[:len(cut)-1]
				continue
			}
			z := (mu[top] - mu[a]) / (b[a] - b[top])
			if len(env) > 1 && z <= cut[len(cut)-1] {
				env = env[:len(env)-1]
				cut = cut[:len(cut)-1]
				continue
			}
			break
		}
		z := math.Inf(-1)
		if len(env) > 0 {
			top := env[len(env)-1]
			z = (mu[top] - mu[a]) / (b[a] - b[top])
		}
		env = append(env, a)
		cut = append(cut, z)
	}
	kg := 0.0
	for k := 1; k < len(env); k++ {
		c := math.Abs(cut[k])
		kg += float64((b[env[k]] - b[env[k-1]]) * (float64(plusPhi(-c)*(-c)) + xmath.Exp(-c*c/2)/math.Sqrt(2*math.Pi)))
	}
	return kg
}

// TestPlusKGExact: plusKG equals its reference bit for bit on random lines
// with tied and nearly tied (a few ulps) slopes and means, signed zeros,
// infinities and NaNs, for K from 1 to 40 (one workspace throughout, as in
// use): K ≤ 10 goes through kgSortNet, larger K through kgSortInsert. The
// same calls deferred and completed by flush, as knowledgeGradient does
// (gemm.NormalLoss on the gathered segments), add the same totals.
func TestPlusKGExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1e300, -1e300, 5e-324}
	pick := func(scale float64, prev []float64) float64 {
		switch r := rng.IntN(20); {
		case r == 0:
			return special[rng.IntN(len(special))]
		case r < 4 && len(prev) > 0:
			return prev[rng.IntN(len(prev))] // a tie
		case r == 4 && len(prev) > 0: // a near tie, within kgSortNet's 4 key bits
			v := prev[rng.IntN(len(prev))]
			for range rng.IntN(20) {
				v = math.Nextafter(v, math.Inf(2*rng.IntN(2)-1))
			}
			return v
		case r < 6:
			return math.Round(rng.NormFloat64()*4) / 4
		default:
			return scale * rng.NormFloat64()
		}
	}
	var ws, batch kgScratch
	var calls int
	var want []float64
	for trial := range 200000 {
		K := 1 + rng.IntN(12)
		if trial%50 == 0 {
			K = 1 + rng.IntN(40)
		}
		mu, b := make([]float64, K), make([]float64, K)
		scale := math.Pow(10, float64(rng.IntN(7)-3))
		for a := range K {
			mu[a] = pick(1, mu[:a])
			b[a] = pick(scale, b[:a])
			if trial%3 == 1 { // lines tangent to scale·z²/2: long envelopes
				z := 2 * rng.NormFloat64()
				b[a], mu[a] = scale*z, -scale*z*z/2
			}
		}
		best := plusArgmax(mu)
		if trial%7 == 0 {
			best = rng.IntN(K) // callers pass the argmax; any arm must still agree
		}
		ref := plusKGReference(mu, b, best)
		got := plusKG(mu, b, best, &ws)
		if math.Float64bits(got) != math.Float64bits(ref) && !(math.IsNaN(got) && math.IsNaN(ref)) {
			t.Fatalf("mu %v, b %v, best %d: plusKG %v, reference %v", mu, b, best, got, ref)
		}
		// The same call deferred as knowledgeGradient defers it, into
		// one of 7 totals; flushed every so often, as there.
		j := trial % 7
		batch.add(j, mu, b, best)
		calls++
		want = append(want, ref)
		if batch.full() || trial == 199999 {
			total, wtotal := make([]float64, 7), make([]float64, 7)
			for i, v := range want {
				wtotal[(trial-calls+1+i)%7] += v
			}
			batch.flush(total)
			for i := range total {
				if math.Float64bits(total[i]) != math.Float64bits(wtotal[i]) && !(math.IsNaN(total[i]) && math.IsNaN(wtotal[i])) {
					t.Fatalf("trials up to %d, total %d: deferred %v, plusKG %v", trial, i, total[i], wtotal[i])
				}
			}
			calls, want = 0, want[:0]
		}
	}
}

// TestKGNet10: kgNet10 sorts every input of 0s and 1s (so every input, by
// the 0-1 principle) and leaves k[10:] alone.
func TestKGNet10(t *testing.T) {
	for m := range 1 << 10 {
		var k [16]int64
		for i := range k {
			k[i] = int64(m>>i&1) - int64(i/10*(i+1))
		}
		want := k
		kgNet10(&k)
		for i := 1; i < 10; i++ {
			if k[i] < k[i-1] {
				t.Fatalf("input %010b: output %v not sorted", m, k[:10])
			}
		}
		ones := 0
		for i := range 10 {
			ones += int(k[i])
		}
		if ones != bits.OnesCount(uint(m)) || [6]int64(k[10:]) != [6]int64(want[10:]) {
			t.Fatalf("input %010b: output %v, want %d ones and %v after", m, k, bits.OnesCount(uint(m)), want[10:])
		}
	}
}

// TestPlusCovTimes: covTimes equals the row-by-row plusDot(Σ_r, ψ) bit for
// bit on an exactly symmetric Σ (as rebuild and add keep it), for sizes
// around the vector widths and with signed zeros and infinities in ψ.
func TestPlusCovTimes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, m := range []int{1, 3, 4, 7, 8, 9, 16, 70, 71} {
		ps := &plusPosterior{m: m, cov: make([]float64, m*m)}
		for i := range m {
			for j := i; j < m; j++ {
				v := rng.NormFloat64()
				ps.cov[i*m+j], ps.cov[j*m+i] = v, v
			}
		}
		psi := make([]float64, m)
		for k := range psi {
			switch rng.IntN(8) {
			case 0:
				psi[k] = math.Copysign(0, -1)
			case 1:
				psi[k] = 0
			default:
				psi[k] = rng.NormFloat64()
			}
		}
		if m == 9 {
			psi[4] = math.Inf(1)
		}
		got := make([]float64, m)
		ps.covTimes(got, psi)
		for r := range m {
			want := plusDot(ps.cov[r*m:(r+1)*m], psi)
			if math.Float64bits(got[r]) != math.Float64bits(want) && !(math.IsNaN(got[r]) && math.IsNaN(want)) {
				t.Errorf("m = %d, row %d: covTimes %v, plusDot %v", m, r, got[r], want)
			}
		}
	}
}
