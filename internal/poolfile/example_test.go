package poolfile_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/neural-adb/nadb/internal/poolfile"
)

// Two users (contexts) rating three dishes (arms), with two features per
// (user, dish) and some recorded answers.
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
	pf, err := poolfile.ReadPool(strings.NewReader(poolCSV), "pool.csv")
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
	fmt.Printf("%d pairs without an answer, the first: %s\n", n, pf.Describe(first.Context, first.Arm1, first.Arm2))
	// Output:
	// 2 contexts × 3 arms, features [spicy sweet]
	// empirical Copeland scores: [1.5 0.5 1 0.5 2 0.5]
	// 2 pairs without an answer, the first: context "ann", arms "curry" and "soup"
}
