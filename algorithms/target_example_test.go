package algorithms_test

import (
	"fmt"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
)

// Choose the next batch of duels to label with neural-adb-target, as the
// labelling commands do: the answers collected so far are fed to Observe, and
// SelectBatch proposes distinct duels, each chosen knowing what the earlier
// ones of the batch will teach (Pender). The zero Objective aims at
// predicting the answers of new contexts; ObjectivePolicy at the pool's
// policy.
func ExampleNeuralADBTarget() {
	prob, err := experiments.Synthetic{Function: "sine", Dim: 5, Arms: 4, Contexts: 30, Theta: "sphere"}.New(1)
	if err != nil {
		panic(err)
	}
	cfg := algorithms.Default()
	cfg.Width = 16
	l, err := algorithms.New("neural-adb-target", algorithms.Env{Pool: prob.Pool, Config: cfg, Seed: 1})
	if err != nil {
		panic(err)
	}
	for range 60 { // answers collected earlier
		q := l.Select(algorithms.Offer{})
		l.Observe(q, prob.Oracle.Answer(q))
	}
	for _, q := range algorithms.SelectBatch(l, prob.Pool, algorithms.Offer{}, 3) {
		fmt.Printf("context %d: arm %d or arm %d?\n", q.Context, q.Arm1, q.Arm2)
	}
	// Output:
	// context 7: arm 2 or arm 0?
	// context 3: arm 0 or arm 2?
	// context 28: arm 0 or arm 3?
}
