package mlp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/logistic"
)

// squarePairs draws n Bradley–Terry duels on f(x) = 10(xᵀθ)² over a pool of
// rows uniform in (−1,1)^d, the paper's Square problem.
func squarePairs(rng *rand.Rand, rows, d, n int) (x []float64, pairs []Pair) {
	x = randRows(rng, rows, d)
	theta := make([]float64, d)
	norm := 0.0
	for i := range theta {
		theta[i] = rng.NormFloat64()
		norm += theta[i] * theta[i]
	}
	f := make([]float64, rows)
	for r := range f {
		s := 0.0
		for i := range theta {
			s += x[r*d+i] * theta[i] / math.Sqrt(norm)
		}
		f[r] = 10 * s * s
	}
	for range n {
		a, b := rng.IntN(rows), rng.IntN(rows)
		if a == b {
			continue
		}
		if rng.Float64() < logistic.Sigmoid(f[a]-f[b]) {
			pairs = append(pairs, Pair{a, b})
		} else {
			pairs = append(pairs, Pair{b, a})
		}
	}
	return x, pairs
}

// TestTrainingLossFallsWithinBudget checks that the paper's budget (50 steps
// per retrain, retrain every 20 duels, warm start, Adam 1e-3, mirrored init,
// d = 20, w = 50) brings the per-pair training loss well below log 2 ≈ 0.693,
// the loss of the constant model, on Square duels.
func TestTrainingLossFallsWithinBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	a := Arch{In: 20, Width: 50, Depth: 2}
	x, pairs := squarePairs(rng, 3000, a.In, 400)
	net := NewNet(a)
	if err := net.Initialize(InitMirrored, 1, rng); err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(net, x, DefaultTrainConfig(), rng)
	if err != nil {
		t.Fatal(err)
	}
	var first, last float64
	for i, p := range pairs {
		tr.Add(p.Win, p.Lose)
		if (i+1)%20 != 0 {
			continue
		}
		before := tr.MeanNLL()
		tr.Train()
		after := tr.MeanNLL()
		if i+1 == 20 {
			first = before
			if after >= before {
				t.Errorf("first retrain: loss %.4f → %.4f, want a decrease", before, after)
			}
		}
		last = after
	}
	t.Logf("per-pair loss: %.4f at θ0, %.4f after %d retrains of 50 steps", first, last, len(pairs)/20)
	if math.Abs(first-math.Log(2)) > 1e-12 {
		t.Errorf("loss at the mirrored θ0 = %.6f per pair, want log 2", first)
	}
	if last > 0.4 {
		t.Errorf("per-pair loss after warm-started training = %.4f, want ≤ 0.4 (constant model: 0.693)", last)
	}
}

// TestResetTrainingRestartsFromTheta0 checks the reset reading: every Train
// starts from θ0, so two calls on the same data end at the same θ.
func TestResetTrainingRestartsFromTheta0(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	a := Arch{In: 5, Width: 8, Depth: 2}
	x, pairs := squarePairs(rng, 50, a.In, 60)
	net := NewNet(a)
	if err := net.Initialize(InitMirrored, 1, rng); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultTrainConfig()
	cfg.Reset = true
	tr, err := NewTrainer(net, x, cfg, rng)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pairs {
		tr.Add(p.Win, p.Lose)
	}
	tr.Train()
	first := append([]float64(nil), net.Theta...)
	tr.Train()
	for i := range first {
		if first[i] != net.Theta[i] {
			t.Fatalf("θ[%d] differs between two reset trainings: %g vs %g", i, first[i], net.Theta[i])
		}
	}
}

func TestMiniBatchLearns(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	a := Arch{In: 5, Width: 16, Depth: 2}
	x, pairs := squarePairs(rng, 200, a.In, 400)
	net := NewNet(a)
	if err := net.Initialize(InitMirrored, 1, rng); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultTrainConfig()
	cfg.BatchSize = 32
	cfg.Steps = 500
	cfg.LearningRate = 1e-2
	tr, err := NewTrainer(net, x, cfg, rng)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pairs {
		tr.Add(p.Win, p.Lose)
	}
	before := tr.Loss()
	after := tr.Train()
	if after > 0.8*before {
		t.Errorf("mini-batch training: loss %.2f → %.2f, want at least a 20%% decrease", before, after)
	}
}

func TestTrainConfigValidate(t *testing.T) {
	for _, mod := range []func(*TrainConfig){
		func(c *TrainConfig) { c.Optimizer = "sgd" },
		func(c *TrainConfig) { c.LearningRate = 0 },
		func(c *TrainConfig) { c.LearningRate = math.NaN() },
		func(c *TrainConfig) { c.Steps = -1 },
		func(c *TrainConfig) { c.BatchSize = -2 },
		func(c *TrainConfig) { c.LossScale = "avg" },
		func(c *TrainConfig) { c.Regularizer = "l1" },
		func(c *TrainConfig) { c.Lambda = math.Inf(1) },
	} {
		c := DefaultTrainConfig()
		mod(&c)
		if c.Validate() == nil {
			t.Errorf("%+v: want a validation error", c)
		}
	}
}
