package algorithms_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/conformance"
)

// Run Neural-ADB (UCB) by name on a small Square problem and read off its
// policy. The pool is what the learner sees; the oracle and the evaluator hold
// the latent rewards.
func Example() {
	prob, err := experiments.Synthetic{Function: "square", Dim: 5, Arms: 4, Contexts: 20, Theta: "sphere"}.New(1)
	if err != nil {
		panic(err)
	}
	cfg := algorithms.Default()
	cfg.Width = 16
	l, err := algorithms.New("neural-adb-ucb", algorithms.Env{Pool: prob.Pool, Config: cfg, Seed: 1})
	if err != nil {
		panic(err)
	}
	for range 200 {
		q := l.Select(algorithms.Offer{})
		l.Observe(q, prob.Oracle.Answer(q))
	}
	policy := l.Policy(nil)
	mean := 0.0
	for _, g := range prob.Evaluator.Gaps(nil, policy) {
		mean += g / float64(len(policy))
	}
	random := prob.Evaluator.(*experiments.Latent).RandomPolicyGap()
	fmt.Printf("mean gap %.2f after 200 duels (random policy: %.2f)\n", mean, random)
	// Output: mean gap 1.29 after 200 duels (random policy: 5.90)
}

// winCount is a complete custom learner in a few lines: uniformly random
// duels, and a policy that picks the arm with the most wins in each context.
type winCount struct {
	pool *algorithms.Pool
	wins []int // per pool row (algorithms.Pool.Row)
	rng  *rand.Rand
}

// newWinCount is its factory: all randomness from the learner's own stream.
func newWinCount(env algorithms.Env) (algorithms.Learner, error) {
	return &winCount{pool: env.Pool, rng: algorithms.NewStream(env.Seed, algorithms.FirstExternalStream)}, nil
}

// Select draws an offered context and an allowed pair uniformly: the Offer's
// helpers keep a learner within what the experimenter can answer.
func (w *winCount) Select(o algorithms.Offer) algorithms.Query {
	c := o.RandomContext(w.pool, w.rng)
	a, b := o.RandomPair(c, w.pool.Arms, w.rng)
	return algorithms.Query{Context: c, Arm1: a, Arm2: b}
}

// grow follows the pool: in the fresh-context reading (nadb run -candidates)
// it gains a committed context every round, with rows numbered after the
// earlier ones.
func (w *winCount) grow() {
	if n := w.pool.Rows(); len(w.wins) < n {
		w.wins = append(w.wins, make([]int, n-len(w.wins))...)
	}
}

func (w *winCount) Observe(q algorithms.Query, y algorithms.Feedback) {
	w.grow()
	win, _ := q.WinnerLoser(y)
	w.wins[w.pool.Row(q.Context, win)]++
}

func (w *winCount) Policy(dst []int) []int {
	w.grow()
	scores := make([]float64, len(w.wins))
	for i, n := range w.wins {
		scores[i] = float64(n)
	}
	prio := make([]int32, len(w.wins)) // ties go to the lowest arm
	return algorithms.PolicyFromScores(dst, w.pool.Contexts, w.pool.Arms, scores, prio)
}

// Score (algorithms.Scorer) scores feature rows the learner may never have
// seen (held-out users, the fresh-context reading's evaluation pool). Win
// counts say nothing about features, so every row scores 0: a constant
// model. A learner with a model of the features scores with it
// (algorithms.NewLinearBT, algorithms.NeuralModel).
func (w *winCount) Score(dst, x []float64) []float64 {
	n := len(x) / w.pool.Dim
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	clear(dst)
	return dst
}

// Adding a baseline: implement Select, Observe, Policy and Score, register a
// name, and the learner runs everywhere a name is accepted (nadb run -algo,
// figures, checks). Its conformance test is one line in package
// algorithms_test (TestWinCountConformance).
func ExampleRegister() {
	algorithms.Register("win-count", "example: random duels, most wins per context", newWinCount)
	spec := experiments.Spec{Algorithm: "win-count", Problem: experiments.ProblemSpec{Name: "linear", Dim: 3, Arms: 4, Contexts: 20, Theta: "sphere"},
		Config: algorithms.Default(), T: 2000, Every: 2000, Seed: 1}
	res, err := experiments.Run(context.Background(), spec, nil)
	if err != nil {
		panic(err)
	}
	last := res.Checkpoints[len(res.Checkpoints)-1]
	fmt.Printf("t=%d distinct contexts=%d mean gap below 0.5: %v\n", last.T, last.Distinct, last.MeanGap < 0.5)
	// Output: t=2000 distinct contexts=20 mean gap below 0.5: true
}

// TestWinCountConformance: ExampleRegister's learner passes the conformance
// suite, the fresh-context reading included.
func TestWinCountConformance(t *testing.T) {
	conformance.Test(t, newWinCount, nil)
}
