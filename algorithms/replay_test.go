package algorithms

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestReplay: between BeginReplay and EndReplay the neural model retrains
// on the doubling schedule (and once at the end), the linear MLE once at the
// end, to the minimiser the online schedule reaches; every learner is
// usable after a replay, and Replayers outside a replay keep the online
// schedule.
func TestReplay(t *testing.T) {
	p, theta := testPool(t, 11, 30, 5, 4, 3)
	qs, ys := randomDuels(p, theta, 100, rand.New(rand.NewPCG(11, 1)))
	cfg := Default()
	cfg.RetrainEvery = 10
	feed := func(l Learner, replay bool) {
		if replay {
			BeginReplay(l)
		}
		for i, q := range qs {
			l.Observe(q, ys[i])
		}
		if replay {
			EndReplay(l)
		}
	}
	for _, name := range Names() {
		l := mustNew(t, name, p, cfg, 3)
		feed(l, true)
		if q := l.Select(Offer{}); q.Validate(p) != nil || len(l.Policy(nil)) != p.Contexts {
			t.Errorf("%s: after a replay, query %+v", name, q)
		}
	}
	online, replayed := mustNew(t, "random-nn", p, cfg, 3), mustNew(t, "random-nn", p, cfg, 3)
	feed(online, false)
	feed(replayed, true)
	if n := online.(*RandomDuels).model.(*NeuralModel).Retrains(); n != 10 {
		t.Errorf("online: %d retrains, want 10", n)
	}
	if n := replayed.(*RandomDuels).model.(*NeuralModel).Retrains(); n != 5 { // at 10, 20, 40, 80 and the end
		t.Errorf("replayed: %d retrains, want 5", n)
	}
	// The row scores a retrain left stale are the network's when read.
	nm := replayed.(*RandomDuels).model.(*NeuralModel)
	fresh := ScoreRows(nil, nm, p, 0, p.Rows(), nil)
	for n, s := range nm.RowScores() {
		if math.Float64bits(s) != math.Float64bits(fresh[n]) || fresh[n] == 0 {
			t.Fatalf("after a replay row %d scores %v, the network %v", n, s, fresh[n])
		}
	}
	cfg.MLEIters = 50
	lo, lr := mustNew(t, "random", p, cfg, 3), mustNew(t, "random", p, cfg, 3)
	feed(lo, false)
	feed(lr, true)
	to, tr := lo.(*RandomDuels).model.(*LinearBT).Theta, lr.(*RandomDuels).model.(*LinearBT).Theta
	for i := range to {
		if math.Abs(to[i]-tr[i]) > 1e-9*math.Max(1, math.Abs(to[i])) {
			t.Errorf("linear θ after a replay %v, online %v", tr, to)
			break
		}
	}
	// After the replay the online schedule is back.
	n := replayed.(*RandomDuels).model.(*NeuralModel).Retrains()
	for i := range 10 {
		replayed.Observe(qs[i], ys[i])
	}
	if got := replayed.(*RandomDuels).model.(*NeuralModel).Retrains(); got != n+1 {
		t.Errorf("after the replay: %d retrains for 10 answers, want 1", got-n)
	}
}

// TestReplayEndRetrains: a replay ends with a model trained on every answer
// it replayed, whatever their number: after 19 answers (fewer than
// RetrainEvery) the scores are the trained network's, not all zero, and
// each answer after the last RetrainEvery·2^k (21, 38, 39 answers) changes
// them; the same holds through Subsample (-consider). For the neural model
// the replay of n ≤ 2·RetrainEvery answers is the online schedule plus one
// retrain at the end, bit for bit.
func TestReplayEndRetrains(t *testing.T) {
	p, theta := testPool(t, 12, 30, 5, 4, 3)
	qs, ys := randomDuels(p, theta, 39, rand.New(rand.NewPCG(12, 1)))
	cfg := Default()
	cfg.RetrainEvery = 20
	replayed := func(name string, cfg Config, n int) []float64 {
		l := mustNew(t, name, p, cfg, 3)
		BeginReplay(l)
		for i := range n {
			l.Observe(qs[i], ys[i])
		}
		EndReplay(l)
		s, ok := l.(Scorer)
		if !ok {
			t.Fatalf("%s is no Scorer", name)
		}
		return ScoreRows(nil, s, p, 0, p.Rows(), nil)
	}
	same := func(a, b []float64) bool {
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
				return false
			}
		}
		return true
	}
	check := func(label, name string, cfg Config) {
		s19 := replayed(name, cfg, 19)
		if same(s19, make([]float64, len(s19))) {
			t.Errorf("%s: after replaying 19 answers every score is 0 (untrained)", label)
		}
		ns := []int{21, 38, 39}
		ss := make([][]float64, len(ns))
		for i, n := range ns {
			ss[i] = replayed(name, cfg, n)
		}
		for i := range ns {
			for j := i + 1; j < len(ns); j++ {
				if same(ss[i], ss[j]) {
					t.Errorf("%s: replaying %d and %d answers gives the same scores", label, ns[i], ns[j])
				}
			}
		}
	}
	for _, name := range Names() {
		check(name, name, cfg)
	}
	sub := cfg
	sub.Consider = 5
	for _, name := range []string{"random-nn", "neural-adb-plus", "neural-adb-target"} {
		if _, ok := mustNew(t, name, p, sub, 3).(*Subsample); !ok {
			t.Fatalf("%s with Consider %d is not wrapped in Subsample", name, sub.Consider)
		}
		check(name+" (Subsample)", name, sub)
	}

	for _, n := range []int{19, 25, 39} {
		online := mustNew(t, "random-nn", p, cfg, 3)
		for i := range n {
			online.Observe(qs[i], ys[i])
		}
		online.(*RandomDuels).model.(*NeuralModel).Retrain()
		want := ScoreRows(nil, online.(Scorer), p, 0, p.Rows(), nil)
		if got := replayed("random-nn", cfg, n); !same(got, want) {
			t.Errorf("random-nn: replaying %d answers differs from the online schedule plus a final retrain", n)
		}
	}
}

// randomDuels draws n queries of uniformly random contexts and distinct
// arms of a pool of 30 contexts × 5 arms, with their Bradley–Terry answers
// under θ.
func randomDuels(p *Pool, theta []float64, n int, rng *rand.Rand) ([]Query, []Feedback) {
	var qs []Query
	var ys []Feedback
	for range n {
		c, a := rng.IntN(30), rng.IntN(5)
		b := (a + 1 + rng.IntN(4)) % 5
		q := Query{Context: c, Arm1: a, Arm2: b}
		qs, ys = append(qs, q), append(ys, btAnswer(p, theta, q, rng))
	}
	return qs, ys
}
