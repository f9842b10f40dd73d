package algorithms

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/neural-adb/nadb/internal/logistic"
)

// TestSparseDotMatchesFloatsDot: the sparse dot product is floats.Dot of the
// dense vector, bit for bit, for every length (the tails of the four-way
// unrolled sum), sparsity and sign.
func TestSparseDotMatchesFloatsDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for trial := range 3000 {
		n := 1 + rng.IntN(60)
		x, z := make([]float64, n), make([]float64, n)
		var idx []int32
		var val []float64
		density := rng.Float64()
		for i := range n {
			x[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))
			if rng.Float64() < density {
				z[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))
				idx = append(idx, int32(i))
				val = append(val, z[i])
			}
		}
		if trial%7 == 0 { // exact zeros among θ too
			x[rng.IntN(n)] = 0
		}
		want, got := floats.Dot(x, z), sparseDot(x, idx, val)
		if math.Float64bits(want) != math.Float64bits(got) {
			t.Fatalf("n = %d: sparse dot %v (%x), floats.Dot %v (%x)", n, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
}

// denseFit is LinearBT's Newton fit computed the dense way (a row of d per
// duel, every Hessian entry summed over every duel), the reference the
// sparse fit must equal bit for bit.
func denseFit(z []float64, d int, lambda float64, iters int, theta []float64) int {
	n := len(z) / d
	loss := func(th []float64) float64 {
		l := 0.0
		for s := range n {
			l += logistic.Softplus(-floats.Dot(th, z[s*d:(s+1)*d]))
		}
		return l + lambda/2*floats.Dot(th, th)
	}
	grad, step, trial, w := make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, n)
	hess := mat.NewSymDense(d, nil)
	var chol mat.Cholesky
	it := 0
	pure, prev := false, math.Inf(1)
	for ; it < iters; it++ {
		for s := range n {
			p := logistic.Sigmoid(floats.Dot(theta, z[s*d:(s+1)*d]))
			w[s] = p * (1 - p)
		}
		for i := range grad {
			grad[i] = lambda * theta[i]
		}
		for s := range n {
			zs := z[s*d : (s+1)*d]
			g := -logistic.Sigmoid(-floats.Dot(theta, zs))
			for i, zi := range zs {
				grad[i] += g * zi
			}
		}
		for i := range d {
			for j := i; j < d; j++ {
				v := 0.0
				for s := range n {
					v += w[s] * z[s*d+i] * z[s*d+j]
				}
				if i == j {
					v += lambda
				}
				hess.SetSym(i, j, v)
			}
		}
		if !chol.Factorize(hess) {
			break
		}
		dir := mat.NewVecDense(d, step)
		if err := chol.SolveVecTo(dir, mat.NewVecDense(d, grad)); !solveOK(err, step) {
			break
		}
		decr := floats.Dot(grad, step)
		if decr/2 < 1e-20 || (pure && !(decr < prev)) {
			break
		}
		prev = decr
		if pure {
			floats.Sub(theta, step)
			continue
		}
		l0 := loss(theta)
		if 1e-4*decr <= lossResolution*math.Abs(l0) {
			pure = true
			floats.Sub(theta, step)
			continue
		}
		t, accepted := 1.0, false
		for range 60 {
			for i := range trial {
				trial[i] = theta[i] - t*step[i]
			}
			if loss(trial) <= l0-1e-4*t*decr {
				accepted = true
				break
			}
			t /= 2
		}
		if !accepted {
			break
		}
		copy(theta, trial)
	}
	return it
}

// blockPool is a pool whose arms are encoded in disjoint blocks: arm a of
// context c has the context's covariates and a constant in block a, zeros
// elsewhere (as Shuttle and most pools of one's own).
func blockPool(t testing.TB, seed uint64, contexts, arms, covariates int) *Pool {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 5))
	b := covariates + 1
	d := arms * b
	x := make([]float64, contexts*arms*d)
	for c := range contexts {
		cov := make([]float64, covariates)
		for k := range cov {
			cov[k] = rng.NormFloat64()
		}
		for a := range arms {
			row := x[(c*arms+a)*d+a*b:]
			copy(row, cov)
			row[covariates] = 1
		}
	}
	p, err := NewPool(contexts, arms, d, x)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLinearBTSparseMatchesDense: the sparse fit gives the dense fit's θ̂
// and iteration count bit for bit, on dense features and on block-encoded
// ones, from θ = 0 and warm-started, so that no run of a linear learner
// changes.
func TestLinearBTSparseMatchesDense(t *testing.T) {
	dense, _ := testPool(t, 3, 40, 5, 7, 2)
	for _, tc := range []struct {
		name string
		p    *Pool
	}{{"dense features", dense}, {"block features", blockPool(t, 4, 40, 6, 5)}} {
		cfg := Default()
		cfg.RetrainEvery = 1 << 30
		m := NewLinearBT(Env{Pool: tc.p, Config: cfg, Seed: 1})
		var z []float64
		ref := make([]float64, tc.p.Dim)
		rng := rand.New(rand.NewPCG(9, 9))
		for round := range 4 {
			for range 50 {
				c := rng.IntN(tc.p.Contexts)
				a := rng.IntN(tc.p.Arms)
				b := (a + 1 + rng.IntN(tc.p.Arms-1)) % tc.p.Arms
				m.AddDuel(c, a, b)
				xa, xb := tc.p.Feature(c, a), tc.p.Feature(c, b)
				for i := range xa {
					z = append(z, xa[i]-xb[i])
				}
			}
			got := m.Fit()
			want := denseFit(z, tc.p.Dim, cfg.Lambda, cfg.MLEIters, ref)
			if got != want {
				t.Errorf("%s, refit %d: %d Newton iterations, dense %d", tc.name, round, got, want)
			}
			for i := range ref {
				if math.Float64bits(m.Theta[i]) != math.Float64bits(ref[i]) {
					t.Fatalf("%s, refit %d: θ[%d] = %v, dense fit %v", tc.name, round, i, m.Theta[i], ref[i])
				}
			}
		}
	}
}

// BenchmarkLinearBTFit fits the linear model to every ordered pair of 200
// contexts of a block-encoded pool with 26 arms and 17 features per arm
// (442 features, differences 92% zeros): the reference fit of a pool of
// one's own.
func BenchmarkLinearBTFit(b *testing.B) {
	p := blockPool(b, 1, 200, 26, 16)
	cfg := Default()
	cfg.RetrainEvery, cfg.MLEIters = math.MaxInt, 100
	rng := rand.New(rand.NewPCG(2, 2))
	type duel struct{ c, w, l int }
	var duels []duel
	for c := range p.Contexts {
		u := make([]float64, p.Arms)
		for a := range u {
			u[a] = rng.NormFloat64()
		}
		for a := range p.Arms {
			for o := range p.Arms {
				if u[a] > u[o] {
					duels = append(duels, duel{c, a, o})
				}
			}
		}
	}
	for b.Loop() {
		m := NewLinearBT(Env{Pool: p, Config: cfg, Seed: 1})
		for _, d := range duels {
			m.AddDuel(d.c, d.w, d.l)
		}
		b.ReportMetric(float64(m.Fit()), "newton-iters")
	}
	b.ReportMetric(float64(len(duels)), "duels")
}
