package algorithms

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// offerRecorder is a learner that records the offers it is given and asks
// the first allowed pair of the first offered context.
type offerRecorder struct {
	pool   *Pool
	offers []Offer
}

func (r *offerRecorder) Select(o Offer) Query {
	r.offers = append(r.offers, o)
	c := o.ContextList(r.pool, nil)[0]
	for a := range r.pool.Arms {
		for b := range r.pool.Arms {
			if o.Allows(c, a, b) {
				return Query{Context: c, Arm1: a, Arm2: b}
			}
		}
	}
	panic("no allowed pair")
}
func (r *offerRecorder) Observe(Query, Feedback) {}
func (r *offerRecorder) Policy(dst []int) []int  { return make([]int, r.pool.Contexts) }

func collectPool(t *testing.T) *Pool {
	t.Helper()
	p, err := NewPool(4, 3, 1, make([]float64, 12))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCollectKeepsJSON(t *testing.T) {
	js := func(c Config) string {
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	before := js(Default())
	cfg := Default()
	if err := cfg.Set("collect", "own"); err != nil {
		t.Fatal(err)
	}
	if got := js(cfg); got != before {
		t.Errorf("collect=own changes the JSON (and every cache key): %s", got)
	}
	if err := cfg.Set("collect", "passive"); err != nil {
		t.Fatal(err)
	}
	if got := js(cfg); !strings.Contains(got, `"collect":"passive"`) {
		t.Errorf("collect=passive not in the JSON: %s", got)
	}
	if err := cfg.Set("collect", "random"); err == nil || !strings.Contains(err.Error(), "passive") {
		t.Errorf("collect=random: error %v, want one listing the valid names", err)
	}
}

func TestCollectorOwnIsTheLearner(t *testing.T) {
	p := collectPool(t)
	if NewCollector(CollectOwn, 1) != nil || NewCollector("", 1) != nil {
		t.Fatal("NewCollector(own) is not nil")
	}
	l := &offerRecorder{pool: p}
	o := Offer{Contexts: []int{2, 3}}
	var c *Collector
	if q := c.Select(l, p, o); q.Context != 2 || len(l.offers) != 1 || len(l.offers[0].Contexts) != 2 {
		t.Fatalf("own rule: query %v after offers %v; want the learner's choice on the whole offer", q, l.offers)
	}
}

// TestCollectorPassiveIsUniform: the passive rule never asks the learner and
// draws the offered contexts, and the allowed ordered pairs within each,
// uniformly (within 5 standard errors).
func TestCollectorPassiveIsUniform(t *testing.T) {
	p := collectPool(t)
	allowed := func(c, a, b int) bool { return c != 1 || (a != 2 && b != 2) } // context 1 lacks arm 2
	o := Offer{Contexts: []int{0, 1, 3}, Allowed: allowed}
	l := &offerRecorder{pool: p}
	col := NewCollector(CollectPassive, 7)
	const n = 60000
	ctx := map[int]int{}
	pairs := map[Query]int{}
	for range n {
		q := col.Select(l, p, o)
		if err := o.Check(p, q); err != nil {
			t.Fatal(err)
		}
		ctx[q.Context]++
		pairs[q]++
	}
	if len(l.offers) != 0 {
		t.Fatalf("the passive rule called the learner's Select %d times", len(l.offers))
	}
	within := func(what string, got int, prob float64) {
		want := n * prob
		if sd := math.Sqrt(n * prob * (1 - prob)); math.Abs(float64(got)-want) > 5*sd {
			t.Errorf("%s: %d draws, want %.0f ± %.0f", what, got, want, 5*sd)
		}
	}
	for _, c := range o.Contexts {
		within("context", ctx[c], 1.0/3)
	}
	if len(pairs) != 6+2+6 {
		t.Fatalf("%d distinct ordered pairs drawn, want 14", len(pairs))
	}
	for q, k := range pairs {
		per := 6.0
		if q.Context == 1 {
			per = 2
		}
		within("pair", k, 1/3.0/per)
	}
}

// TestCollectorRandomContext: the learner chooses the pair within one
// offered context drawn by the collector, under the round's pair mask.
func TestCollectorRandomContext(t *testing.T) {
	p := collectPool(t)
	allowed := func(c, a, b int) bool { return a+b != 1 }
	o := Offer{Contexts: []int{1, 2}, Allowed: allowed}
	l := &offerRecorder{pool: p}
	col := NewCollector(CollectRandomContext, 3)
	seen := map[int]bool{}
	for range 200 {
		q := col.Select(l, p, o)
		last := l.offers[len(l.offers)-1]
		if len(last.Contexts) != 1 || last.Contexts[0] != q.Context || last.Allowed == nil || last.Allows(q.Context, 0, 1) {
			t.Fatalf("the learner was offered %v (mask kept: %v) for query %v", last.Contexts, last.Allowed != nil, q)
		}
		seen[q.Context] = true
	}
	if !seen[1] || !seen[2] || len(seen) != 2 {
		t.Fatalf("contexts drawn %v, want both offered ones", seen)
	}
}

// TestCollectorBatchDistinct: a passive batch is k distinct queries (distinct
// unordered pairs) of the offer, and a batch larger than the offer stops when
// it runs out.
func TestCollectorBatchDistinct(t *testing.T) {
	p := collectPool(t)
	l := &offerRecorder{pool: p}
	col := NewCollector(CollectPassive, 5)
	qs := col.SelectBatch(l, p, Offer{Contexts: []int{0, 2}}, 100)
	if len(qs) != 2*3 {
		t.Fatalf("batch of %d queries from an offer of 6 unordered pairs", len(qs))
	}
	seen := map[[3]int]bool{}
	for _, q := range qs {
		k := [3]int{q.Context, min(q.Arm1, q.Arm2), max(q.Arm1, q.Arm2)}
		if seen[k] {
			t.Fatalf("batch repeats %v", q)
		}
		seen[k] = true
	}
}
