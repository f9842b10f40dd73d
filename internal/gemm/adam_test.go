package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAdamStepBitIdentical runs AdamStep (and AdamStepScale, which must
// give its θ, m and v and then g = θ·s) on every path of this machine over
// lengths around the vector blocks, with gradients of varied magnitude
// (zeros, subnormals, large values) and the bias corrections of early and
// late steps, and requires the bits of the formula evaluated one correctly
// rounded operation at a time.
func TestAdamStepBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	special := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1e-300, 1e300, -1e300, 1, -1}
	for _, p := range Available() {
		prev := Use(p)
		for n := range 70 {
			step := 1 + rng.IntN(1000)
			a := Adam{
				B1: 0.9, OneMinusB1: 0.1, B2: 0.999, OneMinusB2: 0.001,
				Correction1: 1 - math.Pow(0.9, float64(step)), Correction2: 1 - math.Pow(0.999, float64(step)),
				LearningRate: 1e-3 * (1 + rng.Float64()), Eps: 1e-8,
			}
			g := randSlice(rng, n)
			for i := range g {
				if rng.IntN(5) == 0 {
					g[i] = special[rng.IntN(len(special))]
				}
			}
			theta, m, v := randSlice(rng, n), randSlice(rng, n), randSlice(rng, n)
			for i := range v {
				v[i] = math.Abs(v[i])
			}
			wt, wm, wv := append([]float64(nil), theta...), append([]float64(nil), m...), append([]float64(nil), v...)
			// AdamStepScale on copies: the same θ, m and v, and g = θ·s.
			st, sm, sv, sg := append([]float64(nil), theta...), append([]float64(nil), m...), append([]float64(nil), v...), append([]float64(nil), g...)
			scale := 2 * math.Ldexp(rng.Float64(), rng.IntN(9)-4)
			AdamStepScale(st, sm, sv, sg, a, scale)
			AdamStep(theta, m, v, g, a)
			for i := range n {
				for _, c := range []struct {
					name      string
					got, want float64
				}{{"θ", st[i], theta[i]}, {"m", sm[i], m[i]}, {"v", sv[i], v[i]}, {"g", sg[i], theta[i] * scale}} {
					if math.Float64bits(c.got) != math.Float64bits(c.want) {
						t.Fatalf("%v n=%d: AdamStepScale %s[%d] = %v, want %v", p, n, c.name, i, c.got, c.want)
					}
				}
			}
			for i, gi := range g {
				// float64: no fused multiply–add (GOAMD64=v3, arm64).
				x := float64(a.B1 * wm[i])
				y := float64(a.OneMinusB1 * gi)
				wm[i] = x + y
				x = float64(a.B2 * wv[i])
				y = a.OneMinusB2 * gi
				y = float64(y * gi)
				wv[i] = x + y
				num := wm[i] / a.Correction1
				num *= a.LearningRate
				den := math.Sqrt(wv[i] / a.Correction2)
				den += a.Eps
				q := num / den
				wt[i] -= q
			}
			for i := range n {
				for _, c := range []struct {
					name      string
					got, want float64
				}{{"θ", theta[i], wt[i]}, {"m", m[i], wm[i]}, {"v", v[i], wv[i]}} {
					if math.Float64bits(c.got) != math.Float64bits(c.want) {
						t.Fatalf("%v n=%d: %s[%d] = %v, want %v (g = %v)", p, n, c.name, i, c.got, c.want, g[i])
					}
				}
			}
		}
		Use(prev)
	}
}

func TestAdamStepPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	AdamStep(make([]float64, 3), make([]float64, 3), make([]float64, 2), make([]float64, 3), Adam{})
}
