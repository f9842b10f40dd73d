package theory

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/mlp"
)

// smallFeatures returns θ0-gradient features of a small random pool.
func smallFeatures(t *testing.T, init mlp.Init, d, w, rows int, seed uint64) *mlp.Features {
	t.Helper()
	net := mlp.NewNet(mlp.Arch{In: d, Width: w, Depth: 2})
	rng := rand.New(rand.NewPCG(seed, 1))
	if err := net.Initialize(init, 1, rng); err != nil {
		t.Fatal(err)
	}
	x := make([]float64, rows*d)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	return net.NewFeatures(x, 1/float64(w))
}

// bruteEffDim forms 𝕍 = Σ_s Σ_{a<b} z zᵀ over the rounds' contexts and takes
// log det(I + α𝕍) by LU.
func bruteEffDim(phi *mat.Dense, arms int, ctxs []int, alpha float64) float64 {
	_, p := phi.Dims()
	V := mat.NewSymDense(p, nil)
	z := mat.NewVecDense(p, nil)
	for _, c := range ctxs {
		for a := range arms {
			for b := a + 1; b < arms; b++ {
				z.SubVec(phi.RowView(c*arms+a), phi.RowView(c*arms+b))
				V.SymRankOne(V, 1, z)
			}
		}
	}
	A := mat.NewDense(p, p, nil)
	for i := range p {
		for j := range p {
			A.Set(i, j, alpha*V.At(i, j))
		}
		A.Set(i, i, A.At(i, i)+1)
	}
	ld, sign := mat.LogDet(A)
	if sign <= 0 {
		panic("bruteEffDim: non-positive determinant")
	}
	return ld
}

func TestEffectiveDimensionRoutes(t *testing.T) {
	for _, tc := range []struct {
		name       string
		init       mlp.Init
		d, w, arms int
		ctxs       []int
		alpha      float64
	}{
		{"mirrored, K=3, dual smaller", mlp.InitMirrored, 3, 4, 3, []int{0, 2, 2, 1, 0, 2}, 0.7},
		{"he, K=4, primal smaller", mlp.InitHe, 2, 2, 4, []int{0, 1, 2, 3, 4, 5, 5, 5, 1}, 2.5},
		{"tiny α (series)", mlp.InitHe, 2, 4, 3, []int{1, 1, 0}, 1e-12},
	} {
		contexts := 6
		f := smallFeatures(t, tc.init, tc.d, tc.w, contexts*tc.arms, 7)
		p := f.Arch.NumParams()
		phi := mat.NewDense(f.Rows(), p, nil)
		for i := range f.Rows() {
			f.GradientTo(phi.RawRowView(i), i)
		}
		counts := make([]int, contexts)
		for _, c := range tc.ctxs {
			counts[c]++
		}
		want := bruteEffDim(phi, tc.arms, tc.ctxs, tc.alpha)
		dual, err := EffectiveDimensionDual(f, tc.arms, counts, tc.alpha)
		if err != nil {
			t.Fatal(err)
		}
		primal, err := EffectiveDimensionPrimal(phi, tc.arms, counts, tc.alpha)
		if err != nil {
			t.Fatal(err)
		}
		auto, err := EffectiveDimension(f, p, tc.arms, counts, tc.alpha)
		if err != nil {
			t.Fatal(err)
		}
		tol := 1e-10
		if tc.alpha < 1e-9 {
			// LU of I + tiny loses the digits the series keeps: compare
			// with the first-order value α·tr𝕍 instead.
			want = tc.alpha * primal.Trace
		}
		for _, e := range []EffDim{dual, primal, auto} {
			if !near(e.Value, want, tol) {
				t.Errorf("%s: %s d̃ = %.15g, brute force %.15g", tc.name, e.Route, e.Value, want)
			}
			if e.Value > e.TraceBound(tc.alpha)*(1+1e-12) || e.Value > PairsBound(p, len(tc.ctxs), tc.arms, math.Sqrt(maxPairNorm2(phi, tc.arms, contexts)), tc.alpha)*(1+1e-12) {
				t.Errorf("%s: d̃ = %v above its trace bound %v or pairs bound", tc.name, e.Value, e.TraceBound(tc.alpha))
			}
		}
		if !near(dual.Trace, primal.Trace, 1e-12) {
			t.Errorf("%s: tr𝕍 dual %v, primal %v", tc.name, dual.Trace, primal.Trace)
		}
		// The mirrored case queries 3 distinct contexts: (K−1)·3 = 6 < p = 32.
		if tc.init == mlp.InitMirrored && (auto.Route != "dual" || dual.Size != 3*(tc.arms-1)) {
			t.Errorf("%s: route %s, dual order %d; want the dual route of order %d", tc.name, auto.Route, dual.Size, 3*(tc.arms-1))
		}
		if tc.init == mlp.InitHe && tc.alpha > 1e-9 && auto.Route != "primal" {
			t.Errorf("%s: route %s, want primal (p = %d < (K−1)·6)", tc.name, auto.Route, p)
		}
	}
}

func maxPairNorm2(phi *mat.Dense, arms, contexts int) float64 {
	z := pairDifferences(phi, contexts, arms)
	r, _ := z.Dims()
	m := 0.0
	for i := range r {
		row := z.RawRowView(i)
		s := 0.0
		for _, x := range row {
			s += x * x
		}
		m = math.Max(m, s)
	}
	return m
}

func TestKappaTable(t *testing.T) {
	if got, want := muPrime(40), math.Exp(-40)/math.Pow(1+math.Exp(-40), 2); !near(got, want, 1e-14) || got == 0 {
		t.Errorf("μ'(40) = %v, want %v", got, want)
	}
	if got := muPrime(0); got != 0.25 {
		t.Errorf("μ'(0) = %v, want 1/4", got)
	}
	rows, err := KappaTable([]string{"square", "sine"}, experiments.DefaultProblem(), 2, 0, 1, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if k := muPrime(r.MaxGap); !(r.Min > 0 && r.Min <= r.Median && r.Median <= r.Max && r.Max <= 0.25) || k < r.Min*(1-1e-12) || k > r.Max*(1+1e-12) {
			t.Errorf("%s: κ_μ row %+v is inconsistent", r.Problem, r)
		}
	}
	// Square's rewards reach 10·(xᵀθ)² ≈ 40: κ_μ is about e^{−36}.
	if sq := rows[0]; sq.Median > 1e-12 || sq.Median < 1e-20 {
		t.Errorf("square: median κ_μ = %v, want ≈ e^{−36}", sq.Median)
	}
}

// TestPaperScaleSmall runs the paper-scale path on a small problem and checks
// it against the explicit computations.
func TestPaperScaleSmall(t *testing.T) {
	o := DefaultPaperScaleOptions(true)
	o.Problem = experiments.ProblemSpec{Name: "square", Dim: 4, Arms: 4, Contexts: 12, Theta: "sphere"}
	o.Config.Width = 8
	o.T = []int{5, 10, 20, 40}
	o.Seeds, o.SlopePoints = 2, 3
	rep, err := PaperScale(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.P != 4*8+64+8 || len(rep.Points) != 2*len(o.T) {
		t.Fatalf("p = %d, %d points", rep.P, len(rep.Points))
	}
	for _, pt := range rep.Points {
		if pt.MaxNorm > pt.MaxNormBall*(1+1e-9) || pt.DTilde > pt.TraceBound*(1+1e-9) || pt.DTilde > pt.PairsBound || pt.Distinct > float64(pt.T) {
			t.Errorf("%s T=%d: inconsistent point %+v", pt.Algorithm, pt.T, pt)
		}
	}
	o.T = []int{10, rep.P}
	if _, err := PaperScale(context.Background(), o); err == nil {
		t.Error("a checkpoint T ≥ p was accepted")
	}
}
