package mlp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/logistic"
)

// TestTargetLossFiniteDifference checks the gradient of the squared-error
// term (targets alone and mixed with Bradley–Terry pairs) against central
// finite differences, and its value against a direct evaluation.
func TestTargetLossFiniteDifference(t *testing.T) {
	for _, tc := range []struct {
		name  string
		arch  Arch
		pairs bool
		cfg   func(*TrainConfig)
	}{
		{"targets", Arch{In: 4, Width: 6, Depth: 2}, false, nil},
		{"targets-bias-mean", Arch{In: 3, Width: 5, Depth: 1, Bias: true}, false, func(c *TrainConfig) { c.LossScale = ScaleMean }},
		{"mixed-theta0", Arch{In: 3, Width: 4, Depth: 3, Bias: true}, true, func(c *TrainConfig) { c.Regularizer = RegTheta0; c.Lambda = 0.4 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 4))
			net := NewNet(tc.arch)
			if err := net.Initialize(InitHe, 1, rng); err != nil {
				t.Fatal(err)
			}
			x := randRows(rng, 12, tc.arch.In)
			cfg := DefaultTrainConfig()
			if tc.cfg != nil {
				tc.cfg(&cfg)
			}
			tr, err := NewTrainer(net, x, cfg, rng)
			if err != nil {
				t.Fatal(err)
			}
			for i := range net.Theta {
				net.Theta[i] += 0.05 * rng.NormFloat64()
			}
			for range 15 {
				tr.AddTarget(rng.IntN(12), rng.Float64())
			}
			tr.AddTarget(5, 0.25)
			tr.AddTarget(5, 0.25) // repeated targets count twice
			if tc.pairs {
				for range 10 {
					a, b := rng.IntN(12), rng.IntN(12)
					if a != b {
						tr.Add(a, b)
					}
				}
			}

			// Value: S·Σ(h − y)² + R(θ), evaluated directly with Predict.
			h := net.Predict(nil, x, nil)
			data := 0.0
			for _, o := range tr.targs {
				data += (h[o.Row] - o.Y) * (h[o.Row] - o.Y)
			}
			for _, p := range tr.pairs {
				data += logistic.Softplus(h[p.Lose] - h[p.Win])
			}
			if cfg.LossScale == ScaleMean {
				data /= float64(len(tr.pairs) + len(tr.targs))
			}
			reg := 0.0
			for i, th := range net.Theta {
				switch cfg.Regularizer {
				case RegTheta:
					reg += cfg.Lambda * th * th
				case RegTheta0:
					d := th - tr.theta0[i]
					reg += cfg.Lambda / 2 * d * d
				}
			}
			if got, want := tr.Loss(), data+reg; math.Abs(got-want) > 1e-10*math.Abs(want) {
				t.Errorf("Loss = %.12g, direct evaluation %.12g", got, want)
			}

			checkGradientFD(t, tr)
		})
	}
}

// TestTargetRegressionFits trains on noisy Bernoulli targets of a smooth
// function with the paper's budget (warm-started Adam, 50 steps per 20
// observations, width 50) and checks that the mean squared error falls well
// below that of the best constant, and that mini-batch training runs on
// targets too.
func TestTargetRegressionFits(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	a := Arch{In: 5, Width: 50, Depth: 2}
	const rows = 400
	x := randRows(rng, rows, a.In)
	p := make([]float64, rows) // P(y = 1) at each row
	for r := range p {
		p[r] = logistic.Sigmoid(3 * (x[r*a.In] + x[r*a.In+1]))
	}
	for _, batch := range []int{0, 32} {
		net := NewNet(a)
		if err := net.Initialize(InitMirrored, 1, rng); err != nil {
			t.Fatal(err)
		}
		cfg := DefaultTrainConfig()
		cfg.BatchSize = batch
		tr, err := NewTrainer(net, x, cfg, rng)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 600 {
			r := rng.IntN(rows)
			y := 0.0
			if rng.Float64() < p[r] {
				y = 1
			}
			tr.AddTarget(r, y-0.5)
			if (i+1)%20 == 0 {
				tr.Train()
			}
		}
		// Error against the noise-free target p − 1/2 over the whole pool.
		h := net.Predict(nil, x, nil)
		mse, mseConst, mean := 0.0, 0.0, 0.0
		for r := range p {
			mean += (p[r] - 0.5) / rows
		}
		for r := range p {
			d := h[r] - (p[r] - 0.5)
			mse += d * d / rows
			e := mean - (p[r] - 0.5)
			mseConst += e * e / rows
		}
		t.Logf("batch %d: pool MSE %.4f vs best constant %.4f; training MSE %.4f", batch, mse, mseConst, tr.MeanSquaredError())
		if mse > 0.3*mseConst {
			t.Errorf("batch %d: pool MSE %.4f is not below 30%% of the best constant's %.4f", batch, mse, mseConst)
		}
	}
}
