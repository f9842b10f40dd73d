package algorithms

import (
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/gram"
)

// twinPool returns a pool of 2·half contexts in which context c + half is a
// copy of context c, so that their pair norms tie exactly at every round
// and ArgmaxRand draws from its stream.
func twinPool(t *testing.T, half, arms, d int) *Pool {
	t.Helper()
	p, _ := testPool(t, 31, half, arms, d, 1)
	x := append(append([]float64(nil), p.RowsTo(nil, 0, p.Rows())...), p.RowsTo(nil, 0, p.Rows())...)
	twin, err := NewPool(2*half, arms, d, x)
	if err != nil {
		t.Fatal(err)
	}
	return twin
}

// eagerMaxNorm is the paper's context rule as ArgmaxRand over every offered
// context's norm, the reference for MaxNormContext.
func eagerMaxNorm(l *NeuralADB, o Offer) int {
	ctxs := o.ContextList(l.Pool, nil)
	norms := make([]float64, len(ctxs))
	for i, c := range ctxs {
		_, _, norms[i] = l.MaxPair(o, c)
	}
	return ctxs[ArgmaxRand(norms, -1, l.Rng)]
}

// TestArgmaxMaxPairMatchesEager checks that the context rule that skips
// contexts by their bound picks the same context with the same draws as
// ArgmaxRand over every norm: on a state with exact ties (twin contexts) and
// contexts behind the updates, with and without an offer that restricts
// contexts and pairs, and at every round of whole Neural-ADB runs.
func TestArgmaxMaxPairMatchesEager(t *testing.T) {
	p := twinPool(t, 15, 4, 3)
	offers := []Offer{
		{},
		{Contexts: []int{1, 3, 4, 16, 18, 19, 25}},
		{Allowed: func(c, a, b int) bool { return (a+b+c)%3 != 0 }},
	}
	t.Run("state", func(t *testing.T) {
		m, err := NewNeuralModel(Env{Pool: p, Config: Default(), Seed: 2}, true)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(3, 3))
		skipped := 0
		for round := range 200 {
			c, a := rng.IntN(p.Contexts), rng.IntN(p.Arms)
			m.Conf.Add(p.Row(c, a), p.Row(c, (a+1+rng.IntN(p.Arms-1))%p.Arms))
			if round%3 == 0 {
				m.Conf.MaxPair(rng.IntN(p.Contexts)) // some contexts current, most behind
			}
			o := offers[round%len(offers)]
			ctxs := o.ContextList(p, nil)
			seed := rng.Uint64()
			lazy, eager := rand.New(rand.NewPCG(seed, 1)), rand.New(rand.NewPCG(seed, 1))
			behind := 0
			for _, c := range ctxs {
				if _, exact := m.Conf.(staleBounder).MaxPairBound(c, nil); !exact {
					behind++
				}
			}
			got := argmaxMaxPair(m.Conf, o, ctxs, make([]float64, len(ctxs)), p.Arms, lazy)
			norms := make([]float64, len(ctxs))
			for i, c := range ctxs {
				_, _, norms[i] = maxPair(m.Conf, o, c, p.Arms)
			}
			want := ctxs[ArgmaxRand(norms, -1, eager)]
			if got != want || lazy.Uint64() != eager.Uint64() {
				t.Fatalf("round %d, offer %d: context %d, want %d (or the draws differ)", round, round%len(offers), got, want)
			}
			skipped += behind
		}
		if skipped == 0 {
			t.Fatal("no context was behind the updates when the rule ran")
		}
	})
	for _, thompson := range []bool{false, true} {
		t.Run(map[bool]string{false: "ucb-run", true: "ts-run"}[thompson], func(t *testing.T) {
			cfg := Default()
			cfg.RetrainEvery = 10
			var learners [2]*NeuralADB
			for i, rule := range []func(*NeuralADB, Offer) int{nil, eagerMaxNorm} {
				l, err := NewNeuralADB(Env{Pool: p, Config: cfg, Seed: 4}, thompson, rule)
				if err != nil {
					t.Fatal(err)
				}
				learners[i] = l
			}
			answers := rand.New(rand.NewPCG(5, 5))
			for round := range 120 {
				o := offers[round%len(offers)]
				q, want := learners[0].Select(o), learners[1].Select(o)
				if q != want {
					t.Fatalf("round %d: query %+v, eager rule %+v", round, q, want)
				}
				y := Arm1Won
				if answers.IntN(2) == 0 {
					y = Arm2Won
				}
				learners[0].Observe(q, y)
				learners[1].Observe(q, y)
			}
		})
	}
}

var _ staleBounder = (*gram.Confidence)(nil)
