package algorithms

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSubsample: with M at least the pool's contexts the wrapped learner
// makes the same queries and policy as the learner; with M = 3 every query
// is valid, the same for the same seed, and spread over the pool.
func TestSubsample(t *testing.T) {
	p, theta := testPool(t, 12, 40, 4, 3, 3)
	cfg := Default()
	cfg.RetrainEvery = 10
	for _, name := range []string{"neural-adb-ucb", "apo", "random-nn", "neural-adb-plus"} {
		run := func(m int) ([]Query, []int) {
			c := cfg
			c.Consider = m // New wraps the learner in a Subsample
			l := mustNew(t, name, p, c, 4)
			rng := rand.New(rand.NewPCG(4, 1))
			qs := SelectBatch(l, p, Offer{}, 5)
			for range 40 {
				q := l.Select(Offer{})
				if err := q.Validate(p); err != nil {
					t.Fatalf("%s, M = %d: %v", name, m, err)
				}
				qs = append(qs, q)
				l.Observe(q, btAnswer(p, theta, q, rng))
			}
			return qs, l.Policy(nil)
		}
		q0, p0 := run(0)
		if q, pol := run(40); !slices.Equal(q, q0) || !slices.Equal(pol, p0) {
			t.Errorf("%s: M = 40 behaves differently from the learner", name)
		}
		q3, _ := run(3)
		if again, _ := run(3); !slices.Equal(again, q3) {
			t.Errorf("%s: M = 3 is not deterministic", name)
		}
		ctxs := map[int]bool{}
		for _, q := range q3 {
			ctxs[q.Context] = true
		}
		if len(ctxs) < 10 {
			t.Errorf("%s: M = 3 asked %d distinct contexts in %d queries", name, len(ctxs), len(q3))
		}
	}
}
