package experiments

import (
	"context"
	"testing"
	"time"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/cputime"
)

// paperLearner builds Neural-ADB (UCB, as written) on the paper-scale Square
// instance (d = 20, K = 10, 300 contexts, w = 50).
func paperLearner(b *testing.B, cfg algorithms.Config, rule func(*algorithms.NeuralADB, algorithms.Offer) int) (*Problem, *algorithms.NeuralADB) {
	prob, err := DefaultProblem().Build(1)
	if err != nil {
		b.Fatal(err)
	}
	l, err := algorithms.NewNeuralADB(algorithms.Env{Pool: prob.Pool, Config: cfg, Seed: 1}, false, rule)
	if err != nil {
		b.Fatal(err)
	}
	return prob, l
}

// BenchmarkRound times selection + confidence update at paper scale: each
// iteration plays 1,000 rounds (context rule over all 300 contexts, arm rule,
// exact rank-one update of every K×K block) on a fresh learner, with training
// switched off so that only the per-round work is measured. The learner's
// construction (gradient features and their kernel) is excluded here and
// included in BenchmarkPaperRun.
func BenchmarkRound(b *testing.B) {
	for _, tc := range []struct {
		name string
		rule func(*algorithms.NeuralADB, algorithms.Offer) int
	}{
		{"paper-rule", nil},
		{"random-contexts", algorithms.RandomContext},
	} {
		b.Run(tc.name, func(b *testing.B) {
			cfg := algorithms.Default()
			cfg.RetrainEvery = 1 << 30
			const T = 1000
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				prob, l := paperLearner(b, cfg, tc.rule)
				b.StartTimer()
				cpu0 := cputime.Process()
				for range T {
					q := l.Select(algorithms.Offer{})
					l.Observe(q, prob.Oracle.Answer(q))
				}
				cpu += cputime.Since(cpu0)
			}
			b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N*T), "ms/round")
			b.ReportMetric(cpu.Seconds()*1e3/float64(b.N*T), "cpu-ms/round")
		})
	}
}

// BenchmarkPaperRun times a whole paper-scale run of Neural-ADB and of every
// baseline (T = 1000, checkpoints every 50 rounds), everything included. Run
// it with -cpu 1 for the one-core figure. The cpu-s and cpu-ms metrics
// (processor time, package cputime) are the steadier figures on a shared
// machine.
func BenchmarkPaperRun(b *testing.B) {
	for _, algo := range []string{"neural-adb-ucb", "neural-adb-ts", "neural-adb-ucb-randctx",
		// The baselines of Section 4.
		"random", "apo", "ae-borda", "ae-dpo", "random-nn", "neural-adb-apo", "ae-borda-nn"} {
		b.Run(algo, func(b *testing.B) {
			spec := Spec{Algorithm: algo, Problem: DefaultProblem(), Config: algorithms.Default(), T: 1000, Every: 50, Seed: 1}
			cpu0 := cputime.Process()
			for b.Loop() {
				if _, err := Run(context.Background(), spec, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/run")
			b.ReportMetric(cputime.Since(cpu0).Seconds()/float64(b.N), "cpu-s/run")
		})
	}
}

// BenchmarkLargePoolRound times rounds on a pool far above the paper's: the
// Square problem with 10,000 contexts × 26 arms, d = 50 (260,000 rows), where
// the neural learners keep the lazy confidence state. Each iteration plays
// 200 rounds on a fresh learner with training switched off (construction
// excluded): random contexts solve one block per round, the paper's rule
// (eq. 3) the blocks whose stale bound could still win.
func BenchmarkLargePoolRound(b *testing.B) {
	spec := ProblemSpec{Name: string(Square), Dim: 50, Arms: 26, Contexts: 10_000, Theta: ThetaSphere}
	prob, err := spec.Build(1)
	if err != nil {
		b.Fatal(err)
	}
	cfg := algorithms.Default()
	cfg.RetrainEvery = 1 << 30
	const T = 200
	for _, algo := range []string{"neural-adb-ucb-randctx", "neural-adb-ucb"} {
		b.Run(algo, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				l, err := algorithms.New(algo, algorithms.Env{Pool: prob.Pool, Config: cfg, Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				for range T {
					q := l.Select(algorithms.Offer{})
					l.Observe(q, prob.Oracle.Answer(q))
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N*T), "ms/round")
		})
	}
}
