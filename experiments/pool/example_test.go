package pool_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/pool"
	"github.com/neural-adb/nadb/internal/poolfile"
)

// A user's own problem: two users (contexts) rating three dishes (arms), with
// two features per (user, dish) and some recorded answers. The pool is what a
// learner sees; the answers are replayed when it asks, and by default only
// the recorded pairs are offered.
func ExampleNewPoolProblem() {
	poolCSV := `context,arm,spicy,sweet
ann,curry,0.9,0.1
ann,cake,0.0,1.0
ann,soup,0.3,0.2
bob,curry,0.9,0.1
bob,cake,0.0,1.0
bob,soup,0.3,0.2
`
	answers := `context,arm1,arm2,y
ann,curry,cake,1
ann,soup,cake,0.5
bob,cake,curry,1
bob,cake,soup,1
`
	pf, err := poolfile.ReadPool(strings.NewReader(poolCSV), "pool.csv")
	if err != nil {
		log.Fatal(err)
	}
	ans, err := pf.ReadAnswers(strings.NewReader(answers), "answers.csv")
	if err != nil {
		log.Fatal(err)
	}
	// The default missing-answer rule ("mask") offers only recorded pairs.
	prob, err := pool.NewPoolProblem(pf, ans, experiments.ProblemSpec{Answers: "answers.csv"}, 1)
	if err != nil {
		log.Fatal(err)
	}
	spec := experiments.Spec{Algorithm: "random", Config: algorithms.Default(), T: 20, Every: 20, Seed: 1}
	res, err := experiments.RunProblem(context.Background(), spec, prob, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("extra columns:", res.ExtraColumns)
	K := pf.Pool.Arms
	for c, id := range pf.Contexts {
		var pairs []string
		for a := range K {
			for b := a + 1; b < K; b++ {
				if prob.Offer.Allows(c, a, b) {
					pairs = append(pairs, pf.Arms[c*K+a]+"–"+pf.Arms[c*K+b])
				}
			}
		}
		fmt.Printf("pairs offered for %s: %s\n", id, strings.Join(pairs, ", "))
	}
	// Output:
	// extra columns: [answer_accuracy answer_logloss tie_share unrecorded_share]
	// pairs offered for ann: curry–cake, cake–soup
	// pairs offered for bob: curry–cake, cake–soup
}
