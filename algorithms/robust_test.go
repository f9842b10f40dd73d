package algorithms_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
)

// TestExtremeFeatures feeds every registered learner pools whose features are
// extreme (tiny, huge, up to the largest float64), constant, duplicated
// across arms, or ill-conditioned (one column scaled apart from the others),
// none of them NaN or infinite, and requires that runs neither panic nor ask
// an invalid query: learners degrade numerically instead.
func TestExtremeFeatures(t *testing.T) {
	const contexts, arms, dim = 10, 4, 3
	kinds := []string{"scaled", "constant", "duplicated", "ill-conditioned"}
	for _, scale := range []float64{1e-300, 1e-10, 1e10, 1e100, 1e308} {
		for _, kind := range kinds {
			rng := rand.New(rand.NewPCG(1, 2))
			x := make([]float64, contexts*arms*dim)
			for i := range x {
				switch kind {
				case "scaled":
					x[i] = scale * (2*rng.Float64() - 1)
				case "constant":
					x[i] = scale
				case "duplicated":
					x[i] = scale * float64((i/dim)%2)
				default:
					x[i] = 2*rng.Float64() - 1
					if i%dim == 0 {
						x[i] *= scale
					}
				}
			}
			f := make([]float64, contexts*arms)
			for i := range f {
				f[i] = rng.NormFloat64()
			}
			for _, name := range algorithms.Names() {
				t.Run(fmt.Sprintf("%s/%s/%g", name, kind, scale), func(t *testing.T) {
					pool, err := algorithms.NewPool(contexts, arms, dim, x)
					if err != nil {
						t.Fatal(err)
					}
					lat := &experiments.Latent{Arms: arms, F: f}
					prob := &experiments.Problem{Pool: pool, Oracle: &experiments.BradleyTerry{Latent: lat, Rng: rand.New(rand.NewPCG(3, 4))}, Evaluator: lat}
					cfg := algorithms.Default()
					cfg.Width, cfg.RetrainEvery = 8, 5
					spec := experiments.Spec{Algorithm: name, Config: cfg, T: 30, Every: 30, Seed: 1}
					if _, err := experiments.RunProblem(context.Background(), spec, prob, nil); err != nil {
						t.Fatal(err)
					}
				})
			}
		}
	}
}
