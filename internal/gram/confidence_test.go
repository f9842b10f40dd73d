package gram

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/neural-adb/nadb/internal/mlp"
)

type pool struct {
	contexts, arms int
	feat           *mlp.Features
	phi            *mat.Dense // explicit rows φ_n, for the from-scratch reference
}

func newPool(t testing.TB, seed uint64, contexts, arms int, a mlp.Arch, explicit bool) *pool {
	rng := rand.New(rand.NewPCG(seed, 1))
	net := mlp.NewNet(a)
	if err := net.Initialize(mlp.InitMirrored, 1, rng); err != nil {
		t.Fatal(err)
	}
	x := make([]float64, contexts*arms*a.In)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	p := &pool{contexts: contexts, arms: arms, feat: net.NewFeatures(x, 1/float64(a.Width))}
	if explicit {
		n := contexts * arms
		p.phi = mat.NewDense(n, a.NumParams(), nil)
		for i := range n {
			p.feat.GradientTo(p.phi.RawRowView(i), i)
		}
	}
	return p
}

// reference computes every block Φ_c V⁻¹ Φ_cᵀ from scratch for pair updates:
// V formed explicitly in p dimensions and solved by Cholesky.
func (p *pool) reference(t testing.TB, reg float64, pairs [][2]int) []float64 {
	return p.referenceMixed(t, reg, pairs)
}

func randomPairs(rng *rand.Rand, contexts, arms, n int) [][2]int {
	pairs := make([][2]int, n)
	for s := range pairs {
		c := rng.IntN(contexts)
		a := rng.IntN(arms)
		b := (a + 1 + rng.IntN(arms-1)) % arms
		pairs[s] = [2]int{c*arms + a, c*arms + b}
	}
	return pairs
}

func relErr(got, want []float64) float64 {
	num, den := 0.0, 0.0
	for i := range got {
		num = math.Max(num, math.Abs(got[i]-want[i]))
		den = math.Max(den, math.Abs(want[i]))
	}
	return num / den
}

// TestAgainstFromScratchCholesky runs hundreds of rank-one updates through the
// kernel route and compares every block with a from-scratch p×p Cholesky solve.
func TestAgainstFromScratchCholesky(t *testing.T) {
	for _, tc := range []struct {
		arch           mlp.Arch
		contexts, arms int
		updates        int
		reg            float64
		refresh        int
		dense          bool
	}{
		{mlp.Arch{In: 4, Width: 8, Depth: 2}, 30, 5, 400, 1, 0, true},
		{mlp.Arch{In: 4, Width: 8, Depth: 2}, 30, 5, 400, 0.1, 0, false},
		{mlp.Arch{In: 6, Width: 10, Depth: 2}, 40, 4, 600, 1, 150, true},
		{mlp.Arch{In: 3, Width: 6, Depth: 3, Bias: true}, 25, 3, 300, 2, 0, false},
	} {
		name := fmt.Sprintf("p=%d/N=%d/T=%d/a=%g/refresh=%d/dense=%v", tc.arch.NumParams(), tc.contexts*tc.arms, tc.updates, tc.reg, tc.refresh, tc.dense)
		t.Run(name, func(t *testing.T) {
			p := newPool(t, 7, tc.contexts, tc.arms, tc.arch, true)
			var k Kernel = NewCached(p.feat)
			if tc.dense {
				k = &Dense{N: p.feat.Rows(), Data: p.feat.GramTo(nil)}
			}
			c := New(k, tc.contexts, tc.arms, tc.reg)
			c.RefreshEvery = tc.refresh
			pairs := randomPairs(rand.New(rand.NewPCG(9, 9)), tc.contexts, tc.arms, tc.updates)
			for s, pr := range pairs {
				c.Add(pr[0], pr[1])
				if s == 0 || s+1 == tc.updates/2 {
					if e := relErr(c.allBlocks(), p.reference(t, tc.reg, pairs[:s+1])); e > 1e-9 {
						t.Fatalf("after %d updates: relative error %.3g > 1e-9", s+1, e)
					}
				}
			}
			e := relErr(c.allBlocks(), p.reference(t, tc.reg, pairs))
			t.Logf("relative error after %d updates: %.3g", tc.updates, e)
			if e > 1e-9 {
				t.Fatalf("relative error %.3g > 1e-9", e)
			}
			if err := c.Refresh(); err != nil {
				t.Fatal(err)
			}
			if e := relErr(c.allBlocks(), p.reference(t, tc.reg, pairs)); e > 1e-9 {
				t.Fatalf("after Refresh: relative error %.3g > 1e-9", e)
			}
		})
	}
}

// TestLockOnPairsStayAccurate repeats one pair hundreds of times (the paper
// rule's lock-on pattern), which makes V ill-conditioned along ψ.
func TestLockOnPairsStayAccurate(t *testing.T) {
	a := mlp.Arch{In: 4, Width: 8, Depth: 2}
	p := newPool(t, 3, 10, 4, a, true)
	c := New(NewCached(p.feat), 10, 4, 1)
	var pairs [][2]int
	for s := range 500 {
		pr := [2]int{1, 2}
		if s%50 == 0 {
			pr = [2]int{5, 7}
		}
		pairs = append(pairs, pr)
		c.Add(pr[0], pr[1])
	}
	if e := relErr(c.allBlocks(), p.reference(t, 1, pairs)); e > 1e-9 {
		t.Fatalf("relative error %.3g > 1e-9", e)
	}
}

func TestNormsOnlyShrink(t *testing.T) {
	p := newPool(t, 5, 20, 4, mlp.Arch{In: 3, Width: 6, Depth: 2}, false)
	c := New(NewCached(p.feat), 20, 4, 1)
	rng := rand.New(rand.NewPCG(1, 1))
	prev := make([]float64, 20)
	for ctx := range prev {
		_, _, prev[ctx] = c.MaxPair(ctx)
	}
	for _, pr := range randomPairs(rng, 20, 4, 200) {
		c.Add(pr[0], pr[1])
		for ctx := range prev {
			_, _, v := c.MaxPair(ctx)
			if v > prev[ctx]*(1+1e-12)+1e-15 {
				t.Fatalf("context %d: max pair norm grew from %g to %g", ctx, prev[ctx], v)
			}
			prev[ctx] = v
		}
	}
}

func TestLinearKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	const contexts, arms, d = 15, 3, 4
	x := make([]float64, contexts*arms*d)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	lin := &Linear{X: x, Dim: d}
	c := New(NewCached(lin), contexts, arms, 0.5)
	pairs := randomPairs(rng, contexts, arms, 100)
	for _, pr := range pairs {
		c.Add(pr[0], pr[1])
	}
	p := &pool{contexts: contexts, arms: arms, phi: mat.NewDense(contexts*arms, d, x)}
	if e := relErr(c.allBlocks(), p.reference(t, 0.5, pairs)); e > 1e-9 {
		t.Fatalf("linear kernel: relative error %.3g", e)
	}
}
