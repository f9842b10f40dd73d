package theory

import (
	"context"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
)

// minEig returns λ_min(a − b) (b nil: 0).
func minEig(a, b *mat.SymDense) float64 {
	d := a.SymmetricDim()
	m := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			x := a.At(i, j)
			if b != nil {
				x -= b.At(i, j)
			}
			m.SetSym(i, j, x)
		}
	}
	return lambdaMin(m)
}

// checkHypotheses verifies that seq satisfies the hypotheses of Theorem 1 it
// declares, so that any violation found is one of the statement: every z_s
// lies in Z and has ‖z_s‖ ≤ L, sup_Z ‖z‖ ≤ L, Σ_min ⪯ Σ_s ⪯ Σ_max, and the
// declared Σ_s are the conditional moments in the sense that the martingale
// average (1/T)Σ_s (z_s z_sᵀ − Σ_s) is within the matrix Azuma bound at
// δ = 1e-6.
func checkHypotheses(t *testing.T, name string, seq *Sequence) {
	t.Helper()
	h := seq.Hyp
	T, d := seq.Z.Dims()
	const tol = 1e-9
	if r := h.Support.Radius(); r > h.L*(1+tol) {
		t.Errorf("%s: sup over Z of ‖z‖ = %v > L = %v", name, r, h.L)
	}
	mart := mat.NewSymDense(d, nil)
	scale := h.L * h.L
	for s := 1; s <= T; s++ {
		z := seq.Z.RawRowView(s - 1)
		if n := floats.Norm(z, 2); n > h.L*(1+tol) {
			t.Fatalf("%s: ‖z_%d‖ = %v > L = %v", name, s, n, h.L)
		}
		if !h.Support.Contains(z, tol) {
			t.Fatalf("%s: z_%d = %v is not in Z (%s)", name, s, z, h.Support)
		}
		sig := seq.Sigma(s)
		if e := minEig(h.SigmaMax, sig); e < -tol*scale {
			t.Fatalf("%s: Σmax − Σ_%d has eigenvalue %v < 0", name, s, e)
		}
		if e := minEig(sig, h.SigmaMin); e < -tol*scale {
			t.Fatalf("%s: Σ_%d − Σmin has eigenvalue %v < 0", name, s, e)
		}
		mart.SymRankOne(mart, 1, mat.NewVecDense(d, z))
		for i := range d {
			for j := i; j < d; j++ {
				mart.SetSym(i, j, mart.At(i, j)-sig.At(i, j))
			}
		}
	}
	var eig mat.EigenSym
	eig.Factorize(mart, false)
	vals := eig.Values(nil)
	dev := math.Max(math.Abs(vals[0]), math.Abs(vals[len(vals)-1])) / float64(T)
	if lim := scale * math.Sqrt(8*math.Log(float64(d)/1e-6)/float64(T)); dev > lim {
		t.Errorf("%s: ‖(1/T)Σ(z zᵀ − Σ_s)‖ = %v exceeds the Azuma bound %v: Σ_s is not E[zzᵀ|F]", name, dev, lim)
	}
}

func TestGeneratorsRespectHypotheses(t *testing.T) {
	gens := append(SyntheticGenerators(3, 1.5), AdvSubspace{D: 1, K: 0, L: 2}, IIDAnisotropic{D: 1, L: 1, Ratio: 0.5})
	for _, g := range gens {
		for seed := range uint64(3) {
			seq, err := g.Generate(seed, 400, 0.7)
			if err != nil {
				t.Fatal(err)
			}
			if r, c := seq.Z.Dims(); r != 400 || c != g.Dim() {
				t.Fatalf("%s: %d×%d sequence, want 400×%d", g.Name(), r, c, g.Dim())
			}
			checkHypotheses(t, fmt.Sprintf("%s seed %d", g.Name(), seed), seq)
		}
	}
}

// TestNeuralSequence checks the reduced-scale Neural-ADB sequence's
// hypotheses, and that the maximum norm over the pool's pairs computed from
// explicit p-vectors equals the learner's own exact confidence state.
func TestNeuralSequence(t *testing.T) {
	for _, alg := range []string{"neural-adb-ucb", "neural-adb-ucb-randctx"} {
		g := DefaultNeuralSequence(alg)
		seq, err := g.Generate(3, 40, 1)
		if err != nil {
			t.Fatal(err)
		}
		checkHypotheses(t, alg, seq)
		if _, err := g.Generate(3, 10, 2); err == nil {
			t.Errorf("%s: λ = 2 accepted although the learner's V_0 is 1·I", alg)
		}
	}
	g := DefaultNeuralSequence("neural-adb-ucb")
	in, err := newNeuralInstance(g.Algorithm, g.Problem, g.Config, 5)
	if err != nil {
		t.Fatal(err)
	}
	pool := in.prob.Pool
	p := g.Dim()
	phi := mat.NewDense(pool.Rows(), p, nil)
	for i := range pool.Rows() {
		in.feat.GradientTo(phi.RawRowView(i), i)
	}
	sup := Finite{Points: pairDifferences(phi, pool.Contexts, pool.Arms)}
	tr := NewTracker(p, 1)
	psi := make([]float64, p)
	err = experiments.Loop(context.Background(), in.learner, in.prob, 0, 60, experiments.Hooks{Observed: func(_ int, q algorithms.Query, y algorithms.Feedback) error {
		win, lose := q.WinnerLoser(y)
		floats.SubTo(psi, phi.RawRowView(pool.Row(q.Context, win)), phi.RawRowView(pool.Row(q.Context, lose)))
		tr.Add(psi)
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := tr.Forms()
	if err != nil {
		t.Fatal(err)
	}
	mx := 0.0
	for c := range pool.Contexts {
		_, _, n2 := in.learner.Conf.MaxPair(c)
		mx = math.Max(mx, n2)
	}
	if got, want := sup.MaxNorm(f), math.Sqrt(mx); !near(got, want, 1e-8) {
		t.Errorf("explicit max norm %v, learner's %v", got, want)
	}
	if !near(f.LambdaMin, 1, 1e-9) {
		t.Errorf("λmin(V_60) = %v, want exactly λ/κ = 1 (the mirrored features span a proper subspace)", f.LambdaMin)
	}
}

func TestGeneratorErrors(t *testing.T) {
	for _, g := range []Generator{
		IIDIsotropic{D: 0, L: 1}, IIDAnisotropic{D: 2, L: 1, Ratio: 0}, Greedy{D: 2, N: 0, L: 1},
		EpsGreedy{D: 2, N: 3, L: 1, Eps: 1}, AdvSubspace{D: 2, K: 3, L: 1}, AdvRandomSubspace{D: 2, K: 0, L: 1},
	} {
		if _, err := g.Generate(1, 10, 1); err == nil {
			t.Errorf("%s %+v: no error", g.Name(), g)
		}
	}
}
