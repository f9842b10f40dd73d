package experiments

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/enum"
)

// Function is a synthetic latent reward of z = xᵀθ.
type Function string

// The synthetic rewards: the paper's two, NeuralUCB's h3, and a sanity check.
const (
	Square Function = "square" // 10 z², the paper's
	Sine   Function = "sine"   // 2 sin z, the paper's
	Cosine Function = "cosine" // cos 3z (NeuralUCB's h3)
	Linear Function = "linear" // 5 z (ours: an easy problem every learner can fit)
)

// Functions lists the synthetic rewards.
var Functions = []Function{Square, Sine, Cosine, Linear}

// UnmarshalText implements encoding.TextUnmarshaler.
func (f *Function) UnmarshalText(b []byte) (err error) {
	*f, err = enum.Parse("function", string(b), Functions)
	return err
}

// Validate reports whether f is one of Functions.
func (f Function) Validate() error { return enum.Check("function", f, Functions) }

// Reward returns f(z).
func (f Function) Reward(z float64) float64 {
	switch f {
	case Square:
		return 10 * z * z
	case Sine:
		return 2 * math.Sin(z)
	case Cosine:
		return math.Cos(3 * z)
	case Linear:
		return 5 * z
	}
	panic(fmt.Sprintf("experiments: unknown function %q", string(f)))
}

// ThetaDraw is how the synthetic problems draw θ.
type ThetaDraw string

// The draws of θ.
const (
	ThetaSphere   ThetaDraw = "sphere"   // uniform on the unit sphere (default, the neural-bandit convention)
	ThetaGaussian ThetaDraw = "gaussian" // N(0, I_d), unnormalised
	ThetaUniform  ThetaDraw = "uniform"  // U(−1,1)^d, unnormalised
)

// ThetaDraws lists the draws of θ.
var ThetaDraws = []ThetaDraw{ThetaSphere, ThetaGaussian, ThetaUniform}

// UnmarshalText implements encoding.TextUnmarshaler.
func (t *ThetaDraw) UnmarshalText(b []byte) (err error) {
	*t, err = enum.Parse("theta draw", string(b), ThetaDraws)
	return err
}

// MarshalText implements encoding.TextMarshaler (for flag.TextVar).
func (t ThetaDraw) MarshalText() ([]byte, error) { return []byte(t), nil }

// Validate reports whether t is one of ThetaDraws.
func (t ThetaDraw) Validate() error { return enum.Check("theta draw", t, ThetaDraws) }

// Synthetic describes a synthetic problem of the paper's Section 4.
type Synthetic struct {
	Function Function
	Dim      int // d
	Arms     int // K
	Contexts int // |C|, the fixed pool size (paper: most plausibly 300)
	Theta    ThetaDraw
	// Candidates > 0 selects the fresh-context reading: every round draws
	// Candidates new contexts from the same distribution for the learner to
	// choose among, and the Contexts contexts drawn once are the evaluation
	// pool, never offered (fresh.go). 0 is the fixed-pool reading.
	Candidates int
}

// Validate reports the first invalid field.
func (s Synthetic) Validate() error {
	if err := s.Function.Validate(); err != nil {
		return fmt.Errorf("experiments: %w", err)
	}
	switch {
	case s.Dim < 1:
		return fmt.Errorf("experiments: d (feature dimension) must be ≥ 1, got %d", s.Dim)
	case s.Arms < 2:
		return fmt.Errorf("experiments: K must be ≥ 2 arms per context to form a duel, got %d", s.Arms)
	case s.Contexts < 1:
		return fmt.Errorf("experiments: contexts must be ≥ 1, got %d", s.Contexts)
	case s.Candidates < 0:
		return fmt.Errorf("experiments: candidates must be ≥ 0 (0: the fixed pool), got %d", s.Candidates)
	}
	if err := s.Theta.Validate(); err != nil {
		return fmt.Errorf("experiments: theta: %w", err)
	}
	return nil
}

// New draws the instance for seed: x_{c,a} ~ U(−1,1)^d and θ from the stream
// (seed, StreamProblem), Bradley–Terry feedback from (seed, StreamFeedback);
// with Candidates > 0 the fresh contexts come from (seed, StreamCandidates)
// and the pool drawn here is the evaluation pool (the same instance as the
// fixed-pool reading's, so the two readings are paired by seed).
func (s Synthetic) New(seed uint64) (*Problem, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	x, theta, f := s.draw(seed)
	if s.Candidates > 0 {
		return s.fresh(seed, x, theta, f)
	}
	pool, err := algorithms.NewPool(s.Contexts, s.Arms, s.Dim, x)
	if err != nil {
		return nil, err
	}
	lat := &Latent{Arms: s.Arms, F: f}
	return &Problem{
		Name:      string(s.Function),
		Pool:      pool,
		Oracle:    &BradleyTerry{Latent: lat, Rng: rand.New(rand.NewPCG(seed, StreamFeedback))},
		Evaluator: lat,
	}, nil
}

// draw returns the pool's features, θ and the latent rewards of the rows.
func (s Synthetic) draw(seed uint64) (x, theta, f []float64) {
	rng := rand.New(rand.NewPCG(seed, StreamProblem))
	rows := s.Contexts * s.Arms
	x = make([]float64, rows*s.Dim)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	theta = make([]float64, s.Dim)
	switch s.Theta {
	case ThetaSphere:
		norm := 0.0
		for i := range theta {
			theta[i] = rng.NormFloat64()
			norm += theta[i] * theta[i]
		}
		norm = math.Sqrt(norm)
		for i := range theta {
			theta[i] /= norm
		}
	case ThetaGaussian:
		for i := range theta {
			theta[i] = rng.NormFloat64()
		}
	case ThetaUniform:
		for i := range theta {
			theta[i] = 2*rng.Float64() - 1
		}
	}
	return x, theta, s.rewards(nil, x, theta)
}

// rewards appends f(x_nᵀθ) for the rows of x to dst.
func (s Synthetic) rewards(dst, x, theta []float64) []float64 {
	for n := range len(x) / s.Dim {
		z := 0.0
		for i, t := range theta {
			z += x[n*s.Dim+i] * t
		}
		dst = append(dst, s.Function.Reward(z))
	}
	return dst
}
