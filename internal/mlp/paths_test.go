package mlp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/gemm"
)

// TestKernelPathsAgree trains the same network on every kernel path of the
// machine (package gemm: the pure-Go twin and the vector kernels) and
// requires bit-identical parameters, predictions and NTK Gram matrices: the
// results of this package must not depend on the processor.
func TestKernelPathsAgree(t *testing.T) {
	type result struct {
		theta, pred, gram, col []float64
	}
	run := func(a Arch) result {
		rng := rand.New(rand.NewPCG(3, 4))
		x, pairs := squarePairs(rng, 90, a.In, 200)
		net := NewNet(a)
		if err := net.Initialize(InitHe, 1, rng); err != nil {
			t.Fatal(err)
		}
		feat := net.NewFeatures(x, 1/float64(a.Width))
		cfg := DefaultTrainConfig()
		cfg.Steps = 20
		tr, err := NewTrainer(net, x, cfg, rng)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pairs {
			tr.Add(p.Win, p.Lose)
		}
		tr.Train()
		return result{
			theta: append([]float64(nil), net.Theta...),
			pred:  net.Predict(nil, x, nil),
			gram:  feat.GramTo(nil),
			col:   feat.ColumnTo(nil, 7),
		}
	}
	for _, a := range []Arch{
		{In: 5, Width: 13, Depth: 2},
		{In: 20, Width: 50, Depth: 2, Bias: true},
		{In: 3, Width: 9, Depth: 3},
	} {
		prev := gemm.Use(gemm.PureGo)
		want := run(a)
		gemm.Use(prev)
		for _, p := range gemm.Available()[1:] {
			prev := gemm.Use(p)
			got := run(a)
			gemm.Use(prev)
			for _, c := range []struct {
				name      string
				got, want []float64
			}{{"θ", got.theta, want.theta}, {"predictions", got.pred, want.pred},
				{"Gram matrix", got.gram, want.gram}, {"kernel column", got.col, want.col}} {
				for i := range c.want {
					if math.Float64bits(c.got[i]) != math.Float64bits(c.want[i]) {
						t.Fatalf("%+v: %s[%d] on %v is %v, pure Go gives %v", a, c.name, i, p, c.got[i], c.want[i])
					}
				}
			}
		}
	}
}
