package algorithms

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// sameOffer reports how a and b differ on pool p: in their context lists
// (nil and empty are different offers) or in a pair they allow.
func sameOffer(p *Pool, a, b Offer) error {
	if (a.Contexts == nil) != (b.Contexts == nil) || !slices.Equal(a.Contexts, b.Contexts) {
		return fmt.Errorf("contexts %v, want %v", a.Contexts, b.Contexts)
	}
	if (a.Allowed == nil) != (b.Allowed == nil) {
		return fmt.Errorf("Allowed set %v, want %v", a.Allowed != nil, b.Allowed != nil)
	}
	for c := range p.Contexts {
		for x := range p.Arms {
			for y := range p.Arms {
				if a.Allows(c, x, y) != b.Allows(c, x, y) {
					return fmt.Errorf("pair (%d, %d) of context %d: allowed %v, want %v", x, y, c, a.Allows(c, x, y), b.Allows(c, x, y))
				}
			}
		}
	}
	return nil
}

// TestBatchOfferMatchesWithout: after every Add, a BatchOffer's offer is the
// offer Without gives for the whole batch so far (same context list, same
// pairs), on full and restricted base offers, with repeated and reversed
// queries and contexts that run out of pairs; offers returned earlier do not
// change.
func TestBatchOfferMatchesWithout(t *testing.T) {
	for _, K := range []int{2, 3, 5} {
		p, err := NewPool(7, K, 1, make([]float64, 7*K))
		if err != nil {
			t.Fatal(err)
		}
		bases := map[string]Offer{
			"full":       {},
			"contexts":   {Contexts: []int{0, 2, 3, 6}},
			"restricted": {Contexts: []int{1, 2, 4, 5}, Allowed: func(c, a, b int) bool { return c != 2 || min(a, b) == 0 }},
		}
		for name, base := range bases {
			t.Run(fmt.Sprintf("K=%d/%s", K, name), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(K), 1))
				bo := NewBatchOffer(p, base)
				var qs []Query
				var earlier []Offer
				for step := range 40 {
					want := base.Without(p, qs)
					got := bo.Offer()
					if err := sameOffer(p, got, want); err != nil {
						t.Fatalf("after %d queries: %v", len(qs), err)
					}
					for i, o := range earlier {
						if err := sameOffer(p, o, base.Without(p, qs[:i])); err != nil {
							t.Fatalf("the offer after %d queries changed after %d: %v", i, len(qs), err)
						}
					}
					earlier = append(earlier, got)
					if len(want.ContextList(p, nil)) == 0 {
						break
					}
					var q Query
					if step%7 == 6 && len(qs) > 0 { // a repeat, reversed
						r := qs[rng.IntN(len(qs))]
						q = Query{Context: r.Context, Arm1: r.Arm2, Arm2: r.Arm1}
					} else {
						q = want.RandomQuery(p, rng)
					}
					qs = append(qs, q)
					bo.Add(q)
					if bo.Len() != len(qs) {
						t.Fatalf("Len %d, want %d", bo.Len(), len(qs))
					}
				}
			})
		}
	}
}

// selectBatchPerQuery is SelectBatch as it was first written: each query
// chosen on base.Without(p, the batch so far), recomputed from the whole
// batch. SelectBatch must return the same batch.
func selectBatchPerQuery(c *Collector, l Learner, p *Pool, o Offer, k int) []Query {
	var qs []Query
	for len(qs) < k {
		oi := o.Without(p, qs)
		if oi.Contexts != nil && len(oi.Contexts) == 0 {
			break
		}
		q := c.Select(l, p, oi)
		qs = append(qs, q)
		if pd, ok := l.(Pender); ok {
			pd.Pend(q)
		}
	}
	return qs
}

// TestSelectBatchSamePerQuery: for every registered learner (the Penders
// among them update their uncertainty with each pending query) under its
// own rule, and for two learners under every collect rule, SelectBatch
// returns the batch of the per-query path — the same duels in the same
// order — after some answers, with a batch that exhausts contexts, and then
// the same next batch after the answers to the first.
func TestSelectBatchSamePerQuery(t *testing.T) {
	const C, K, d = 9, 3, 3
	p, _ := rounded32(t, 4, C, K, d)
	theta := []float64{1, -1, 0.5}
	for _, name := range Names() {
		for _, rule := range Collects {
			if rule != CollectOwn && name != "random-nn" && name != "neural-adb-ucb" {
				continue
			}
			t.Run(name+"/"+string(rule), func(t *testing.T) {
				cfg := Default()
				cfg.RetrainEvery = 8
				a, b := mustNew(t, name, p, cfg, 7), mustNew(t, name, p, cfg, 7)
				ca, cb := NewCollector(rule, 7), NewCollector(rule, 7)
				rng := rand.New(rand.NewPCG(7, 2))
				for i := range 10 {
					q := Query{Context: i % C, Arm1: i % K, Arm2: (i + 1) % K}
					y := btAnswer(p, theta, q, rng)
					a.Observe(q, y)
					b.Observe(q, y)
				}
				for round := range 2 {
					want := selectBatchPerQuery(ca, a, p, Offer{}, 14)
					got := cb.SelectBatch(b, p, Offer{}, 14)
					if !slices.Equal(got, want) {
						t.Fatalf("batch %d: %v, per query %v", round, got, want)
					}
					for _, q := range want {
						y := btAnswer(p, theta, q, rng)
						a.Observe(q, y)
						b.Observe(q, y)
					}
				}
				if pa, pb := a.Policy(nil), b.Policy(nil); !slices.Equal(pa, pb) {
					t.Fatalf("policies differ: %v, per query %v", pb, pa)
				}
			})
		}
	}
}
