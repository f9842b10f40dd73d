package theory

import (
	"context"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gonum.org/v1/gonum/mat"
)

func near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func track(lambda float64, zs ...[]float64) *Tracker {
	tr := NewTracker(len(zs[0]), lambda)
	for _, z := range zs {
		tr.Add(z)
	}
	return tr
}

func diag(v ...float64) *mat.SymDense {
	m := mat.NewSymDense(len(v), nil)
	for i, x := range v {
		m.SetSym(i, i, x)
	}
	return m
}

// TestQuantities2x2: λ = 1, z = (1,0), (1,1): V = [[3,1],[1,2]],
// λmin = (5 − √5)/2, V⁻¹ = [[2,−1],[−1,3]]/5, ΣC = 1 + 4.
func TestQuantities2x2(t *testing.T) {
	tr := track(1, []float64{1, 0}, []float64{1, 1})
	pts := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	h := Hypotheses{L: math.Sqrt2, SigmaMax: diag(2, 2), SigmaMin: diag(0.5, 0.5), Support: Finite{Points: pts}}
	q, err := tr.Quantities(h, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	lmin := (5 - math.Sqrt(5)) / 2
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"λmin(V)", q.LambdaMinV, lmin},
		{"max over {e1, e2}", q.MaxNorm, math.Sqrt(3.0 / 5)},
		{"max over the ball", q.MaxNormBall, math.Sqrt2 / math.Sqrt(lmin)},
		{"ΣC realised", q.SumC, 5},
		{"ΣC a priori", q.SumCAPriori, 2 * 4},
		{"λmin(Σmax)", q.LambdaMinSigmaMax, 2},
		{"λmin(Σmin)", q.LambdaMinSigmaMin, 0.5},
		{"literal G²", q.Bounds[Literal].Radicand, 2*2 - math.Sqrt(8*8*math.Log(2/0.05))},
		{"realised G²", q.Bounds[LiteralRealisedC].Radicand, 2*2 - math.Sqrt(8*5*math.Log(2/0.05))},
		{"repaired G²", q.Bounds[Repaired].Radicand, 1 + 2*0.5 - math.Sqrt(8*8*math.Log(2/0.05))},
	} {
		if !near(c.got, c.want, 1e-12) {
			t.Errorf("%s = %.17g, want %.17g", c.name, c.got, c.want)
		}
	}
	// Every radicand is negative at T = 2: every bound is undefined, with no NaN.
	for _, c := range Claims {
		b := q.Bounds[c]
		if b.Defined || b.Value != 0 || b.String() != "undefined" || q.Violated(c) {
			t.Errorf("%s: %+v (%s), want an undefined bound that is never violated", c, b, b)
		}
	}
}

// TestQuantities3x3: λ = 1, z = e1, 2e2, 3e3, (1,1,0):
// V = [[3,1,0],[1,6,0],[0,0,10]], λmin = (9 − √13)/2.
func TestQuantities3x3(t *testing.T) {
	tr := track(1, []float64{1, 0, 0}, []float64{0, 2, 0}, []float64{0, 0, 3})
	h := Hypotheses{L: 3, SigmaMax: diag(9, 9, 9), Support: Ellipsoid{Axes: []float64{1, 2, 3}}}
	q, err := tr.Quantities(h, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	// V = diag(2, 5, 10): max over {Au} is √λmax(diag(1/2, 4/5, 9/10)).
	if !near(q.MaxNorm, math.Sqrt(0.9), 1e-12) || !near(q.LambdaMinV, 2, 1e-12) || !near(q.SumC, 1+16+81, 1e-12) {
		t.Errorf("diagonal stage: max %v (want √0.9), λmin %v (want 2), ΣC %v (want 98)", q.MaxNorm, q.LambdaMinV, q.SumC)
	}
	tr.Add([]float64{1, 1, 0})
	q, err = tr.Quantities(Hypotheses{L: 3, SigmaMax: diag(9, 9, 9), Support: Ball{R: 3}}, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	lmin := (9 - math.Sqrt(13)) / 2
	if !near(q.LambdaMinV, lmin, 1e-12) || !near(q.MaxNorm, 3/math.Sqrt(lmin), 1e-12) || !near(q.SumC, 102, 1e-12) {
		t.Errorf("λmin %v (want %v), ball max %v (want %v), ΣC %v (want 102)", q.LambdaMinV, lmin, q.MaxNorm, 3/math.Sqrt(lmin), q.SumC)
	}
	// Inverse of the 2×2 block [[3,1],[1,6]] is [[6,−1],[−1,3]]/17: e2 has norm² 3/17.
	f, _ := tr.Forms()
	if got := (Finite{Points: mat.NewDense(1, 3, []float64{0, 1, 0})}).MaxNorm(f); !near(got, math.Sqrt(3.0/17), 1e-12) {
		t.Errorf("‖e2‖_{V⁻¹} = %v, want √(3/17)", got)
	}
}

// TestOneDimensionalCounterexample evaluates the d = 1 counterexample in
// closed form: V_28 = 2, G² = 28 − √(224 ln 20).
func TestOneDimensionalCounterexample(t *testing.T) {
	tr := NewTracker(1, 1)
	tr.Add([]float64{1})
	for range 27 {
		tr.Add([]float64{0})
	}
	q, err := tr.Quantities(Hypotheses{L: 1, SigmaMax: diag(1), Support: Ball{R: 1}}, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	g2 := 28 - math.Sqrt(224*math.Log(20))
	if !near(q.Bounds[Literal].Radicand, g2, 1e-12) || !near(q.Bounds[Literal].Value, 1/math.Sqrt(g2), 1e-12) || !near(q.MaxNorm, 1/math.Sqrt2, 1e-12) {
		t.Errorf("G² %v (want %v), bound %v, max %v (want 1/√2)", q.Bounds[Literal].Radicand, g2, q.Bounds[Literal].Value, q.MaxNorm)
	}
	if !q.Violated(Literal) || q.Violated(Repaired) {
		t.Errorf("literal violated %v (want true), repaired violated %v (want false)", q.Violated(Literal), q.Violated(Repaired))
	}
}

func TestBound(t *testing.T) {
	if b := NewBound(2, 4); !b.Defined || b.Value != 1 || b.String() != "1" || !b.Violated(1.01) || b.Violated(1) {
		t.Errorf("NewBound(2, 4) = %+v", b)
	}
	for _, r := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if b := NewBound(1, r); b.Defined || math.IsNaN(b.Value) || math.IsNaN(b.Radicand) || b.Violated(1e300) {
			t.Errorf("NewBound(1, %v) = %+v, want undefined without NaN", r, b)
		}
	}
}

func TestSmallestCounterexample(t *testing.T) {
	for _, tc := range []struct {
		c    Claim
		d, T int
	}{{Literal, 1, 28}, {LiteralRealisedC, 1, 7}, {LiteralScalar, 1, 28}} {
		ce, err := SmallestCounterexample(tc.c, 3, 100, 1, 1, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		if !ce.Found || ce.Q.Dim != tc.d || ce.Q.T != tc.T {
			t.Errorf("%s: found %v at d = %d, T = %d; want d = %d, T = %d", tc.c, ce.Found, ce.Q.Dim, ce.Q.T, tc.d, tc.T)
			continue
		}
		// Recompute from the printed sequence.
		tr := NewTracker(ce.Q.Dim, 1)
		for s := range ce.Q.T {
			tr.Add(ce.Seq.Z.RawRowView(s))
		}
		q, err := tr.Quantities(ce.Seq.Hyp, 0.05)
		if err != nil || !q.Violated(tc.c) {
			t.Errorf("%s: recomputed violation %v (%v)", tc.c, q.Violated(tc.c), err)
		}
	}
	ce, err := SmallestCounterexample(Repaired, 3, 200, 1, 1, 0.05)
	if err != nil || ce.Found {
		t.Errorf("the repaired statement has a counterexample: %v (%v)", ce, err)
	}
}

// TestCheckTheorem1Verdicts runs a small Monte Carlo: the repaired statement
// holds where it is defined, the literal one holds for i.i.d. data with the
// exact Σ and fails for the adversary and for Σmax = L²·I.
func TestCheckTheorem1Verdicts(t *testing.T) {
	o := Theorem1Options{
		Generators: []Generator{IIDIsotropic{D: 2, L: 1}, EpsGreedy{D: 2, N: 16, L: 1, Eps: 0.6}, AdvSubspace{D: 2, K: 1, L: 1}},
		T:          []int{64, 128, 256, 512, 1024, 2048},
		Seeds:      20, Lambda: 1, Delta: 0.05, Level: 0.95, SlopePoints: 4,
	}
	rep, err := CheckTheorem1(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		gen string
		c   Claim
		v   Verdict
	}{
		{"iid-isotropic", Literal, Holds},
		{"iid-isotropic", Repaired, Holds},
		{"iid-isotropic", LiteralScalar, Fails},
		{"eps-greedy", Repaired, Holds},
		{"eps-greedy", Literal, Fails},
		{"adversarial-subspace-k1", Literal, Fails},
		{"adversarial-subspace-k1", Repaired, Vacuous},
	}
	for _, w := range want {
		cs, ok := rep.Verdict(w.gen, w.c)
		if !ok || cs.Verdict != w.v {
			t.Errorf("%s, %s: %s (worst frequency %v at T = %d), want %s", w.gen, w.c, cs.Verdict, cs.WorstFreq, cs.WorstT, w.v)
		}
	}
	for _, g := range rep.Generators {
		if g.Name == "iid-isotropic" && (!g.EmpiricalSlope.OK || math.Abs(g.EmpiricalSlope.Value+0.5) > 0.05) {
			t.Errorf("i.i.d. isotropic: slope of the maximum norm %v, want ≈ −0.5", g.EmpiricalSlope)
		}
		if g.Name == "adversarial-subspace-k1" && math.Abs(g.EmpiricalSlope.Value) > 1e-9 {
			t.Errorf("adversary: slope %v, want 0", g.EmpiricalSlope)
		}
	}
	// Same report with a different number of workers.
	o.Workers = 3
	rep3, err := CheckTheorem1(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	rep.Options.Workers, rep3.Options.Workers = 0, 0
	if d := cmp.Diff(rep, rep3, cmp.Comparer(func(a, b Generator) bool { return a.Name() == b.Name() })); d != "" {
		t.Errorf("report depends on Workers:\n%s", d)
	}
}

func TestOptionsErrors(t *testing.T) {
	good := DefaultTheorem1Options(true)
	for name, mod := range map[string]func(*Theorem1Options){
		"unsorted T": func(o *Theorem1Options) { o.T = []int{8, 4} },
		"repeated T": func(o *Theorem1Options) { o.T = []int{8, 8} },
		"δ":          func(o *Theorem1Options) { o.Delta = 1 },
		"seeds":      func(o *Theorem1Options) { o.Seeds = 0 },
		"λ":          func(o *Theorem1Options) { o.Lambda = 0 },
	} {
		o := good
		mod(&o)
		if _, err := CheckTheorem1(context.Background(), o); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
