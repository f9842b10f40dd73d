package theory_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/neural-adb/nadb/theory"
)

// The smallest counterexample to Theorem 1 as stated: in d = 1, one round at
// z = 1 followed by 27 rounds at z = 0.
func ExampleTracker() {
	tr := theory.NewTracker(1, 1) // V_0 = λ = 1
	tr.Add([]float64{1})
	for range 27 {
		tr.Add([]float64{0})
	}
	h := theory.Hypotheses{
		L:        1,
		SigmaMax: mat.NewSymDense(1, []float64{1}), // max_s Σ_s: the least valid Σmax
		Support:  theory.Ball{R: 1},
	}
	q, err := tr.Quantities(h, 0.05)
	if err != nil {
		panic(err)
	}
	fmt.Printf("T = %d, λmin(V_T) = %g, max over Z = %.4f\n", q.T, q.LambdaMinV, q.MaxNorm)
	for _, c := range theory.Claims {
		b := q.Bounds[c]
		v := "undefined"
		if b.Defined {
			v = fmt.Sprintf("%.4f", b.Value)
		}
		fmt.Printf("%-21s L/G_T = %-9s violated: %v\n", c, v, q.Violated(c))
	}
	// Output:
	// T = 28, λmin(V_T) = 2, max over Z = 0.7071
	// literal               L/G_T = 0.6908    violated: true
	// literal-realised-C    L/G_T = 0.2080    violated: true
	// literal-L2I           L/G_T = 0.6908    violated: true
	// literal-unconditional L/G_T = 0.6908    violated: true
	// repaired              L/G_T = undefined violated: false
}

// A counterexample no degenerate reading explains: z_1 = 1, then z_s = 1/√2
// for ever (d = 1, λ = L = 1, δ = 0.05) violates Theorem 1 as stated from
// T = 102 on.
func ExampleFirstViolation() {
	ce, err := theory.FirstViolation(theory.SpikeThenConstant{L: 1, C: 0.7071067811865476}, theory.Literal, 0, 1000, 1, 0.05)
	if err != nil {
		panic(err)
	}
	fmt.Printf("violated from T = %d: max norm %.5f > bound %.5f\n", ce.Q.T, ce.Q.MaxNorm, ce.Q.Bounds[theory.Literal].Value)
	// Output:
	// violated from T = 102: max norm 0.13801 > bound 0.13794
}

// CheckTheorem1 on an i.i.d. sequence and on an adversary that stays in a
// one-dimensional subspace after visiting every axis once.
func ExampleCheckTheorem1() {
	opts := theory.Theorem1Options{
		Generators: []theory.Generator{theory.IIDIsotropic{D: 2, L: 1}, theory.AdvSubspace{D: 2, K: 1, L: 1}},
		T:          []int{128, 256, 512, 1024},
		Seeds:      10, Lambda: 1, Delta: 0.05, Level: 0.95, SlopePoints: 3,
	}
	rep, err := theory.CheckTheorem1(context.Background(), opts)
	if err != nil {
		panic(err)
	}
	for _, g := range rep.Generators {
		for _, cs := range g.Claims {
			if cs.Claim == theory.Literal || cs.Claim == theory.Repaired {
				fmt.Printf("%-25s %-9s %s\n", g.Name, cs.Claim, cs.Verdict)
			}
		}
	}
	// Output:
	// iid-isotropic             literal   holds
	// iid-isotropic             repaired  holds
	// adversarial-subspace-k1   literal   fails
	// adversarial-subspace-k1   repaired  vacuous
}
