package pool_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/pool"
)

// A user's own problem: two users (contexts) rating three dishes (arms), with
// two features per (user, dish) and some recorded answers. The pool is what a
// learner sees; the answers are replayed when it asks.
func ExampleReadPool() {
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
	pf, err := pool.ReadPool(strings.NewReader(poolCSV), "pool.csv")
	if err != nil {
		log.Fatal(err)
	}
	ans, err := pf.ReadAnswers(strings.NewReader(answers), "answers.csv")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d contexts × %d arms, features %v\n", pf.Pool.Contexts, pf.Pool.Arms, pf.Features)
	fmt.Println("empirical Copeland scores:", ans.Copeland())
	n, first := ans.Missing()
	fmt.Printf("%d pairs without an answer, the first: %s vs %s for %s\n", n, pf.Arms[first.Arm1], pf.Arms[first.Arm2], pf.Contexts[first.Context])

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
	// 2 contexts × 3 arms, features [spicy sweet]
	// empirical Copeland scores: [1.5 0.5 1 0.5 2 0.5]
	// 2 pairs without an answer, the first: curry vs soup for ann
	// extra columns: [answer_accuracy answer_logloss tie_share unrecorded_share]
	// pairs offered for ann: curry–cake, cake–soup
	// pairs offered for bob: curry–cake, cake–soup
}
