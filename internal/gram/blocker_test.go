package gram

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/gemm"
	"github.com/neural-adb/nadb/internal/mlp"
)

// blockKernel is the on-demand kernel of a pool's features as the learners
// use it: entries in blocks (Blocker), the named rows kept (Keeper).
type blockKernel struct {
	*mlp.BlockKernel
	n int
}

func (k blockKernel) Rows() int { return k.n }

func (k blockKernel) Entry(i, j int) float64 {
	var v [1]float64
	k.ColumnsTo(v[:], i, i+1, []int{j})
	return v[0]
}

func (k blockKernel) Column(j int) []float64 {
	col := make([]float64, k.n)
	k.ColumnsTo(col, 0, k.n, []int{j})
	return col
}

// TestBlockerMatchesDense drives Confidence over the on-demand kernel and
// over the dense Gram matrix (the same entries) through pair and row
// updates with reads of one context at a time (far behind, so that the
// kept rows serve them), of a few, and sweeps, across scheduled refreshes,
// on every gemm path, and requires every read to agree bit for bit.
func TestBlockerMatchesDense(t *testing.T) {
	const contexts, arms, updates = 30, 6, 260
	p := newPool(t, 21, contexts, arms, mlp.Arch{In: 4, Width: 8, Depth: 2}, false)
	dense := &Dense{N: p.feat.Rows(), Data: p.feat.GramTo(nil)}
	for _, path := range gemm.Available() {
		t.Run(fmt.Sprint(path), func(t *testing.T) {
			prev := gemm.Use(path)
			defer gemm.Use(prev)
			a := New(blockKernel{mlp.NewBlockKernel(p.feat), p.feat.Rows()}, contexts, arms, 0.9)
			b := New(dense, contexts, arms, 0.9)
			if a.kp == nil || a.bk == nil {
				t.Fatal("the on-demand kernel is not taken for a Blocker and Keeper")
			}
			a.RefreshEvery, b.RefreshEvery = 97, 97
			rng := rand.New(rand.NewPCG(22, 22))
			for s := range updates {
				if rng.IntN(6) == 0 {
					i := rng.IntN(contexts * arms)
					a.AddRow(i)
					b.AddRow(i)
				} else {
					pr := randomPairs(rng, contexts, arms, 1)[0]
					a.Add(pr[0], pr[1])
					b.Add(pr[0], pr[1])
				}
				when := fmt.Sprintf("after update %d", s+1)
				switch rng.IntN(10) {
				case 0:
					compareReads(t, when, a, b, rng)
				case 1, 2:
					for range 3 {
						ctx := rng.IntN(contexts)
						if !sameBits(a.Block(ctx), b.Block(ctx)) {
							t.Fatalf("%s: Block(%d) differs", when, ctx)
						}
					}
				default:
					ctx := rng.IntN(contexts)
					if !sameBits(a.Block(ctx), b.Block(ctx)) {
						t.Fatalf("%s: Block(%d) differs", when, ctx)
					}
				}
			}
			compareReads(t, "at the end", a, b, rng)
		})
	}
}
