package theory

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestNonDegenerateCounterexample: z_1 = 1, then z_s = 1/√2 in d = 1 (no
// zero step) violates Theorem 1 as stated from T = 102 on, with probability
// 1, and never before: violation needs V_T = (T+3)/2 < T − √(8·T·ln 20),
// i.e. T − 3 > 2·√(8·T·ln 20), first true at T = 102.
func TestNonDegenerateCounterexample(t *testing.T) {
	gen := SpikeThenConstant{L: 1, C: 1 / math.Sqrt2}
	ce, err := FirstViolation(gen, Literal, 0, 1000, 1, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	if !ce.Found || ce.Q.T != 102 {
		t.Fatalf("first violation at T = %d (found %v), want 102", ce.Q.T, ce.Found)
	}
	for _, T := range []int{101, 102, 103} {
		want := float64(T-3) > 2*math.Sqrt(8*float64(T)*math.Log(20))
		V := float64(T+3) / 2
		got := 1/math.Sqrt(V) > 1/math.Sqrt(float64(T)-math.Sqrt(8*float64(T)*math.Log(20)))
		if got != want {
			t.Errorf("T = %d: closed form %v, condition %v", T, got, want)
		}
	}
	// The repaired statement holds on it (Σ_min = 1/2).
	if ce, err := FirstViolation(gen, Repaired, 0, 1000, 1, 0.05); err != nil || ce.Found {
		t.Errorf("repaired statement violated at T = %d (err %v)", ce.Q.T, err)
	}
}

// TestContinuousCounterexample: z_1 = 1, then z_s i.i.d. uniform on (−1, 1)
// violates Theorem 1 as stated in every sequence for T ≥ 100, while the
// repaired statement (Σ_min = 1/3) holds in every sequence.
func TestContinuousCounterexample(t *testing.T) {
	o := ContinuousOptions(true)
	o.T = []int{100, 200, 1000}
	rep, err := CheckTheorem1(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Points {
		if f := p.Claims[Literal].Freq; f != 1 {
			t.Errorf("T = %d: literal violated in a share %v of %d sequences, want all", p.T, f, p.N)
		}
		if v := p.Claims[Repaired].Violations; v != 0 {
			t.Errorf("T = %d: repaired statement violated in %d sequences", p.T, v)
		}
	}
	if cs, _ := rep.Verdict("spike-then-uniform", Literal); cs.Verdict != Fails || cs.FirstFailT != 100 {
		t.Errorf("literal: %+v, want fails from T = 100", cs)
	}
}

// TestEverySequenceViolatesWithLargeSigmaMax: with the admissible
// Σ_max = M·I, M just above UniversalSigmaMax, sequences of every kind
// violate Theorem 1 as stated, and the bound falls as M grows.
func TestEverySequenceViolatesWithLargeSigmaMax(t *testing.T) {
	const d, T, lambda, L, delta = 4, 1000, 1.0, 1.0, 0.05
	M := UniversalSigmaMax(T, d, lambda, L, delta) * (1 + 1e-6)
	if M <= L*L {
		t.Fatalf("M* = %v ≤ L²: Σ_max = M·I would not be admissible", M)
	}
	tau := math.Sqrt(8 * T * L * L * L * L * math.Log(d/delta))
	bound := NewBound(L, T*M-tau)
	for _, gen := range []Generator{IIDIsotropic{D: d, L: L}, Greedy{D: d, N: 8 * d, L: L}, EpsGreedy{D: d, N: 8 * d, L: L, Eps: 0.5}, AdvSubspace{D: d, K: d, L: L}} {
		for seed := range uint64(3) {
			seq, err := gen.Generate(seed, T, lambda)
			if err != nil {
				t.Fatal(err)
			}
			tr := NewTracker(d, lambda)
			for s := range T {
				tr.Add(seq.Z.RawRowView(s))
			}
			q, err := tr.Quantities(seq.Hyp, delta)
			if err != nil {
				t.Fatal(err)
			}
			if !bound.Violated(q.MaxNorm) {
				t.Errorf("%s seed %d: max norm %v within the bound %v at M = %v", gen.Name(), seed, q.MaxNorm, bound, M)
			}
		}
	}
	rows := MonotoneTable([]int{T}, []float64{1, 1.5, 2, 10}, d, lambda, L, delta)
	for i := 1; i < len(rows); i++ {
		if !(rows[i].Bound.Value < rows[i-1].Bound.Value) {
			t.Errorf("bound at M = %v (%v) not below M = %v (%v)", rows[i].M, rows[i].Bound, rows[i-1].M, rows[i-1].Bound)
		}
		if rows[i].Universal != (rows[i].M > UniversalSigmaMax(T, d, lambda, L, delta)) {
			t.Errorf("M = %v: Universal = %v", rows[i].M, rows[i].Universal)
		}
	}
}

// TestConditionalReading: greedy and ε-greedy violate Theorem 1 only when
// Σ_s is the conditional moment; with the unconditional E[z_s z_sᵀ] (which
// is (L²/d)·I for them, checked here by Monte Carlo) they satisfy it, while
// the adversaries violate it under both readings.
func TestConditionalReading(t *testing.T) {
	const d, L = 3, 1.0
	for _, gen := range []Generator{Greedy{D: d, N: 8 * d, L: L}, EpsGreedy{D: d, N: 8 * d, L: L, Eps: 0.5}} {
		const seeds, s = 2000, 6
		avg := mat.NewSymDense(d, nil)
		var hyp Hypotheses
		for seed := range uint64(seeds) {
			seq, err := gen.Generate(seed, s, 1)
			if err != nil {
				t.Fatal(err)
			}
			z := seq.Z.RawRowView(s - 1)
			avg.SymRankOne(avg, 1/float64(seeds), mat.NewVecDense(d, z))
			hyp = seq.Hyp
		}
		for i := range d {
			for j := range d {
				if got, want := avg.At(i, j), hyp.SigmaMaxUnconditional.At(i, j); math.Abs(got-want) > 0.05 {
					t.Errorf("%s: E[z_%d z_%dᵀ][%d,%d] ≈ %.3f, declared %.3f", gen.Name(), s, s, i, j, got, want)
				}
			}
		}
	}
	o := DefaultTheorem1Options(true)
	rep, err := CheckTheorem1(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		gen         string
		lit, uncond Verdict
	}{
		{"greedy", Fails, Holds},
		{"eps-greedy", Fails, Holds},
		{"adversarial-subspace-k0", Fails, Fails},
		{"spike-then-constant", Fails, Fails},
		{"iid-isotropic", Holds, Holds},
	} {
		lit, _ := rep.Verdict(tc.gen, Literal)
		unc, _ := rep.Verdict(tc.gen, LiteralUnconditional)
		if lit.Verdict != tc.lit || unc.Verdict != tc.uncond {
			t.Errorf("%s: literal %s, unconditional %s; want %s, %s", tc.gen, lit.Verdict, unc.Verdict, tc.lit, tc.uncond)
		}
	}
}
