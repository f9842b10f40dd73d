package algorithms

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// testPool draws a pool with features uniform in (−1, 1)^d and a linear
// latent utility θ*ᵀx with ‖θ*‖ = scale.
func testPool(t testing.TB, seed uint64, contexts, arms, d int, scale float64) (*Pool, []float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 77))
	x := make([]float64, contexts*arms*d)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	p, err := NewPool(contexts, arms, d, x)
	if err != nil {
		t.Fatal(err)
	}
	theta := make([]float64, d)
	for i := range theta {
		theta[i] = rng.NormFloat64()
	}
	floats.Scale(scale/floats.Norm(theta, 2), theta)
	return p, theta
}

// btAnswer draws the Bradley–Terry answer to q under utility θ*ᵀx.
func btAnswer(p *Pool, theta []float64, q Query, rng *rand.Rand) Feedback {
	u := floats.Dot(theta, p.Feature(q.Context, q.Arm1)) - floats.Dot(theta, p.Feature(q.Context, q.Arm2))
	if rng.Float64() < sigmoidTest(u) {
		return Arm1Won
	}
	return Arm2Won
}

func sigmoidTest(u float64) float64 { return 1 / (1 + math.Exp(-u)) }

func mustNew(t testing.TB, name string, p *Pool, cfg Config, seed uint64) Learner {
	t.Helper()
	l, err := New(name, Env{Pool: p, Config: cfg, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestLinearBTGradientAndSolution checks LinearBT's gradient against central
// finite differences of its loss, that Fit reaches a stationary point (the
// unique minimiser, L being strictly convex), that a warm-started refit stays
// there, and that with many duels θ̂ recovers the direction of θ*.
func TestLinearBTGradientAndSolution(t *testing.T) {
	p, theta := testPool(t, 1, 200, 5, 6, 3)
	cfg := Default()
	cfg.RetrainEvery = 1 << 30 // fit by hand
	m := NewLinearBT(Env{Pool: p, Config: cfg, Seed: 1})
	rng := rand.New(rand.NewPCG(2, 2))
	sel := NewStream(3, 3)
	for range 3000 {
		q := Query{Context: sel.IntN(p.Contexts), Arm1: 0, Arm2: 1 + sel.IntN(p.Arms-1)}
		win, lose := q.WinnerLoser(btAnswer(p, theta, q, rng))
		m.AddDuel(q.Context, win, lose)
	}
	probe := []float64{0.3, -1, 0.5, 2, -0.7, 0.1}
	got := m.GradientTo(nil, probe)
	want := fd.Gradient(nil, m.Loss, probe, &fd.Settings{Formula: fd.Central, Step: 1e-5})
	if !floats.EqualApprox(got, want, 1e-5*floats.Norm(want, math.Inf(1))) {
		t.Errorf("gradient %v, finite differences %v", got, want)
	}

	l0 := m.Loss(m.Theta)
	iters := m.Fit()
	g := m.GradientTo(nil, m.Theta)
	t.Logf("Newton: %d iterations, loss %.4f → %.4f, ‖∇L‖∞ = %.2g", iters, l0, m.Loss(m.Theta), floats.Norm(g, math.Inf(1)))
	if gn := floats.Norm(g, math.Inf(1)); gn > 1e-8 {
		t.Errorf("‖∇L(θ̂)‖∞ = %.3g after Fit, want ≤ 1e-8", gn)
	}
	if iters >= cfg.MLEIters {
		t.Errorf("Newton used all %d iterations from θ = 0 on 3,000 duels; want convergence earlier", iters)
	}
	before := append([]float64(nil), m.Theta...)
	if it := m.Fit(); it > 1 {
		t.Errorf("warm-started refit on unchanged data took %d iterations, want ≤ 1", it)
	}
	if !floats.EqualApprox(before, m.Theta, 1e-12) {
		t.Errorf("refit moved θ̂ from %v to %v", before, m.Theta)
	}
	cos := floats.Dot(m.Theta, theta) / (floats.Norm(m.Theta, 2) * floats.Norm(theta, 2))
	if cos < 0.95 {
		t.Errorf("cos(θ̂, θ*) = %.3f after 3,000 duels, want ≥ 0.95", cos)
	}
	for n := range p.Rows() {
		if s := floats.Dot(m.Theta, p.RowTo(nil, n)); s != m.RowScores()[n] {
			t.Fatalf("Scores[%d] = %g, θ̂ᵀx = %g", n, m.RowScores()[n], s)
		}
	}
}

// explicitV returns λI + Σ ψψᵀ over the given rows (j < 0: ψ = x_i; else
// ψ = x_i − x_j), factorised.
func explicitV(t testing.TB, p *Pool, lambda float64, ups [][2]int) *mat.Cholesky {
	v := mat.NewSymDense(p.Dim, nil)
	for i := range p.Dim {
		v.SetSym(i, i, lambda)
	}
	psi := mat.NewVecDense(p.Dim, nil)
	for _, u := range ups {
		xi := mat.NewVecDense(p.Dim, append([]float64(nil), p.RowTo(nil, u[0])...))
		if u[1] < 0 {
			psi.CopyVec(xi)
		} else {
			psi.SubVec(xi, mat.NewVecDense(p.Dim, append([]float64(nil), p.RowTo(nil, u[1])...)))
		}
		v.SymRankOne(v, 1, psi)
	}
	var ch mat.Cholesky
	if !ch.Factorize(v) {
		t.Fatal("explicit V not positive definite")
	}
	return &ch
}

// norm2 returns ψᵀV⁻¹ψ.
func norm2(t testing.TB, ch *mat.Cholesky, psi []float64) float64 {
	var sol mat.VecDense
	if err := ch.SolveVecTo(&sol, mat.NewVecDense(len(psi), psi)); err != nil {
		t.Fatal(err)
	}
	return floats.Dot(psi, sol.RawVector().Data)
}

// bruteBounds recomputes, with V explicit (its Cholesky factor ch), the
// bounds θᵀx ± β‖x‖_{V⁻¹} of every arm, the context score
// max_a U − max_a L of AE-Borda and AE-DPO, and its maximum over the pool.
func bruteBounds(t testing.TB, p *Pool, ch *mat.Cholesky, theta []float64, beta float64) (bound func(c, a int, sign float64) float64, score func(c int) float64, best float64) {
	bound = func(c, a int, sign float64) float64 {
		x := p.Feature(c, a)
		return floats.Dot(theta, x) + sign*beta*math.Sqrt(norm2(t, ch, append([]float64(nil), x...)))
	}
	score = func(c int) float64 {
		mu, ml := math.Inf(-1), math.Inf(-1)
		for a := range p.Arms {
			mu, ml = max(mu, bound(c, a, 1)), max(ml, bound(c, a, -1))
		}
		return mu - ml
	}
	best = math.Inf(-1)
	for c := range p.Contexts {
		best = max(best, score(c))
	}
	return bound, score, best
}

// TestAPOAgainstBruteForce checks every query of apo against the joint argmax
// of ‖x_a − x_b‖_{V⁻¹} over all contexts and pairs, with V formed explicitly
// in d dimensions from the queries so far.
func TestAPOAgainstBruteForce(t *testing.T) {
	p, theta := testPool(t, 3, 15, 4, 3, 2)
	cfg := Default()
	l := mustNew(t, "apo", p, cfg, 4)
	rng := rand.New(rand.NewPCG(5, 5))
	var ups [][2]int
	for round := range 60 {
		q := l.Select(Offer{})
		ch := explicitV(t, p, cfg.Lambda, ups)
		best, got := -1.0, 0.0
		for c := range p.Contexts {
			for a := range p.Arms {
				for b := a + 1; b < p.Arms; b++ {
					psi := make([]float64, p.Dim)
					floats.SubTo(psi, p.Feature(c, a), p.Feature(c, b))
					v := norm2(t, ch, psi)
					best = max(best, v)
					if c == q.Context && ((a == q.Arm1 && b == q.Arm2) || (a == q.Arm2 && b == q.Arm1)) {
						got = v
					}
				}
			}
		}
		if math.Abs(got-best) > 1e-9*best {
			t.Fatalf("round %d: queried pair has ‖ψ‖² = %.12g, the joint maximum is %.12g", round, got, best)
		}
		y := btAnswer(p, theta, q, rng)
		win, lose := q.WinnerLoser(y)
		ups = append(ups, [2]int{p.Row(q.Context, win), p.Row(q.Context, lose)})
		l.Observe(q, y)
	}
}

// TestAEBordaAgainstBruteForce recomputes every AE-Borda decision from
// scratch — ridge estimate by a d×d solve of the normal equations, widths
// from an explicit V — and checks the chosen context's score is the maximum
// and the first arm maximises U, for both Borda offsets.
func TestAEBordaAgainstBruteForce(t *testing.T) {
	for _, offset := range []float64{0.5, 0} {
		p, theta := testPool(t, 6, 12, 5, 4, 2)
		cfg := Default()
		cfg.BordaOffset = offset
		cfg.Beta = 0.7
		l := mustNew(t, "ae-borda", p, cfg, 7)
		rng := rand.New(rand.NewPCG(8, 8))
		var ups [][2]int
		var ys []float64
		for round := range 60 {
			q := l.Select(Offer{})
			if q.Arm1 == q.Arm2 {
				t.Fatal("AE-Borda duelled an arm with itself")
			}
			ch := explicitV(t, p, cfg.Lambda, ups)
			// θ̂ = V⁻¹ Σ x (y − o).
			b := make([]float64, p.Dim)
			for s, u := range ups {
				floats.AddScaled(b, ys[s]-offset, p.RowTo(nil, u[0]))
			}
			var th mat.VecDense
			if err := ch.SolveVecTo(&th, mat.NewVecDense(p.Dim, b)); err != nil {
				t.Fatal(err)
			}
			bound, score, best := bruteBounds(t, p, ch, th.RawVector().Data, cfg.Beta)
			if got := score(q.Context); math.Abs(got-best) > 1e-9*math.Abs(best) {
				t.Fatalf("offset %g round %d: chosen context scores %.12g, the maximum is %.12g", offset, round, got, best)
			}
			u1 := bound(q.Context, q.Arm1, 1)
			for a := range p.Arms {
				if u := bound(q.Context, a, 1); u > u1+1e-9*math.Abs(u1) {
					t.Fatalf("offset %g round %d: arm %d has U = %.12g above the first arm's %.12g", offset, round, a, u, u1)
				}
			}
			y := btAnswer(p, theta, q, rng)
			ups = append(ups, [2]int{p.Row(q.Context, q.Arm1), -1})
			ys = append(ys, float64(y))
			l.Observe(q, y)
		}
	}
}

// TestAEBordaSecondArmUniform checks that the second arm is uniform over the
// K−1 others: before any observation every U ties, so the first arm is a
// random tie-break; given it, each of the other three arms of a K = 4 context
// must appear about a third of the time.
func TestAEBordaSecondArmUniform(t *testing.T) {
	p, _ := testPool(t, 9, 1, 4, 2, 1)
	cfg := Default()
	cfg.Beta = 0
	l := mustNew(t, "ae-borda", p, cfg, 10).(*AEBorda)
	var counts [4][4]int
	const n = 12000
	for range n {
		q := l.Select(Offer{})
		if q.Arm1 == q.Arm2 {
			t.Fatal("AE-Borda duelled an arm with itself")
		}
		counts[q.Arm1][q.Arm2]++
	}
	for a1, row := range counts {
		tot := row[0] + row[1] + row[2] + row[3]
		if f := float64(tot) / n; math.Abs(f-0.25) > 0.03 {
			t.Errorf("first arm %d with frequency %.3f; exact ties should make it 1/4", a1, f)
		}
		for a2, k := range row {
			if a2 == a1 {
				continue
			}
			if f := float64(k) / float64(tot); math.Abs(f-1.0/3) > 0.05 {
				t.Errorf("second arm %d after first arm %d: conditional frequency %.3f, want 1/3 ± 0.05", a2, a1, f)
			}
		}
	}
}

// TestAEDPOArmRule checks the AE-DPO adaptation against its definition
// recomputed from scratch: the context maximises max U − max L, the first arm
// maximises U, the second maximises L among the others, and the pair score
// max(U_a1, U_a2) − max(L_a1, L_a2) equals the context score.
func TestAEDPOArmRule(t *testing.T) {
	p, theta := testPool(t, 11, 12, 5, 4, 3)
	cfg := Default()
	cfg.RetrainEvery = 7
	l := mustNew(t, "ae-dpo", p, cfg, 12).(*AEDPO)
	rng := rand.New(rand.NewPCG(13, 13))
	var ups [][2]int
	for round := range 80 {
		q := l.Select(Offer{})
		ch := explicitV(t, p, cfg.Lambda, ups)
		bound, score, best := bruteBounds(t, p, ch, l.model.Theta, cfg.Beta)
		c := q.Context
		tol := 1e-9 * (1 + math.Abs(best))
		if got := score(c); math.Abs(got-best) > tol {
			t.Fatalf("round %d: chosen context scores %.12g, maximum %.12g", round, got, best)
		}
		for a := range p.Arms {
			if bound(c, a, 1) > bound(c, q.Arm1, 1)+tol {
				t.Fatalf("round %d: first arm %d does not maximise U", round, q.Arm1)
			}
			if a != q.Arm1 && bound(c, a, -1) > bound(c, q.Arm2, -1)+tol {
				t.Fatalf("round %d: second arm %d does not maximise L among the others", round, q.Arm2)
			}
		}
		pair := max(bound(c, q.Arm1, 1), bound(c, q.Arm2, 1)) - max(bound(c, q.Arm1, -1), bound(c, q.Arm2, -1))
		if math.Abs(pair-best) > tol {
			t.Fatalf("round %d: pair score %.12g differs from the context score %.12g", round, pair, best)
		}
		y := btAnswer(p, theta, q, rng)
		win, lose := q.WinnerLoser(y)
		ups = append(ups, [2]int{p.Row(c, win), p.Row(c, lose)})
		l.Observe(q, y)
	}
}

// TestBaselinesScoreAndPolicy checks that every baseline implements Scorer,
// that its scores of the pool rows put the policy's arm at the maximum of
// each context, and, for the Borda learners, that the score carries the
// offset (a Borda estimate near 1/2 on average, not a zero-mean utility).
func TestBaselinesScoreAndPolicy(t *testing.T) {
	p, theta := testPool(t, 14, 20, 4, 3, 2)
	cfg := Default()
	cfg.Width = 16
	for _, name := range []string{"random", "random-nn", "apo", "neural-adb-apo", "ae-borda", "ae-borda-nn", "ae-dpo"} {
		t.Run(name, func(t *testing.T) {
			l := mustNew(t, name, p, cfg, 15)
			rng := rand.New(rand.NewPCG(16, 16))
			for range 200 {
				q := l.Select(Offer{})
				l.Observe(q, btAnswer(p, theta, q, rng))
			}
			s, ok := l.(Scorer)
			if !ok {
				t.Fatalf("%s does not implement Scorer", name)
			}
			scores := s.Score(nil, p.RowsTo(nil, 0, p.Rows()))
			pol := l.Policy(nil)
			mean := 0.0
			for c, a := range pol {
				row := scores[c*p.Arms : (c+1)*p.Arms]
				if row[a] < floats.Max(row) {
					t.Fatalf("context %d: policy arm %d scores %g below the context's maximum %g", c, a, row[a], floats.Max(row))
				}
				mean += floats.Sum(row) / float64(len(scores))
			}
			if name == "ae-borda" || name == "ae-borda-nn" {
				if math.Abs(mean-cfg.BordaOffset) > 0.25 {
					t.Errorf("mean Borda score %.3f, want within 0.25 of %g", mean, cfg.BordaOffset)
				}
			}
		})
	}
}
