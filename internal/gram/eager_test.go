package gram

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/gemm"
	"github.com/neural-adb/nadb/internal/mlp"
)

// eagerRef is the recursion of the package documentation in its eager form:
// every update computes r̃_t over the whole pool at once (one fused
// multiply–add chain per element over s, as gemm.AddTransMulVecTo forms it)
// and downdates every block. It is the reference for Confidence, which
// brings each context's rows and block up to date only when they are read.
type eagerRef struct {
	n, arms int
	reg     float64
	k       Kernel
	r, q    []float64
	t       int
}

func newEagerRef(k Kernel, contexts, arms int, reg float64) *eagerRef {
	e := &eagerRef{n: contexts * arms, arms: arms, reg: reg, k: k, q: make([]float64, contexts*arms*arms)}
	for ctx := range contexts {
		for a := range arms {
			for b := range arms {
				e.q[(ctx*arms+a)*arms+b] = k.Entry(ctx*arms+a, ctx*arms+b) / reg
			}
		}
	}
	return e
}

func (e *eagerRef) block(ctx int) []float64 {
	K := e.arms
	return e.q[ctx*K*K : (ctx+1)*K*K]
}

func (e *eagerRef) add(i, j int) {
	n, t := e.n, e.t
	r := make([]float64, n)
	ki, inv := e.k.Column(i), 1/e.reg
	for m := range r {
		if j < 0 {
			r[m] = ki[m] * inv
		} else {
			r[m] = (ki[m] - e.k.Column(j)[m]) * inv
		}
	}
	if t > 0 {
		ell := make([]float64, t)
		for s := range t {
			ell[s] = -psiDot(e.r[s*n:(s+1)*n], i, j)
		}
		gemm.AddTransMulVecTo(r, e.r, ell, t, n)
	}
	scale := 1 / math.Sqrt(1+psiDot(r, i, j))
	for m := range r {
		r[m] *= scale
	}
	e.r = append(e.r, r...)
	e.t++
	K := e.arms
	for ctx := range n / K {
		q, x := e.block(ctx), r[ctx*K:(ctx+1)*K]
		for a := range K {
			for b := range K {
				q[a*K+b] = math.FMA(-x[a], x[b], q[a*K+b])
			}
		}
	}
}

// TestLazyRowsMatchEager drives Confidence and the eager reference through
// random pair updates (within and across contexts) and row updates, reading
// Confidence in varied patterns (one context, a few, a sweep over all,
// Row, nothing), and requires every block read and every r̃ to agree with
// the eager form bit for bit, on every gemm path.
func TestLazyRowsMatchEager(t *testing.T) {
	const contexts, arms, updates = 40, 5, chunkRows + 60 // the rows of r̃ span two chunks
	p := newPool(t, 17, contexts, arms, mlp.Arch{In: 4, Width: 8, Depth: 2}, false)
	k := &Dense{N: p.feat.Rows(), Data: p.feat.GramTo(nil)}
	for _, path := range gemm.Available() {
		t.Run(fmt.Sprint(path), func(t *testing.T) {
			prev := gemm.Use(path)
			defer gemm.Use(prev)
			c := New(k, contexts, arms, 0.8)
			e := newEagerRef(k, contexts, arms, 0.8)
			rng := rand.New(rand.NewPCG(18, 18))
			check := func(when string, ctx int) {
				if !sameBits(c.Block(ctx), e.block(ctx)) {
					t.Fatalf("%s: Block(%d) differs from the eager form", when, ctx)
				}
			}
			for s := range updates {
				switch u := rng.IntN(8); {
				case u == 0:
					i := rng.IntN(contexts * arms)
					c.AddRow(i)
					e.add(i, -1)
				case u == 1: // a pair across two contexts
					i, j := rng.IntN(contexts*arms), rng.IntN(contexts*arms)
					if i == j {
						j = (i + arms) % (contexts * arms)
					}
					c.Add(i, j)
					e.add(i, j)
				default:
					pr := randomPairs(rng, contexts, arms, 1)[0]
					c.Add(pr[0], pr[1])
					e.add(pr[0], pr[1])
				}
				when := fmt.Sprintf("after update %d", s+1)
				switch rng.IntN(6) {
				case 0: // nothing
				case 1, 2: // one context, sometimes twice
					ctx := rng.IntN(contexts)
					check(when, ctx)
					check(when, ctx)
				case 3: // a few
					for range 3 {
						check(when, rng.IntN(contexts))
					}
				case 4: // a sweep
					for ctx := range contexts {
						check(when, ctx)
					}
				case 5:
					if !sameBits(c.Row(), e.r[s*e.n:(s+1)*e.n]) {
						t.Fatalf("%s: Row differs from the eager form", when)
					}
				}
			}
			for ctx := rng.IntN(contexts); ctx < contexts; ctx++ {
				check("at the end", ctx)
			}
			if !sameBits(c.Row(), e.r[(updates-1)*e.n:]) || !sameBits(c.q, e.q) || !sameBits(c.r.flat(), e.r) {
				t.Fatal("at the end: the state differs from the eager form")
			}
		})
	}
}

// allBlocks brings every context up to date and returns all blocks (the
// package tests that compare the whole state read it).
func (c *Confidence) allBlocks() []float64 {
	c.settle()
	c.catchUpAll()
	return c.q
}
