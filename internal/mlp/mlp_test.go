package mlp

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/floats"
)

func randRows(rng *rand.Rand, rows, d int) []float64 {
	x := make([]float64, rows*d)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	return x
}

func TestNumParams(t *testing.T) {
	for _, tc := range []struct {
		a    Arch
		want int
	}{
		{Arch{In: 20, Width: 50, Depth: 2}, 3550}, // the paper's count
		{Arch{In: 20, Width: 50, Depth: 2, Bias: true}, 3550 + 2*50 + 1},
		{Arch{In: 5, Width: 4, Depth: 1}, 24},
		{Arch{In: 5, Width: 4, Depth: 3}, 20 + 2*16 + 4},
	} {
		if got := tc.a.NumParams(); got != tc.want {
			t.Errorf("%+v: NumParams = %d, want %d", tc.a, got, tc.want)
		}
		lay := tc.a.layout()
		end := lay.bOut.off + lay.bOut.len
		if end != tc.want {
			t.Errorf("%+v: layout ends at %d, want %d", tc.a, end, tc.want)
		}
	}
}

// checkGradientFD compares the trainer's loss gradient at the current θ with
// central finite differences (gonum diff/fd), element by element.
func checkGradientFD(t *testing.T, tr *Trainer) {
	t.Helper()
	net := tr.Net
	got := make([]float64, len(net.Theta))
	tr.LossGrad(got)
	theta := append([]float64(nil), net.Theta...)
	f := func(th []float64) float64 {
		copy(net.Theta, th)
		return tr.Loss()
	}
	want := fd.Gradient(nil, f, theta, &fd.Settings{Formula: fd.Central, Step: 1e-6})
	copy(net.Theta, theta)
	if !floats.EqualApprox(got, want, 1e-6) {
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-6 {
				t.Errorf("∂L/∂θ[%d] = %.10g, finite difference %.10g", i, got[i], want[i])
			}
		}
	}
}

// TestGradientFiniteDifference checks the hand-written back-propagation of the
// full training loss against central finite differences (gonum diff/fd).
func TestGradientFiniteDifference(t *testing.T) {
	for _, tc := range []struct {
		name string
		arch Arch
		cfg  func(*TrainConfig)
	}{
		{"depth2", Arch{In: 4, Width: 6, Depth: 2}, nil},
		{"depth1-bias", Arch{In: 3, Width: 5, Depth: 1, Bias: true}, nil},
		{"depth3-bias-theta0-mean", Arch{In: 3, Width: 4, Depth: 3, Bias: true}, func(c *TrainConfig) {
			c.Regularizer = RegTheta0
			c.LossScale = ScaleMean
		}},
		{"width-scale", Arch{In: 2, Width: 8, Depth: 2}, func(c *TrainConfig) { c.LossScale = ScaleWidth; c.Lambda = 0.3 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
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
			// Move θ away from θ0 so that the θ0 regulariser has a gradient.
			for i := range net.Theta {
				net.Theta[i] += 0.05 * rng.NormFloat64()
			}
			for range 20 {
				a, b := rng.IntN(12), rng.IntN(12)
				if a != b {
					tr.Add(a, b)
				}
			}
			tr.Add(3, 4)
			tr.Add(3, 4) // repeated pairs count twice
			checkGradientFD(t, tr)
		})
	}
}

func TestMirroredInitIsZero(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	a := Arch{In: 20, Width: 50, Depth: 2}
	net := NewNet(a)
	if err := net.Initialize(InitMirrored, 1, rng); err != nil {
		t.Fatal(err)
	}
	x := randRows(rng, 100, a.In)
	out := net.Predict(nil, x, nil)
	for i, v := range out {
		if v != 0 {
			t.Fatalf("h(x_%d;θ0) = %g, want exactly 0 at the mirrored init", i, v)
		}
	}
	// Without the flag the network evaluates to rounding noise only.
	raw := net.Clone()
	raw.SetTheta(net.Theta)
	for i, v := range raw.Predict(nil, x, nil) {
		if math.Abs(v) > 1e-12 {
			t.Fatalf("unflagged h(x_%d;θ0) = %g, want |h| ≤ 1e-12", i, v)
		}
	}
	if err := NewNet(Arch{In: 2, Width: 5, Depth: 1}).Initialize(InitMirrored, 1, rng); err == nil {
		t.Error("mirrored init with odd width: want an error")
	}
}

// TestKernelClosedForm checks the closed-form gradient inner products against
// explicit gradients, for every route (Entry, ColumnTo, GramTo).
func TestKernelClosedForm(t *testing.T) {
	for _, a := range []Arch{
		{In: 5, Width: 8, Depth: 2},
		{In: 3, Width: 6, Depth: 3, Bias: true},
		{In: 4, Width: 4, Depth: 1},
	} {
		rng := rand.New(rand.NewPCG(5, 6))
		net := NewNet(a)
		if err := net.Initialize(InitMirrored, 1, rng); err != nil {
			t.Fatal(err)
		}
		rows := 300 // more than one GramTo tile
		x := randRows(rng, rows, a.In)
		f := net.NewFeatures(x, 1/float64(a.Width))
		g := make([][]float64, rows)
		for i := range g {
			g[i] = f.GradientTo(nil, i)
		}
		// Explicit gradients against an independent derivative: the output
		// gradient times Backward equals the parameter gradient.
		gram := f.GramTo(nil)
		col := make([]float64, rows)
		for _, j := range []int{0, 7, 299} {
			f.ColumnTo(col, j)
			for i := range rows {
				want := floats.Dot(g[i], g[j])
				for name, got := range map[string]float64{"Entry": f.Entry(i, j), "ColumnTo": col[i], "GramTo": gram[i*rows+j]} {
					if math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
						t.Fatalf("%+v %s(%d,%d) = %.15g, explicit %.15g", a, name, i, j, got, want)
					}
				}
			}
		}
	}
}

// TestGradientFeaturesMatchBackward checks that explicit features equal the
// gradient of h computed by the training back-propagation.
func TestGradientFeaturesMatchBackward(t *testing.T) {
	a := Arch{In: 3, Width: 6, Depth: 2, Bias: true}
	rng := rand.New(rand.NewPCG(7, 8))
	net := NewNet(a)
	if err := net.Initialize(InitHe, 1, rng); err != nil {
		t.Fatal(err)
	}
	x := randRows(rng, 4, a.In)
	f := net.NewFeatures(x, 1)
	for i := range 4 {
		b := NewBatch(a, 1)
		copy(b.H[0], x[i*a.In:(i+1)*a.In])
		net.Forward(b)
		grad := make([]float64, a.NumParams())
		net.Backward(b, []float64{1}, grad)
		if !floats.EqualApprox(grad, f.GradientTo(nil, i), 1e-14) {
			t.Fatalf("row %d: GradientTo differs from Backward", i)
		}
		h := func(th []float64) float64 {
			n2 := net.Clone()
			n2.SetTheta(th)
			return n2.Predict(nil, x[i*a.In:(i+1)*a.In], nil)[0]
		}
		num := fd.Gradient(nil, h, net.Theta, &fd.Settings{Formula: fd.Central, Step: 1e-6})
		if !floats.EqualApprox(grad, num, 1e-6) {
			t.Fatalf("row %d: ∂h/∂θ differs from finite differences", i)
		}
	}
}
