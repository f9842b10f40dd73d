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
	rng := rand.New(rand.NewPCG(11, 1))
	var qs []Query
	var ys []Feedback
	for range 100 {
		c, a := rng.IntN(30), rng.IntN(5)
		b := (a + 1 + rng.IntN(4)) % 5
		q := Query{Context: c, Arm1: a, Arm2: b}
		qs, ys = append(qs, q), append(ys, btAnswer(p, theta, q, rng))
	}
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
