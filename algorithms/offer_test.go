package algorithms

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func tinyPool(t *testing.T, contexts, arms, dim int, seed uint64) *Pool {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	x := make([]float64, contexts*arms*dim)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	p, err := NewPool(contexts, arms, dim, x)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOfferWithout: excluding a batch's pairs removes exactly those pairs and
// drops the contexts left without one.
func TestOfferWithout(t *testing.T) {
	p := tinyPool(t, 3, 2, 1, 1) // one pair per context
	o := Offer{}.Without(p, []Query{{Context: 1, Arm1: 1, Arm2: 0}})
	if !slices.Equal(o.Contexts, []int{0, 2}) {
		t.Fatalf("contexts %v, want [0 2]", o.Contexts)
	}
	if o.Allows(1, 0, 1) || !o.Allows(0, 0, 1) || !o.Allows(2, 1, 0) {
		t.Fatal("Without excluded the wrong pairs")
	}
}

// TestRandomPairIsUniformOverAllowed draws many pairs under a mask and checks
// that only allowed ones come out, each about equally often.
func TestRandomPairIsUniformOverAllowed(t *testing.T) {
	o := Offer{Allowed: func(c, a, b int) bool { return (a == 0) != (b == 0) }} // pairs with arm 0 only
	rng := rand.New(rand.NewPCG(2, 2))
	count := map[[2]int]int{}
	for range 6000 {
		a, b := o.RandomPair(0, 4, rng)
		if !o.Allows(0, a, b) {
			t.Fatalf("drew disallowed pair (%d, %d)", a, b)
		}
		count[[2]int{a, b}]++
	}
	if len(count) != 6 { // (0,1),(0,2),(0,3) and reversed
		t.Fatalf("drew %d distinct ordered pairs, want 6", len(count))
	}
	for pr, n := range count {
		if n < 850 || n > 1150 { // 1000 expected, sd ≈ 29
			t.Errorf("pair %v drawn %d times of 6000, want about 1000", pr, n)
		}
	}
}

// TestPendIsExact: pending a batch of queries and then observing them leaves
// Neural-ADB's confidence state exactly as observing them one by one.
func TestPendIsExact(t *testing.T) {
	p := tinyPool(t, 8, 4, 3, 3)
	cfg := Default()
	cfg.Width = 6
	mk := func() *NeuralADB {
		l, err := NewNeuralADB(Env{Pool: p, Config: cfg, Seed: 9}, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	a, b := mk(), mk()
	qs := SelectBatch(a, p, Offer{}, 5)
	ys := []Feedback{Arm1Won, Arm2Won, Arm2Won, Arm1Won, Arm2Won}
	for i, q := range qs {
		a.Observe(q, ys[i])
		b.Observe(q, ys[i])
	}
	for c := range p.Contexts {
		if !slices.Equal(a.Conf.Block(c), b.Conf.Block(c)) {
			t.Fatalf("context %d: pended and observed blocks differ", c)
		}
	}
	if a.Conf.Len() != 5 || b.Conf.Len() != 5 {
		t.Fatalf("V has %d and %d updates, want 5 each", a.Conf.Len(), b.Conf.Len())
	}
}

// TestSelectBatchStopsWhenExhausted: a batch larger than the number of
// distinct duels returns them all and stops.
func TestSelectBatchStopsWhenExhausted(t *testing.T) {
	p := tinyPool(t, 2, 3, 2, 4) // 2 contexts × 3 pairs
	l, err := New("apo", Env{Pool: p, Config: Default(), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if qs := SelectBatch(l, p, Offer{}, 10); len(qs) != 6 {
		t.Fatalf("batch of %d queries, want the 6 distinct duels", len(qs))
	}
}
