package gemm

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/cputime"
)

// BenchmarkOps times every operation on the shapes of one training step of
// the paper's network (1,461 batch rows, d = 20, w = 50) and of a Gram tile
// (256 × 256, inner 50), on every path of the machine, and reports GFLOP/s
// (2 flops per fused multiply–add).
func BenchmarkOps(b *testing.B) {
	const rows = 1461
	cases := []struct {
		name    string
		o       op
		m, k, n int
	}{
		{"MulTransTo/forward-l1", ops[1], rows, 20, 50},
		{"MulTransTo/forward-l2", ops[1], rows, 50, 50},
		{"MulTransTo/gram-tile", ops[1], 256, 50, 256},
		{"MulTo/backward-delta", ops[0], rows, 50, 50},
		{"AddTransMulTo/grad-W1", ops[2], 50, rows, 20},
		{"AddTransMulTo/grad-W2", ops[2], 50, rows, 50},
		{"MulVecTo/output", ops[3], rows, 50, 1},
		{"AddTransMulVecTo/grad-v", ops[4], rows, 50, 1},
	}
	for _, p := range Available() {
		for _, c := range cases {
			b.Run(fmt.Sprintf("%s/path=%v", c.name, p), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(1, 2))
				x := randSlice(rng, c.o.na(c.m, c.k, c.n))
				y := randSlice(rng, c.o.nb(c.m, c.k, c.n))
				dst := make([]float64, c.o.nd(c.m, c.k, c.n))
				prev := Use(p)
				defer Use(prev)
				cpu0 := cputime.Process()
				for b.Loop() {
					c.o.run(dst, x, y, c.m, c.k, c.n)
				}
				flops := 2 * float64(c.m) * float64(c.k) * float64(c.n)
				b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				b.ReportMetric(flops*float64(b.N)/cputime.Since(cpu0).Seconds()/1e9, "cpu-GFLOP/s")
			})
		}
	}
}

// BenchmarkPeak measures the fp64 peak of one core: independent fused
// multiply–adds on registers with the widest kernels of the machine (no
// memory access), reported by the wall clock and by processor time
// (cpu-GFLOP/s). make speed divides the matrix-kernel work of a run
// (Flops) by it for the run's arithmetic floor.
func BenchmarkPeak(b *testing.B) {
	p := Available()[len(Available())-1]
	if p == PureGo {
		b.Skip("no vector kernels on this machine")
	}
	const n = 1 << 16
	flops := 0.0
	cpu0 := cputime.Process()
	for b.Loop() {
		flops += peakAsm(p, n)
	}
	b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	b.ReportMetric(flops/cputime.Since(cpu0).Seconds()/1e9, "cpu-GFLOP/s")
}
