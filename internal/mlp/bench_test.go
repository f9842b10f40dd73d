package mlp

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/cputime"
)

// BenchmarkRetrain times one retrain (Steps = 50 full-batch Adam steps) of the
// paper's network (d = 20, w = 50, 2 hidden layers) on 100 and 1,000 duels
// between arms of a 300 × 10 pool, and reports GFLOP/s over the rows actually
// forwarded (repeated pool rows are forwarded once per step), by the wall
// clock and by processor time (cpu-GFLOP/s, the steadier figure on a shared
// machine; compare it with gemm's BenchmarkPeak cpu-GFLOP/s).
func BenchmarkRetrain(b *testing.B) {
	a := Arch{In: 20, Width: 50, Depth: 2}
	for _, pairs := range []int{100, 1000} {
		b.Run(fmt.Sprintf("pairs=%d", pairs), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			x := randRows(rng, 3000, a.In)
			net := NewNet(a)
			if err := net.Initialize(InitMirrored, 1, rng); err != nil {
				b.Fatal(err)
			}
			tr, err := NewTrainer(net, x, DefaultTrainConfig(), rng)
			if err != nil {
				b.Fatal(err)
			}
			for range pairs {
				c := rng.IntN(300)
				i := rng.IntN(10)
				j := (i + 1 + rng.IntN(9)) % 10
				tr.Add(c*10+i, c*10+j)
			}
			rows := len(tr.uniq)
			p := a.NumParams()
			flopsPerRowStep := 2 * float64(2*p+(a.Depth-1)*a.Width*a.Width)
			cpu0 := cputime.Process()
			for b.Loop() {
				tr.Train()
			}
			cpu := cputime.Since(cpu0).Seconds() / float64(b.N)
			b.ReportMetric(cpu*1e3, "cpu-ms/retrain")
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(sec*1e3, "ms/retrain")
			flops := float64(tr.Config.Steps) * float64(rows) * flopsPerRowStep
			b.ReportMetric(flops/sec/1e9, "GFLOP/s")
			b.ReportMetric(flops/cpu/1e9, "cpu-GFLOP/s")
			b.ReportMetric(float64(rows), "rows/step")
		})
	}
}
