package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// signedRanksFor returns differences 1…n in absolute value whose positive
// ranks sum to w (the largest ranks first), the rest negative.
func signedRanksFor(n, w int) []float64 {
	d := make([]float64, n)
	rem := w
	for r := n; r >= 1; r-- {
		d[r-1] = -float64(r)
		if r <= rem {
			d[r-1] = float64(r)
			rem -= r
		}
	}
	if rem != 0 {
		panic("no such W+")
	}
	return d
}

// TestSignedRankTable compares the exact one-sided p-values P(W+ ≤ w) with
// the published critical values of the signed-rank statistic (the largest w
// with P ≤ 0.05 is 10 for n = 10, 60 for n = 20, 151 for n = 30) and with the
// exact null distribution as tabulated by scipy.stats.wilcoxon(method =
// "exact", alternative = "less"), version 1.10.1, for the same inputs.
func TestSignedRankTable(t *testing.T) {
	for _, tc := range []struct {
		n, w int
		p    float64
	}{
		{10, 8, 0.0244140625},
		{10, 10, 0.0419921875},
		{10, 11, 0.052734375},
		{15, 30, 0.04730224609375},
		{20, 52, 0.02422046661376953},
		{20, 60, 0.048653602600097656},
		{25, 100, 0.04786673188209534},
		{30, 120, 0.009830407798290253},
		{30, 151, 0.04805078636854887},
		{30, 152, 0.05019867792725563},
		{30, 232, 0.5},
	} {
		d := signedRanksFor(tc.n, tc.w)
		r := SignedRankLess(d, make([]float64, tc.n))
		if r.N != tc.n || r.WPlus != float64(tc.w) || !r.Exact {
			t.Errorf("n = %d, W+ = %d: got %+v", tc.n, tc.w, r)
		}
		if math.Abs(r.P-tc.p) > 1e-12*math.Max(1, tc.p) {
			t.Errorf("n = %d, W+ = %d: p = %.17g, want %.17g", tc.n, tc.w, r.P, tc.p)
		}
	}
}

// TestSignedRankBruteForce checks the exact p-value with ties and zeros
// against the enumeration of all 2^n sign patterns of the midranks.
func TestSignedRankBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 1 + rng.IntN(14)
		a, b := make([]float64, n), make([]float64, n)
		for i := range a {
			// Few distinct values, so that ties and zeros are common.
			a[i] = float64(rng.IntN(7) - 3)
			b[i] = float64(rng.IntN(3) - 1)
		}
		got := SignedRankLess(a, b)
		// Brute force: midranks of the non-zero |d|.
		var d []float64
		for i := range a {
			if x := a[i] - b[i]; x != 0 {
				d = append(d, x)
			}
		}
		m := len(d)
		if got.N != m || got.Zeros != n-m {
			t.Fatalf("trial %d: N = %d, zeros = %d; want %d, %d", trial, got.N, got.Zeros, m, n-m)
		}
		rank := make([]float64, m)
		for i := range d {
			less, equal := 0, 0
			for j := range d {
				switch {
				case math.Abs(d[j]) < math.Abs(d[i]):
					less++
				case math.Abs(d[j]) == math.Abs(d[i]):
					equal++
				}
			}
			rank[i] = float64(less) + float64(equal+1)/2
		}
		obs := 0.0
		for i, x := range d {
			if x > 0 {
				obs += rank[i]
			}
		}
		count := 0
		for mask := range 1 << m {
			s := 0.0
			for i := range m {
				if mask&(1<<i) != 0 {
					s += rank[i]
				}
			}
			if s <= obs+1e-9 {
				count++
			}
		}
		want := float64(count) / float64(int(1)<<m)
		if got.WPlus != obs || math.Abs(got.P-want) > 1e-12 {
			t.Fatalf("trial %d: d = %v: W+ = %v, p = %v; want %v, %v", trial, d, got.WPlus, got.P, obs, want)
		}
	}
}

// TestSignedRankHeavyTail: one extreme seed weighs as one rank. Nine seeds
// favour a by a little and one favours b by a lot: the t-test sees no
// difference, the signed-rank test sees 9 of 10.
func TestSignedRankHeavyTail(t *testing.T) {
	a := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 30}
	b := []float64{1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2}
	if p := PairedTLess(a, b).P; p < 0.5 {
		t.Fatalf("t-test p = %v, want ≥ 0.5 (the extreme seed dominates)", p)
	}
	r := SignedRankLess(a, b)
	// W+ = 10 (the extreme seed has the largest rank): P(W+ ≤ 10) = 0.042.
	if r.WPlus != 10 || math.Abs(r.P-0.0419921875) > 1e-15 {
		t.Fatalf("signed-rank: %+v, want W+ = 10, p = 0.0419921875", r)
	}
}

func TestSignedRankEdges(t *testing.T) {
	if r := SignedRankLess([]float64{1, 2}, []float64{1, 2}); r.P != 1 || r.N != 0 || r.Zeros != 2 {
		t.Errorf("all zero differences: %+v, want p = 1", r)
	}
	if r := SignedRankLess([]float64{1, math.NaN()}, []float64{2, 3}); !math.IsNaN(r.P) {
		t.Errorf("NaN input: p = %v, want NaN", r.P)
	}
	// The normal approximation beyond the exact range agrees with the
	// exact distribution at its edge.
	n := signedRankExactMax + 1
	a, b := make([]float64, n), make([]float64, n)
	for i := range a {
		a[i] = float64(i + 1)
		if i%3 == 0 {
			a[i] = -a[i]
		}
	}
	approx := SignedRankLess(a, b)
	exact := SignedRankLess(a[:n-1], b[:n-1])
	if approx.Exact || !exact.Exact || math.Abs(approx.P-exact.P) > 0.01 {
		t.Errorf("normal approximation %v (exact %v) far from the exact %v", approx.P, approx.Exact, exact.P)
	}
}

func TestBootstrapPercentile(t *testing.T) {
	x := make([]float64, 30)
	for i := range x {
		x[i] = float64(i)
	}
	mean := func(idx []int) float64 {
		s := 0.0
		for _, i := range idx {
			s += x[i]
		}
		return s / float64(len(idx))
	}
	lo, hi := BootstrapPercentile(len(x), 4000, 0.95, rand.New(rand.NewPCG(7, 8)), mean)
	// Standard error of the mean of 0…29: sd/√n ≈ 8.80/5.48 = 1.61 (the
	// bootstrap uses the plug-in sd, 8.66); 95% ≈ 14.5 ± 3.1.
	if !(lo > 10.9 && lo < 11.9 && hi > 17.1 && hi < 18.1) {
		t.Errorf("bootstrap interval of the mean [%v, %v], want ≈ [11.4, 17.6]", lo, hi)
	}
	lo2, hi2 := BootstrapPercentile(len(x), 4000, 0.95, rand.New(rand.NewPCG(7, 8)), mean)
	if lo2 != lo || hi2 != hi {
		t.Error("same stream, different interval")
	}
	// A statistic that is +Inf in most resamples: the upper bound is +Inf.
	_, hi = BootstrapPercentile(10, 100, 0.95, rand.New(rand.NewPCG(1, 1)), func(idx []int) float64 {
		if idx[0] < 8 {
			return math.Inf(1)
		}
		return 1
	})
	if !math.IsInf(hi, 1) {
		t.Errorf("upper bound %v, want +Inf", hi)
	}
}
