package mlp

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/neural-adb/nadb/internal/enum"
)

// Init names an initialisation scheme for θ0.
type Init string

// Initialisation schemes; see the package documentation.
const (
	InitMirrored Init = "mirrored" // Zhang et al. 2021: h(x;θ0) = 0 (default)
	InitHe       Init = "he"       // N(0, 2/fan_in) for every weight, zero biases
	InitGaussian Init = "gaussian" // N(0, scale²) for every parameter
	InitUniform  Init = "uniform"  // U(−1/√fan_in, 1/√fan_in), PyTorch's default
)

// Inits lists the valid schemes.
var Inits = []Init{InitMirrored, InitHe, InitGaussian, InitUniform}

// UnmarshalText implements encoding.TextUnmarshaler: it accepts only the
// names of Inits.
func (i *Init) UnmarshalText(b []byte) (err error) {
	*i, err = enum.Parse("initialisation", string(b), Inits)
	return err
}

// Validate reports whether i is one of Inits.
func (i Init) Validate() error { return enum.Check("initialisation", i, Inits) }

// Values lists the valid names.
func (Init) Values() []string { return enum.Strings(Inits) }

// Initialize draws θ0 for n from rng. scale is used by InitGaussian only (its
// standard deviation) and multiplies the standard deviation of every other
// scheme when it is not 1; pass 1 for the schemes as documented.
func (n *Net) Initialize(scheme Init, scale float64, rng *rand.Rand) error {
	a := n.Arch
	clear(n.Theta)
	n.zeroAtInit = false
	switch scheme {
	case InitMirrored:
		if a.Width%2 != 0 {
			return fmt.Errorf("mlp: mirrored initialisation needs an even width, got %d", a.Width)
		}
		m := a.Width / 2
		sHidden := scale * math.Sqrt(4/float64(a.Width))
		sOut := scale * math.Sqrt(2/float64(a.Width))
		for l := 0; l < a.Depth; l++ {
			in := a.fanIn(l)
			w := n.lay.w[l].of(n.Theta)
			if l == 0 {
				// W_1 = [A; A]
				for i := range m {
					for j := range in {
						x := sHidden * rng.NormFloat64()
						w[i*in+j] = x
						w[(i+m)*in+j] = x
					}
				}
				continue
			}
			// W_l = diag(B, B)
			for i := range m {
				for j := range m {
					x := sHidden * rng.NormFloat64()
					w[i*in+j] = x
					w[(i+m)*in+j+m] = x
				}
			}
		}
		v := n.lay.v.of(n.Theta)
		for i := range m {
			x := sOut * rng.NormFloat64()
			v[i] = x
			v[i+m] = -x
		}
		n.zeroAtInit = true
	case InitHe:
		for l := 0; l < a.Depth; l++ {
			fill(n.lay.w[l].of(n.Theta), scale*math.Sqrt(2/float64(a.fanIn(l))), rng)
		}
		fill(n.lay.v.of(n.Theta), scale*math.Sqrt(2/float64(a.Width)), rng)
	case InitGaussian:
		fill(n.Theta, scale, rng)
	case InitUniform:
		for l := 0; l < a.Depth; l++ {
			bound := scale / math.Sqrt(float64(a.fanIn(l)))
			fillUniform(n.lay.w[l].of(n.Theta), bound, rng)
			fillUniform(n.lay.b[l].of(n.Theta), bound, rng)
		}
		bound := scale / math.Sqrt(float64(a.Width))
		fillUniform(n.lay.v.of(n.Theta), bound, rng)
		fillUniform(n.lay.bOut.of(n.Theta), bound, rng)
	default:
		return fmt.Errorf("mlp: %w", scheme.Validate())
	}
	return nil
}

func fill(x []float64, sd float64, rng *rand.Rand) {
	for i := range x {
		x[i] = sd * rng.NormFloat64()
	}
}

func fillUniform(x []float64, bound float64, rng *rand.Rand) {
	for i := range x {
		x[i] = bound * (2*rng.Float64() - 1)
	}
}
