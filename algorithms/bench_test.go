package algorithms

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkConfidenceState plays rounds of the paper's rule (eq. 3) and of
// random contexts on the largest pool gram.Confidence keeps (300 contexts ×
// 20 arms, d = 20, w = 50: lazyMinRows) with each confidence state, training
// switched off: the per-round cost of keeping every block up to date against
// solving blocks on demand. Each iteration builds a learner and plays 300
// rounds; construction is excluded.
func BenchmarkConfidenceState(b *testing.B) {
	p, theta := testPool(b, 1, 300, 20, 20, 2)
	cfg := Default()
	cfg.RetrainEvery = 1 << 30
	const T = 300
	for _, state := range []string{"blocks", "lazy"} {
		for _, algo := range []string{"neural-adb-ucb", "neural-adb-ucb-randctx"} {
			b.Run(state+"/"+algo, func(b *testing.B) {
				rows := lazyMinRows
				if state == "lazy" {
					rows = 0
				}
				old := lazyMinRows
				lazyMinRows = rows
				defer func() { lazyMinRows = old }()
				for b.Loop() {
					b.StopTimer()
					l := mustNew(b, algo, p, cfg, 1)
					rng := rand.New(rand.NewPCG(2, 2))
					b.StartTimer()
					for range T {
						q := l.Select(Offer{})
						l.Observe(q, btAnswer(p, theta, q, rng))
					}
				}
				b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N*T), "ms/round")
			})
		}
	}
}
