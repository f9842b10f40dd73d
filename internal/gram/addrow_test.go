package gram

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/neural-adb/nadb/internal/mlp"
)

// referenceMixed is reference for updates that are pair differences
// (j ≥ 0) or single rows (j < 0): V formed explicitly and solved by Cholesky.
func (p *pool) referenceMixed(t testing.TB, reg float64, updates [][2]int) []float64 {
	_, dim := p.phi.Dims()
	v := mat.NewSymDense(dim, nil)
	for i := range dim {
		v.SetSym(i, i, reg)
	}
	psi := mat.NewVecDense(dim, nil)
	for _, u := range updates {
		if u[1] < 0 {
			psi.CopyVec(p.phi.RowView(u[0]))
		} else {
			psi.SubVec(p.phi.RowView(u[0]), p.phi.RowView(u[1]))
		}
		v.SymRankOne(v, 1, psi)
	}
	var chol mat.Cholesky
	if !chol.Factorize(v) {
		t.Fatal("reference V not positive definite")
	}
	K := p.arms
	out := make([]float64, p.contexts*K*K)
	for c := 0; c < p.contexts; c++ {
		phiC := p.phi.Slice(c*K, (c+1)*K, 0, dim).(*mat.Dense)
		var sol, q mat.Dense
		if err := chol.SolveTo(&sol, phiC.T()); err != nil {
			t.Fatal(err)
		}
		q.Mul(phiC, &sol)
		for a := range K {
			for b := range K {
				out[c*K*K+a*K+b] = q.At(a, b)
			}
		}
	}
	return out
}

// TestAddRowAgainstFromScratchCholesky checks single-row updates ψ = φ_i, alone
// and mixed with pair updates, against a from-scratch p×p solve, before and
// after Refresh, for the gradient-feature kernel and the linear kernel.
func TestAddRowAgainstFromScratchCholesky(t *testing.T) {
	for _, tc := range []struct {
		name    string
		linear  bool
		mixed   bool
		reg     float64
		refresh int
		updates int
	}{
		{"ntk/rows", false, false, 1, 0, 300},
		{"ntk/mixed/refresh", false, true, 0.5, 70, 300},
		{"linear/rows", true, false, 1, 0, 200},
		{"linear/mixed", true, true, 2, 0, 200},
	} {
		t.Run(fmt.Sprintf("%s/a=%g", tc.name, tc.reg), func(t *testing.T) {
			const contexts, arms = 25, 4
			var p *pool
			var k Kernel
			if tc.linear {
				rng := rand.New(rand.NewPCG(4, 4))
				const d = 5
				x := make([]float64, contexts*arms*d)
				for i := range x {
					x[i] = 2*rng.Float64() - 1
				}
				p = &pool{contexts: contexts, arms: arms, phi: mat.NewDense(contexts*arms, d, x)}
				k = NewCached(&Linear{X: x, Dim: d})
			} else {
				p = newPool(t, 8, contexts, arms, mlp.Arch{In: 4, Width: 8, Depth: 2}, true)
				k = &Dense{N: p.feat.Rows(), Data: p.feat.GramTo(nil)}
			}
			c := New(k, contexts, arms, tc.reg)
			c.RefreshEvery = tc.refresh
			rng := rand.New(rand.NewPCG(10, 10))
			var ups [][2]int
			for s := range tc.updates {
				if tc.mixed && s%3 == 0 {
					pr := randomPairs(rng, contexts, arms, 1)[0]
					ups = append(ups, pr)
					c.Add(pr[0], pr[1])
					continue
				}
				i := rng.IntN(contexts * arms)
				ups = append(ups, [2]int{i, -1})
				c.AddRow(i)
			}
			want := p.referenceMixed(t, tc.reg, ups)
			if e := relErr(c.allBlocks(), want); e > 1e-9 {
				t.Fatalf("after %d updates: relative error %.3g > 1e-9", len(ups), e)
			}
			for ctx := range contexts {
				for a := range arms {
					w := want[ctx*arms*arms+a*arms+a]
					if got := c.RowNorm2(ctx, a); abs(got-w) > 1e-9*max(abs(w), 1e-12) {
						t.Fatalf("RowNorm2(%d, %d) = %g, want %g", ctx, a, got, w)
					}
				}
			}
			if err := c.Refresh(); err != nil {
				t.Fatal(err)
			}
			if e := relErr(c.allBlocks(), want); e > 1e-9 {
				t.Fatalf("after Refresh: relative error %.3g > 1e-9", e)
			}
		})
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
