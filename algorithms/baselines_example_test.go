package algorithms_test

import (
	"context"
	"fmt"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
)

// Every baseline runs by name through the same loop. On a small problem with
// linear rewards (which every model class here contains) each one ends far
// below the mean gap of its policy at t = 0 (exact ties broken at random);
// the numbers are one seed, not a comparison.
func Example_baselines() {
	cfg := algorithms.Default()
	cfg.Width = 16
	prob := experiments.ProblemSpec{Name: "linear", Dim: 3, Arms: 4, Contexts: 20, Theta: "sphere"}
	for _, name := range []string{"random", "apo", "ae-borda", "ae-dpo", "random-nn", "neural-adb-apo", "ae-borda-nn"} {
		spec := experiments.Spec{Algorithm: name, Problem: prob, Config: cfg, T: 400, Every: 400, Seed: 1}
		res, err := experiments.Run(context.Background(), spec, nil)
		if err != nil {
			panic(err)
		}
		last := res.Checkpoints[len(res.Checkpoints)-1]
		fmt.Printf("%-15s mean gap %.3f (t = 0: %.3f)\n", name, last.MeanGap, res.Checkpoints[0].MeanGap)
	}
	// Output:
	// random          mean gap 0.000 (t = 0: 2.858)
	// apo             mean gap 0.010 (t = 0: 2.858)
	// ae-borda        mean gap 0.368 (t = 0: 2.858)
	// ae-dpo          mean gap 0.010 (t = 0: 2.858)
	// random-nn       mean gap 0.000 (t = 0: 2.858)
	// neural-adb-apo  mean gap 0.043 (t = 0: 2.858)
	// ae-borda-nn     mean gap 0.190 (t = 0: 2.858)
}
