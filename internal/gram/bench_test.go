package gram

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/cputime"
	"github.com/neural-adb/nadb/internal/mlp"
)

// paperKernel returns the dense kernel of the gradient features of a
// paper-scale pool (300 contexts × 10 arms, d = 20, w = 50) and T random
// duels between arms of one context.
func paperKernel(b *testing.B, T int) (*Dense, [][2]int) {
	const contexts, arms = 300, 10
	p := newPool(b, 1, contexts, arms, mlp.Arch{In: 20, Width: 50, Depth: 2}, false)
	k := &Dense{N: p.feat.Rows(), Data: p.feat.GramTo(nil)}
	return k, randomPairs(rand.New(rand.NewPCG(1, 2)), contexts, arms, T)
}

// BenchmarkAdd times T rank-one updates at paper scale from V = a·I without
// refreshes, each followed by the reads of a context rule: none, the block
// of one random context (uniformly random contexts) or the largest pair norm
// of every context (the paper's rule, eq. 3). The cpu-ms metrics (processor
// time, package cputime) are the steadier figures on a shared machine.
func BenchmarkAdd(b *testing.B) {
	for _, T := range []int{500, 1000} {
		for _, read := range []string{"none", "one", "all"} {
			b.Run(fmt.Sprintf("T=%d/read=%s", T, read), func(b *testing.B) {
				k, pairs := paperKernel(b, T)
				rng := rand.New(rand.NewPCG(3, 3))
				cpu0 := cputime.Process()
				for b.Loop() {
					c := New(k, 300, 10, 1)
					for _, p := range pairs {
						c.Add(p[0], p[1])
						switch read {
						case "one":
							c.MaxPair(rng.IntN(300))
						case "all":
							for ctx := range 300 {
								c.MaxPair(ctx)
							}
						}
					}
				}
				b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N*T), "ms/update")
				b.ReportMetric(cputime.Since(cpu0).Seconds()*1e3/float64(b.N*T), "cpu-ms/update")
			})
		}
	}
}

// BenchmarkRefresh times one Refresh (Cholesky of the t×t dual Gram
// matrix, the triangular solve for all r̃_s and the rebuilt blocks) after t
// updates at paper scale.
func BenchmarkRefresh(b *testing.B) {
	for _, T := range []int{500, 1000} {
		b.Run(fmt.Sprintf("t=%d", T), func(b *testing.B) {
			k, pairs := paperKernel(b, T)
			c := New(k, 300, 10, 1)
			for _, p := range pairs {
				c.Add(p[0], p[1])
			}
			cpu0 := cputime.Process()
			for b.Loop() {
				if err := c.Refresh(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(cputime.Since(cpu0).Seconds()*1e3/float64(b.N), "cpu-ms/op")
		})
	}
}
