package algorithms

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mat"

	"github.com/neural-adb/nadb/internal/cputime"
	"github.com/neural-adb/nadb/internal/logistic"
)

// TestPlusKG: the envelope formula for E[max_a (mu_a + b_a Z)] − max_a mu_a
// agrees with numerical integration over Z, including tied slopes, dominated
// lines and a single arm reaching the envelope.
func TestPlusKG(t *testing.T) {
	cases := []struct {
		name  string
		mu, b []float64
	}{
		{"two arms", []float64{0, -0.3}, []float64{0.2, -0.5}},
		{"equal slopes", []float64{1, 0.5, 0.2}, []float64{0.3, 0.3, -0.1}},
		{"dominated middle", []float64{0, -5, 0.1}, []float64{-1, 0, 1}},
		{"ten arms", []float64{0.1, -0.2, 0.4, 0.35, -1, 0, 0.2, 0.3, -0.4, 0.05}, []float64{0.5, -0.3, 0.1, -0.2, 2, 0.05, -0.6, 0.4, 0.9, -1}},
		{"far apart", []float64{0, -100}, []float64{0, 1}},
		{"no spread", []float64{0.3, 0.1}, []float64{0.7, 0.7}},
	}
	var ws kgScratch
	for _, c := range cases {
		got := plusKG(c.mu, c.b, plusArgmax(c.mu), &ws)
		f := func(z float64) float64 {
			best := math.Inf(-1)
			for a := range c.mu {
				best = max(best, c.mu[a]+c.b[a]*z)
			}
			return best * math.Exp(-z*z/2) / math.Sqrt(2*math.Pi)
		}
		// Integrate piecewise between every pairwise intersection, where f
		// is smooth.
		cuts := []float64{-12, 12}
		for i := range c.mu {
			for j := range c.mu {
				if c.b[i] != c.b[j] {
					if z := (c.mu[j] - c.mu[i]) / (c.b[i] - c.b[j]); z > -12 && z < 12 {
						cuts = append(cuts, z)
					}
				}
			}
		}
		slices.Sort(cuts)
		e := 0.0
		for k := 1; k < len(cuts); k++ {
			e += quad.Fixed(f, cuts[k-1], cuts[k], 60, nil, 0)
		}
		want := e - maxOf(c.mu)
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s: plusKG = %.9f, integral %.9f", c.name, got, want)
		}
	}
}

func maxOf(x []float64) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = max(m, v)
	}
	return m
}

// TestPlusFitTemperature: margins whose answers follow μ(τ·m) give back τ to
// the resolution of the grid, and pure-noise answers give τ = 0 (a coin).
func TestPlusFitTemperature(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tau := range []float64{0.25, 1, 2} {
		var marg []float64
		for range 20000 {
			m := 3 * rng.NormFloat64()
			if rng.Float64() >= logistic.Sigmoid(tau*m) {
				m = -m // the recorded margin is winner minus loser
			}
			marg = append(marg, m)
		}
		got, _ := plusFitTemperature(marg, 1)
		if math.Abs(math.Log2(got/tau)) > 0.3 {
			t.Errorf("τ = %v: fitted %v", tau, got)
		}
	}
	var noise []float64
	for range 2000 {
		noise = append(noise, 3*rng.NormFloat64())
	}
	if got, _ := plusFitTemperature(noise, 1); got > 0.1 {
		t.Errorf("answers independent of the margins: fitted τ = %v, want about 0", got)
	}
}

// TestPlusNewtonIsLinearBT: without Adam steps the network part stays at the
// mirrored θ0 (g ≡ 0), so the fitted u minimises the same penalised
// likelihood as the linear baseline's model with λ = λu.
func TestPlusNewtonIsLinearBT(t *testing.T) {
	pool := smallPool(t, 5, 20, 4, 3)
	cfg := Default()
	cfg.Width = 8
	env := Env{Pool: pool, Config: cfg, Seed: 3}
	opt := DefaultPlusOptions()
	opt.Steps, opt.NewtonIters, opt.Lambdas = 0, 30, []float64{10}
	m, err := newPlusModel(env, opt)
	if err != nil {
		t.Fatal(err)
	}
	lin := NewLinearBT(env) // λ = cfg.Lambda = 1 = opt.LambdaU
	rng := rand.New(rand.NewPCG(7, 8))
	for range 60 {
		c := rng.IntN(pool.Contexts)
		a := rng.IntN(pool.Arms)
		b := (a + 1 + rng.IntN(pool.Arms-1)) % pool.Arms
		m.Record(pool.Row(c, a), pool.Row(c, b), true)
		lin.AddDuel(c, a, b)
	}
	m.Train()
	lin.Fit()
	for i, want := range lin.Theta {
		if got := m.Current().u[i]; math.Abs(got-want) > 1e-8 {
			t.Errorf("u[%d] = %v, linear Bradley–Terry MLE %v", i, got, want)
		}
	}
}

// TestPlusPosteriorExact: the rank-one updates between rebuilds give the
// inverse of the explicitly accumulated precision, and every block equals
// Z_c Σ Z_cᵀ formed from it.
func TestPlusPosteriorExact(t *testing.T) {
	pool := smallPool(t, 3, 7, 4, 3)
	cfg := Default()
	cfg.Width, cfg.RetrainEvery = 6, 1000
	l, err := NewNeuralADBPlus(Env{Pool: pool, Config: cfg, Seed: 4}, DefaultPlusOptions())
	if err != nil {
		t.Fatal(err)
	}
	for round := range 9 {
		q := l.Select(Offer{})
		l.Observe(q, answer(round))
	}
	checkPlusPosterior(t, l)
}

// checkPlusPosterior compares l's Σ and blocks with the explicit inverse of
// the precision accumulated from its answered and pending duels.
func checkPlusPosterior(t *testing.T, l *NeuralADBPlus) {
	t.Helper()
	ps, pool := l.post, l.pool
	mb := ps.mb
	m := ps.m
	prec := mat.NewSymDense(m, nil)
	for i := range m {
		prec.SetSym(i, i, ps.prior[i])
	}
	psi := make([]float64, m)
	for _, d := range l.posteriorDuels() {
		ps.diff(psi, d[0], d[1])
		prec.SymRankOne(prec, plusDsigmoid(mb.h[d[0]]-mb.h[d[1]]), mat.NewVecDense(m, psi))
	}
	var inv mat.Dense
	if err := inv.Inverse(prec); err != nil {
		t.Fatal(err)
	}
	for i := range m {
		for j := range m {
			if d := math.Abs(ps.cov[i*m+j] - inv.At(i, j)); d > 1e-10 {
				t.Fatalf("Σ[%d][%d] = %v, explicit inverse %v", i, j, ps.cov[i*m+j], inv.At(i, j))
			}
		}
	}
	K := pool.Arms
	for c := range pool.Contexts {
		for a := range K {
			for b := range K {
				za := mat.NewVecDense(m, ps.z[(c*K+a)*m:(c*K+a+1)*m])
				zb := mat.NewVecDense(m, ps.z[(c*K+b)*m:(c*K+b+1)*m])
				want := mat.Inner(za, &inv, zb)
				if d := math.Abs(ps.q[(c*K+a)*K+b] - want); d > 1e-10 {
					t.Fatalf("Q_%d[%d][%d] = %v, explicit %v", c, a, b, ps.q[(c*K+a)*K+b], want)
				}
			}
		}
	}
}

// TestPlusOffer: with a restricted offer every query is an offered context
// and an allowed pair.
func TestPlusOffer(t *testing.T) {
	pool := smallPool(t, 8, 10, 5, 3)
	cfg := Default()
	cfg.Width, cfg.RetrainEvery = 8, 10
	l, err := NewNeuralADBPlus(Env{Pool: pool, Config: cfg, Seed: 1}, DefaultPlusOptions())
	if err != nil {
		t.Fatal(err)
	}
	o := Offer{Contexts: []int{1, 4, 7}, Allowed: func(c, a, b int) bool { return (a+b+c)%3 == 0 }}
	for round := range 60 {
		q := l.Select(o)
		if err := o.Check(pool, q); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		l.Observe(q, answer(round))
	}
}

// TestPlusBatchPending: a batch holds distinct allowed duels, and its
// pending duels are in the posterior exactly, before and after their
// answers arrive.
func TestPlusBatchPending(t *testing.T) {
	pool := smallPool(t, 9, 6, 4, 3)
	cfg := Default()
	cfg.Width, cfg.RetrainEvery = 8, 7
	l, err := NewNeuralADBPlus(Env{Pool: pool, Config: cfg, Seed: 2}, DefaultPlusOptions())
	if err != nil {
		t.Fatal(err)
	}
	for round := range 25 {
		l.Observe(l.Select(Offer{}), answer(round))
	}
	o := Offer{Contexts: []int{0, 2, 5}, Allowed: func(c, a, b int) bool { return a != 3 && b != 3 }}
	// 3 contexts × 3 unordered pairs of arms 0–2: at most 9 distinct duels.
	batch := SelectBatch(l, pool, o, 12)
	if len(batch) != 9 {
		t.Fatalf("batch of %d duels, want all 9 allowed ones", len(batch))
	}
	seen := map[[3]int]bool{}
	for _, q := range batch {
		if err := o.Check(pool, q); err != nil {
			t.Fatal(err)
		}
		key := [3]int{q.Context, min(q.Arm1, q.Arm2), max(q.Arm1, q.Arm2)}
		if seen[key] {
			t.Fatalf("duel %+v twice in one batch", q)
		}
		seen[key] = true
	}
	checkPlusPosterior(t, l)
	for i, q := range batch[:4] { // the third answer brings a retrain (28 duels)
		l.Observe(q, answer(i))
		checkPlusPosterior(t, l)
	}
	if len(l.pendRows) != 5 {
		t.Errorf("%d duels pending, want 5", len(l.pendRows))
	}
}

// plusAt500 returns neural-adb-plus at the paper's scale (300 contexts × 10
// arms, d = 20, width 50) after 500 duels.
func plusAt500(b *testing.B) *NeuralADBPlus {
	pool := smallPool(b, 1, 300, 10, 20)
	l, err := NewNeuralADBPlus(Env{Pool: pool, Config: Default(), Seed: 1}, DefaultPlusOptions())
	if err != nil {
		b.Fatal(err)
	}
	for round := range 500 {
		l.Observe(l.Select(Offer{}), answer(round))
	}
	return l
}

// BenchmarkPlusSelect: one choice of a duel (candidates, arm rule, pool-wide
// knowledge gradient).
func BenchmarkPlusSelect(b *testing.B) {
	l := plusAt500(b)
	cpu0 := cputime.Process()
	for b.Loop() {
		l.Select(Offer{})
	}
	b.ReportMetric(cputime.Since(cpu0).Seconds()*1e3/float64(b.N), "cpu-ms/op")
}

// BenchmarkPlusRetrain: one retrain of the four members on 500 duels, with
// the member weights, the posterior rebuild and the refit of ν̂ that follow
// it in Observe.
func BenchmarkPlusRetrain(b *testing.B) {
	l := plusAt500(b)
	cpu0 := cputime.Process()
	for b.Loop() {
		l.model.Train()
		l.post.rebuild(l.model.Current(), l.opt.LambdaU, l.posteriorDuels(), l.fisher)
		l.post.fitNu(1 - 1/l.opt.PreqHalfLife)
	}
	b.ReportMetric(cputime.Since(cpu0).Seconds()*1e3/float64(b.N), "cpu-ms/op")
}

// TestPlusAblateKeepsJSON: the plus-ablate field is left out of the JSON of a
// configuration that does not ablate (so the cache keys hashed from it are
// those of before the field existed), "none" is read as that zero value,
// and an ablation shows.
func TestPlusAblateKeepsJSON(t *testing.T) {
	// Default()'s JSON before the field existed.
	const before = `{"depth":2,"width":50,"bias":false,"init":"mirrored","init-scale":1,"optimizer":"adam","lr":0.001,"steps":50,"retrain-every":20,"reset":false,"keep-moments":false,"batch":0,"loss-scale":"sum","regularizer":"theta","lambda":1,"kappa":1,"nu":1,"sigma-width":"once","feature-norm":"none","refresh-every":500,"beta":1,"mle-iters":20,"borda-offset":0.5}`
	js := func(c Config) string {
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	cfg := Default()
	if got := js(cfg); got != before {
		t.Errorf("Default() JSON changed:\n got %s\nwant %s", got, before)
	}
	if err := cfg.Set("plus-ablate", "none"); err != nil {
		t.Fatal(err)
	}
	if got := js(cfg); got != before {
		t.Errorf("plus-ablate=none changes the JSON: %s", got)
	}
	if err := cfg.Set("plus-ablate", "no-kg"); err != nil {
		t.Fatal(err)
	}
	if got := js(cfg); !strings.Contains(got, `"plus-ablate":"no-kg"`) {
		t.Errorf("plus-ablate=no-kg not in the JSON: %s", got)
	}
	if err := cfg.Set("plus-ablate", "no-such"); err == nil {
		t.Error("an unknown ablation was accepted")
	}
	var back Config
	if err := json.Unmarshal([]byte(before), &back); err != nil || back != Default() {
		t.Errorf("the JSON of before reads back as %+v (%v)", back, err)
	}
}

// TestPlusAblations: every ablation value builds a learner that differs
// from the full one in exactly the option it names.
func TestPlusAblations(t *testing.T) {
	full := DefaultPlusOptions()
	for _, a := range PlusAblations {
		o := plusOptions(a, 1)
		if a == PlusNone {
			if !reflect.DeepEqual(o, full) {
				t.Errorf("none: options %+v differ from the defaults", o)
			}
			continue
		}
		if reflect.DeepEqual(o, full) {
			t.Errorf("%s: options equal the defaults", a)
		}
		pool := smallPool(t, 1, 6, 4, 3)
		cfg := Default()
		cfg.Width, cfg.PlusAblate = 8, a
		l, err := New("neural-adb-plus", Env{Pool: pool, Config: cfg, Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		if got := l.(*NeuralADBPlus).opt; !reflect.DeepEqual(got, o) {
			t.Errorf("%s: learner built with %+v, want %+v", a, got, o)
		}
	}
}
