package algorithms

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/neural-adb/nadb/internal/logistic"
	"github.com/neural-adb/nadb/internal/mlp"
)

// TestFeatureNormUnit: with feature-norm=unit every φ has norm 1, so at V0 the
// diagonal of every block is 1/reg (the on-demand kernel of large pools is
// checked against this dense one by TestLazyConfidenceMatchesBlocks).
func TestFeatureNormUnit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const contexts, arms, dim = 6, 4, 3
	x := make([]float64, contexts*arms*dim)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	pool, err := NewPool(contexts, arms, dim, x)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Default()
	cfg.Width, cfg.FeatureNorm, cfg.Kappa = 8, FeatureUnit, 0.5
	m, err := NewNeuralModel(Env{Pool: pool, Config: cfg, Seed: 3}, true)
	if err != nil {
		t.Fatal(err)
	}
	cfg.FeatureNorm = FeatureAsDefined
	raw, err := NewNeuralModel(Env{Pool: pool, Config: cfg, Seed: 3}, true)
	if err != nil {
		t.Fatal(err)
	}
	reg := cfg.Lambda / cfg.Kappa
	nonzero := 0
	for c := range contexts {
		blk, rawBlk := m.Conf.Block(c), raw.Conf.Block(c)
		for a := range arms {
			want := 1 / reg
			if rawBlk[a*arms+a] == 0 { // every ReLU dead: φ = 0 stays 0
				want = 0
			} else {
				nonzero++
			}
			if got := blk[a*arms+a]; math.Abs(got-want) > 1e-12 {
				t.Errorf("context %d arm %d: ‖φ‖²_{V0⁻¹} = %v, want %v", c, a, got, want)
			}
		}
	}
	if nonzero < contexts*arms/2 {
		t.Fatalf("only %d of %d features are nonzero: the check says little", nonzero, contexts*arms)
	}
}

// smallPool returns a random pool of contexts × arms rows in dim dimensions.
func smallPool(t testing.TB, seed uint64, contexts, arms, dim int) *Pool {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 9))
	x := make([]float64, contexts*arms*dim)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	p, err := NewPool(contexts, arms, dim, x)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// answer returns a deterministic pseudo-random answer for round t.
func answer(t int) Feedback { return Feedback((t * 7 / 3) % 2) }

// TestLookaheadRowsExact: the rows of M = Φ V⁻¹ Φᵀ that the lookahead rule
// keeps by rank-one updates equal M formed from the explicit gradient features
// and an explicitly inverted V, across contexts, and agree with the
// per-context blocks of the confidence state.
func TestLookaheadRowsExact(t *testing.T) {
	pool := smallPool(t, 1, 6, 3, 2)
	cfg := Default()
	cfg.Width, cfg.Kappa, cfg.RetrainEvery, cfg.RefreshEvery = 6, 0.5, 5, 7
	l, err := NewNeuralADBLookahead(Env{Pool: pool, Config: cfg, Seed: 2}, false)
	if err != nil {
		t.Fatal(err)
	}
	var pairs [][2]int
	for round := range 17 {
		q := l.Select(Offer{})
		win, lose := q.WinnerLoser(answer(round))
		pairs = append(pairs, [2]int{pool.Row(q.Context, win), pool.Row(q.Context, lose)})
		l.Observe(q, answer(round))
		if round == 3 {
			l.rows.row(0) // a row made early must follow later updates too
		}
	}
	n, p := pool.Rows(), l.Net.Arch.NumParams()
	phi := mat.NewDense(n, p, nil)
	for i := range n {
		phi.SetRow(i, l.feat.GradientTo(nil, i))
	}
	reg := cfg.Lambda / cfg.Kappa
	v := mat.NewSymDense(p, nil)
	for i := range p {
		v.SetSym(i, i, reg)
	}
	psi := make([]float64, p)
	for _, pr := range pairs {
		for k := range psi {
			psi[k] = phi.At(pr[0], k) - phi.At(pr[1], k)
		}
		v.SymRankOne(v, 1, mat.NewVecDense(p, psi))
	}
	var ch mat.Cholesky
	if !ch.Factorize(v) {
		t.Fatal("V not positive definite")
	}
	var sol, want mat.Dense
	if err := ch.SolveTo(&sol, phi.T()); err != nil {
		t.Fatal(err)
	}
	want.Mul(phi, &sol)
	K := pool.Arms
	for _, i := range []int{0, 4, 9, 17} {
		row := l.rows.row(i)
		for j := range n {
			if d := math.Abs(row[j] - want.At(i, j)); d > 1e-9*math.Max(1, math.Abs(want.At(i, j))) {
				t.Errorf("M[%d][%d] = %v, explicit %v", i, j, row[j], want.At(i, j))
			}
		}
		c, a := i/K, i%K
		for b := range K {
			if d := math.Abs(row[c*K+b] - l.Conf.Block(c)[a*K+b]); d > 1e-9 {
				t.Errorf("M[%d][%d] = %v, block %v", i, c*K+b, row[c*K+b], l.Conf.Block(c)[a*K+b])
			}
		}
	}
}

// TestLastLayerExact: the Sherman–Morrison updates between retrains give the
// inverse of the explicitly accumulated Laplace precision, and var2 is the
// quadratic form in it.
func TestLastLayerExact(t *testing.T) {
	pool := smallPool(t, 3, 8, 4, 3)
	cfg := Default()
	cfg.Width, cfg.Init, cfg.RetrainEvery = 6, mlp.InitHe, 1000
	m, err := NewNeuralModel(Env{Pool: pool, Config: cfg, Seed: 4}, false)
	if err != nil {
		t.Fatal(err)
	}
	ll := newLastLayer(m)
	duels := [][2]int{{0, 1}, {5, 2}, {9, 11}, {31, 30}, {0, 3}, {17, 16}}
	for _, d := range duels {
		ll.add(m, d[0], d[1])
	}
	w := cfg.Width
	prec := mat.NewSymDense(w, nil)
	for i := range w {
		prec.SetSym(i, i, 2*cfg.Lambda)
	}
	for _, d := range duels {
		psi := make([]float64, w)
		for k := range psi {
			psi[k] = ll.emb[d[0]*w+k] - ll.emb[d[1]*w+k]
		}
		s := logistic.Sigmoid(m.RowScores()[d[0]] - m.RowScores()[d[1]])
		prec.SymRankOne(prec, s*(1-s), mat.NewVecDense(w, psi))
	}
	var inv mat.Dense
	if err := inv.Inverse(prec); err != nil {
		t.Fatal(err)
	}
	for i := range w {
		for j := range w {
			if d := math.Abs(ll.cov[i*w+j] - inv.At(i, j)); d > 1e-10 {
				t.Fatalf("cov[%d][%d] = %v, explicit inverse %v", i, j, ll.cov[i*w+j], inv.At(i, j))
			}
		}
	}
	rebuilt := &lastLayer{w: w, rho: ll.rho, duels: duels, d: make([]float64, w), u: make([]float64, w)}
	rebuilt.rebuild(m)
	for _, pr := range [][2]int{{0, 1}, {2, 3}, {12, 30}} {
		dv := make([]float64, w)
		for k := range dv {
			dv[k] = ll.emb[pr[0]*w+k] - ll.emb[pr[1]*w+k]
		}
		want := mat.Inner(mat.NewVecDense(w, dv), &inv, mat.NewVecDense(w, dv))
		if got := ll.var2(pr[0], pr[1]); math.Abs(got-want) > 1e-10*math.Max(1, want) {
			t.Errorf("var2%v = %v, want %v", pr, got, want)
		}
		if got := rebuilt.var2(pr[0], pr[1]); math.Abs(got-want) > 1e-10*math.Max(1, want) {
			t.Errorf("rebuilt var2%v = %v, want %v", pr, got, want)
		}
	}
}

// TestFitNu2RecoversScale: answers drawn from μ(Δ), Δ ~ N(m, ν0² v), lead the
// prequential fit to ν ≈ ν0, for ν0 well below and well above 1.
func TestFitNu2RecoversScale(t *testing.T) {
	for _, nu0 := range []float64{0.5, 4} {
		rng := rand.New(rand.NewPCG(5, 6))
		var ms, vs []float64
		for range 20000 {
			m := 3 * rng.NormFloat64()
			v := 0.5 + rng.Float64()
			delta := m + nu0*math.Sqrt(v)*rng.NormFloat64()
			if rng.Float64() >= logistic.Sigmoid(delta) {
				m = -m // the loser is the first arm: record h_win − h_lose
			}
			ms, vs = append(ms, m), append(vs, v)
		}
		got := math.Sqrt(fitNu2(ms, vs))
		if got < nu0/1.5 || got > nu0*1.5 {
			t.Errorf("ν0 = %v: fitted ν = %v", nu0, got)
		}
	}
}

// TestLastLayerSampleCovariance: posterior draws L z have covariance P⁻¹.
func TestLastLayerSampleCovariance(t *testing.T) {
	pool := smallPool(t, 7, 5, 3, 2)
	cfg := Default()
	cfg.Width, cfg.Init = 4, mlp.InitHe
	m, err := NewNeuralModel(Env{Pool: pool, Config: cfg, Seed: 8}, false)
	if err != nil {
		t.Fatal(err)
	}
	ll := newLastLayer(m)
	for _, d := range [][2]int{{0, 1}, {3, 5}, {7, 8}, {0, 2}} {
		ll.add(m, d[0], d[1])
	}
	w := cfg.Width
	rng := rand.New(rand.NewPCG(9, 10))
	g := make([]float64, w)
	emp := make([]float64, w*w)
	const draws = 40000
	for range draws {
		ll.sampleDirection(g, rng.NormFloat64)
		for i := range w {
			for j := range w {
				emp[i*w+j] += g[i] * g[j] / draws
			}
		}
	}
	for i := range w {
		for j := range w {
			sd := math.Sqrt(ll.cov[i*w+i] * ll.cov[j*w+j])
			if d := math.Abs(emp[i*w+j] - ll.cov[i*w+j]); d > 0.03*sd {
				t.Errorf("draw covariance [%d][%d] = %v, P⁻¹ = %v", i, j, emp[i*w+j], ll.cov[i*w+j])
			}
		}
	}
}

// benchRepair measures one round (Select and Observe) of a repaired learner at
// the paper's scale (300 contexts × 10 arms, d = 20, w = 50) after warm rounds.
func benchRepair(b *testing.B, build func(Env) (Learner, error), warm int) {
	pool := smallPool(b, 11, 300, 10, 20)
	l, err := build(Env{Pool: pool, Config: Default(), Seed: 12})
	if err != nil {
		b.Fatal(err)
	}
	round := 0
	step := func() {
		q := l.Select(Offer{})
		l.Observe(q, answer(round))
		round++
	}
	for range warm {
		step()
	}
	b.ResetTimer()
	for b.Loop() {
		step()
	}
	if la, ok := l.(*NeuralADBLookahead); ok {
		b.ReportMetric(float64(len(la.rows.ids)), "rows-kept")
	}
}

func BenchmarkLookaheadRound(b *testing.B) {
	benchRepair(b, func(e Env) (Learner, error) { return NewNeuralADBLookahead(e, false) }, 500)
}

func BenchmarkTSCtxRound(b *testing.B) {
	benchRepair(b, func(e Env) (Learner, error) { return NewNeuralADBTSCtx(e, false) }, 500)
}

func BenchmarkRandomContextRound(b *testing.B) {
	benchRepair(b, func(e Env) (Learner, error) { return NewNeuralADB(e, false, RandomContext) }, 500)
}
