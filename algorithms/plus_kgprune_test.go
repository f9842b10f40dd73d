package algorithms

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/gemm"
	"github.com/neural-adb/nadb/internal/xmath"
)

// kgPsiQuad is the normal loss ψ(c) = ∫_0^∞ t φ(c+t) dt by Simpson's rule
// (step 1/4096 up to t = 12): another route than plusKG's formula.
func kgPsiQuad(c float64) float64 {
	const n = 12 * 4096
	h := 12.0 / n
	f := func(t float64) float64 { return t * math.Exp(-(c+t)*(c+t)/2) / math.Sqrt(2*math.Pi) }
	s := f(0) + f(12)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		s += w * f(float64(i)*h)
	}
	return s * h / 3
}

// kgPsiFormula is ψ(c) as plusKG computes it.
func kgPsiFormula(c float64) float64 {
	return float64(plusPhi(-c)*(-c)) + xmath.Exp(-c*c/2)/math.Sqrt(2*math.Pi)
}

// TestKGPsiTab: every point of kgPsiTab lies above ψ (by quadrature) by a
// relative 5e-11 at least and 2e-10 at most, the chords lie above ψ (by
// plusKG's formula) on random c in [0, 8], the rows from 128 on hold ψ(8)
// with no step, and kgPhi0 is not below φ(0).
func TestKGPsiTab(t *testing.T) {
	for i := range kgPsiMax + 1 {
		c := float64(i) / kgPsiSteps
		q := kgPsiQuad(c)
		if r := kgPsiTab[i][0]/q - 1; !(r >= 5e-11 && r <= 2e-10) {
			t.Errorf("kgPsiTab[%d] = %v, ψ(%v) = %v by quadrature: relative excess %v, want in [5e-11, 2e-10]", i, kgPsiTab[i][0], c, q, r)
		}
	}
	for i := kgPsiMax; i < len(kgPsiTab); i++ {
		if kgPsiTab[i] != [2]float64{kgPsiTab[kgPsiMax][0], 0} {
			t.Fatalf("kgPsiTab[%d] = %v, want ψ(8) with step 0", i, kgPsiTab[i])
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		c := 8 * rng.Float64()
		x := c * kgPsiSteps
		i := int(x)
		chord := kgPsiTab[i][0] + (x-float64(i))*kgPsiTab[i][1]
		if psi := kgPsiFormula(c); !(chord >= psi*(1+5e-11)) {
			t.Fatalf("chord at c = %v: %v, ψ %v", c, chord, psi)
		}
	}
	if kgPhi0 < 1/math.Sqrt(2*math.Pi) {
		t.Errorf("kgPhi0 = %v below φ(0)", kgPhi0)
	}
}

// TestKGBound: plusKG never exceeds the smaller of keep's range bound and
// kgChord by more than a relative 1e-10 (pruned uses 1e-9), on random
// lines with ties, near ties, lines tangent to a parabola, single
// competitors (where kgChord is nearly exact) and scales from 1e-3 to 1e3;
// and both bounds are NaN or +∞ when a slope is.
func TestKGBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var ws kgScratch
	worst := 0.0
	for trial := range 300000 {
		K := 2 + rng.IntN(11)
		mu, b := make([]float64, K), make([]float64, K)
		scale := math.Pow(10, float64(rng.IntN(7)-3))
		gap := math.Pow(10, float64(rng.IntN(5)-2))
		for a := range K {
			switch r := rng.IntN(10); {
			case r == 0 && a > 0: // a tie
				k := rng.IntN(a)
				mu[a], b[a] = mu[k], b[k]
			case r == 1 && a > 0: // a near tie
				k := rng.IntN(a)
				mu[a], b[a] = mu[k], b[k]
				for range rng.IntN(8) {
					b[a] = math.Nextafter(b[a], math.Inf(2*rng.IntN(2)-1))
					mu[a] = math.Nextafter(mu[a], math.Inf(2*rng.IntN(2)-1))
				}
			default:
				mu[a], b[a] = gap*rng.NormFloat64(), scale*rng.NormFloat64()
			}
			if trial%3 == 1 { // lines tangent to scale·z²/2: long envelopes
				z := 2 * rng.NormFloat64()
				b[a], mu[a] = scale*z, -scale*z*z/2
			}
		}
		if trial%5 == 2 { // one competitor close to best, the others far
			for a := 2; a < K; a++ {
				mu[a] = -1e6
			}
		}
		best := plusArgmax(mu)
		kg := plusKG(mu, b, best, &ws)
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range b {
			lo, hi = min(lo, v), max(hi, v)
		}
		r, ch := (hi-lo)*kgPhi0, kgChord(mu, b, best)
		if !(kg <= min(r, ch)*(1+1e-10)+1e-300) {
			t.Fatalf("mu %v, b %v: plusKG %v above the bounds %v (range), %v (kgChord)", mu, b, kg, r, ch)
		}
		if kg > 0 {
			worst = max(worst, kg/min(r, ch))
		}
	}
	t.Logf("largest plusKG / bound: %v", worst)
	mu := []float64{1, 0.5, 0.2}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for k := range mu {
			b := []float64{0.1, -0.3, 0.2}
			b[k] = v
			if ch := kgChord(mu, b, 0); !(math.IsNaN(ch) || math.IsInf(ch, 1)) {
				t.Errorf("b %v: kgChord %v, want NaN or +Inf", b, ch)
			}
		}
	}
}

// TestKGChordBounds: gemm.ChordBounds, as refine calls it (slopes of
// entry e at e·K, kgPsiTab), gives kgChord's bits on every path (NaN where
// kgChord is NaN), for 1 to 12 arms, 0 to 40 entries, ties, near ties,
// lines tangent to a parabola, NaN and infinite means and slopes.
func TestKGChordBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e300}
	for trial := range 3000 {
		K, n, N := 1+rng.IntN(12), rng.IntN(41), 1+rng.IntN(20)
		scale := math.Pow(10, float64(rng.IntN(7)-3))
		h, b := make([]float64, N*K), make([]float64, 50*K)
		for i := range h {
			switch r := rng.IntN(40); {
			case r == 0:
				h[i] = special[rng.IntN(len(special))]
			case r < 5 && i%K > 0:
				h[i] = h[i-1-rng.IntN(i%K)]
			default:
				h[i] = rng.NormFloat64()
			}
		}
		for i := range b {
			switch r := rng.IntN(40); {
			case r == 0:
				b[i] = special[rng.IntN(len(special))]
			case r < 5 && i%K > 0:
				b[i] = b[i-1-rng.IntN(i%K)]
			case r < 7 && i%K > 0:
				b[i] = math.Nextafter(b[i-1], math.Inf(2*rng.IntN(2)-1))
			case r < 12:
				z := 2 * rng.NormFloat64()
				b[i], h[(i/K)%N*K+i%K] = scale*z, -scale*z*z/2
			default:
				b[i] = scale * rng.NormFloat64()
			}
		}
		mo, bo, bi := make([]int32, n), make([]int32, n), make([]int32, n)
		want := make([]float64, n)
		for i := range n {
			c, e := rng.IntN(N), rng.IntN(50)
			best := plusArgmax(h[c*K : (c+1)*K])
			mo[i], bo[i], bi[i] = int32(c*K), int32(e*K), int32(best)
			want[i] = kgChord(h[c*K:(c+1)*K], b[e*K:(e+1)*K], best)
		}
		for _, p := range gemm.Available() {
			prev := gemm.Use(p)
			got := make([]float64, n)
			gemm.ChordBounds(got, h, b, mo, bo, bi, K, 1, &kgPsiTab)
			gemm.Use(prev)
			for i := range n {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
					t.Fatalf("%v trial %d entry %d: %v, want kgChord's %v", p, trial, i, got[i], want[i])
				}
			}
		}
	}
}

// TestKGOrd: kgOrd keeps the order of floats (−0 below +0) and kgUnord
// undoes it.
func TestKGOrd(t *testing.T) {
	vs := []float64{math.Inf(-1), -math.MaxFloat64, -1, -5e-324, math.Copysign(0, -1), 0, 5e-324, 1, math.MaxFloat64, math.Inf(1)}
	for i, v := range vs {
		if u := kgUnord(kgOrd(v)); math.Float64bits(u) != math.Float64bits(v) {
			t.Errorf("kgUnord(kgOrd(%v)) = %v", v, u)
		}
		if i > 0 && !(kgOrd(vs[i-1]) < kgOrd(v)) {
			t.Errorf("kgOrd(%v) = %d not below kgOrd(%v) = %d", vs[i-1], kgOrd(vs[i-1]), v, kgOrd(v))
		}
	}
	nan := math.NaN()
	for _, n := range []float64{nan, math.Copysign(nan, -1)} {
		k := kgOrd(n)
		if !(k > kgOrd(math.Inf(1)) || k < kgOrd(math.Inf(-1))) || !math.IsNaN(kgUnord(k)) {
			t.Errorf("NaN %x maps to %d", math.Float64bits(n), k)
		}
	}
}

// TestPlusKGPrune: on many random posteriors (random means, scales of ν̂²
// from 1e-3 to 1e2 and 0, where every total is 0), candidate duels with
// exact duplicates (equal totals, so ArgmaxRand draws), the pruned
// knowledge gradient gives each candidate its unpruned total, bit for bit,
// or −∞ where that total is below an earlier one; and ArgmaxRand chooses the
// same candidate on both and leaves its stream in the same state.
func TestPlusKGPrune(t *testing.T) {
	pool := smallPool(t, 5, 30, 6, 4)
	cfg := Default()
	cfg.Width, cfg.RetrainEvery = 8, 10
	l, err := NewNeuralADBPlus(Env{Pool: pool, Config: cfg, Seed: 3}, DefaultPlusOptions())
	if err != nil {
		t.Fatal(err)
	}
	for round := range 30 {
		l.Observe(l.Select(Offer{}), answer(round))
	}
	rng := rand.New(rand.NewPCG(11, 12))
	K := pool.Arms
	h := l.model.H()
	var pruned, summed, draws, zero int
	for trial := range 3000 {
		for i := range h {
			h[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(3)-1))
			if i%K > 0 && rng.IntN(8) == 0 {
				h[i] = h[i-1] // tied arms
			}
		}
		l.post.nu2 = math.Pow(10, float64(rng.IntN(6)-3))
		if trial%20 == 0 {
			l.post.nu2 = 0
		}
		M := 1 + rng.IntN(40)
		qs := make([][3]int, M)
		for j := range qs {
			if j > 0 && rng.IntN(4) == 0 {
				qs[j] = qs[rng.IntN(j)] // a duplicate: the same total
				continue
			}
			a1 := rng.IntN(K)
			a2 := (a1 + 1 + rng.IntN(K-1)) % K
			qs[j] = [3]int{rng.IntN(pool.Contexts), a1, a2}
		}
		full := l.knowledgeGradient(nil, qs, false)
		got := l.knowledgeGradient(nil, qs, true)
		run := math.Inf(-1)
		allZero := true
		for j := range M {
			switch {
			case math.Float64bits(got[j]) == math.Float64bits(full[j]):
				summed++
			case math.IsInf(got[j], -1) && full[j] < run:
				pruned++
			default:
				t.Fatalf("trial %d, candidate %d: pruned %v, total %v, largest earlier total %v", trial, j, got[j], full[j], run)
			}
			if j > 0 && full[j] == run {
				draws++
			}
			run = max(run, full[j])
			allZero = allZero && full[j] == 0
		}
		if allZero {
			zero++
		}
		seed := rng.Uint64()
		r1, r2 := rand.New(rand.NewPCG(seed, 1)), rand.New(rand.NewPCG(seed, 1))
		i1, i2 := ArgmaxRand(full, -1, r1), ArgmaxRand(got, -1, r2)
		if i1 != i2 || r1.Uint64() != r2.Uint64() {
			t.Fatalf("trial %d: ArgmaxRand chose %d on the totals, %d on the pruned ones (or the streams differ)", trial, i1, i2)
		}
	}
	t.Logf("%d candidates summed, %d pruned; %d ties with the running best; %d rounds of zero totals", summed, pruned, draws, zero)
	if pruned < summed/4 || draws < 100 || zero < 100 {
		t.Errorf("the test exercises too little: %d summed, %d pruned, %d ties, %d all-zero rounds", summed, pruned, draws, zero)
	}
}
