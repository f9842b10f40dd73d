package pool

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/internal/runtest"
	"github.com/neural-adb/nadb/internal/logistic"
	"github.com/neural-adb/nadb/internal/poolfile"
)

// TestReplay checks the replay rules: records oriented to the query, the
// records of a pair used in turn (cycling), ties and unrecorded pairs
// answered by a coin and counted.
func TestReplay(t *testing.T) {
	ans := poolfile.NewAnswers(2, 3)
	ans.Add(rec(0, 0, 1, 1))   // arm 0 beat arm 1
	ans.Add(rec(0, 1, 0, 1))   // arm 1 beat arm 0
	ans.Add(rec(0, 0, 1, 0.5)) // tie
	ans.Add(rec(1, 2, 1, 0))   // arm 1 beat arm 2
	r := NewReplay(ans, rand.New(rand.NewPCG(1, 2)))
	// The order in which the records of {0, 1} are used; answers follow it,
	// oriented to the query, cycling.
	order := r.order[ans.PairKey(0, 0, 1)]
	if got := slices.Sorted(slices.Values(order)); !slices.Equal(got, []int32{0, 1, 2}) {
		t.Fatalf("order of the records of {0,1}: %v, want a permutation of 0, 1, 2", order)
	}
	q10 := algorithms.Query{Context: 0, Arm1: 1, Arm2: 0}
	ties := 0
	for k := range 6 {
		rec := ans.List[order[k%3]]
		y := r.Answer(q10)
		switch {
		case rec.Y == 0.5:
			ties++
		case (y == algorithms.Arm1Won) != (rec.Arm1 == 1 && rec.Y == 1 || rec.Arm1 == 0 && rec.Y == 0):
			t.Errorf("query %d of (1,0) used record %+v and answered %v", k, rec, y)
		}
	}
	if r.Ties != ties || ties != 2 {
		t.Errorf("Ties = %d, want 2 (the tie record used twice in 6 queries)", r.Ties)
	}
	for range 3 {
		if y := r.Answer(algorithms.Query{Context: 1, Arm1: 1, Arm2: 2}); y != algorithms.Arm1Won {
			t.Errorf("single record always gives the same answer: got %v", y)
		}
	}
	wins := 0
	for range 400 {
		if r.Answer(algorithms.Query{Context: 1, Arm1: 0, Arm2: 2}) == algorithms.Arm1Won {
			wins++
		}
	}
	if r.Unrecorded != 400 || r.Asked != 409 {
		t.Errorf("Unrecorded = %d, Asked = %d; want 400, 409", r.Unrecorded, r.Asked)
	}
	if wins < 160 || wins > 240 { // fair coin: 200 ± 5 sd
		t.Errorf("unrecorded pair won %d of 400 times by arm1, want a fair coin", wins)
	}
	tie, unrec := r.Shares()
	if tie != 2.0/409 || unrec != 400.0/409 {
		t.Errorf("shares = %v, %v", tie, unrec)
	}
}

// TestReplayOrderSeeded: the order in which a pair's records are used is a
// permutation drawn from the seed: the same seed gives the same answers
// whatever else the learner asked in between, and across seeds the orders
// differ (they are not the file order).
func TestReplayOrderSeeded(t *testing.T) {
	ans := poolfile.NewAnswers(2, 3)
	for i := range 5 { // five distinguishable records of {0, 1}: who won, in which orientation
		ans.Add(rec(0, i%2, 1-i%2, float64(i/2%2)))
	}
	ans.Add(rec(0, 1, 2, 1))
	ans.Add(rec(0, 2, 1, 1))
	ans.Add(rec(1, 0, 2, 0))
	used := func(seed uint64, interleave bool) []int32 {
		r := NewReplay(ans, rand.New(rand.NewPCG(seed, experiments.StreamFeedback)))
		k := ans.PairKey(0, 0, 1)
		var seq []int32
		for range 10 {
			if interleave {
				r.Answer(algorithms.Query{Context: 0, Arm1: 2, Arm2: 1})
				r.Answer(algorithms.Query{Context: 1, Arm1: 0, Arm2: 2})
			}
			seq = append(seq, r.order[k][r.next[k]%5])
			r.Answer(algorithms.Query{Context: 0, Arm1: 0, Arm2: 1})
		}
		return seq
	}
	orders := map[string]bool{}
	for seed := range uint64(20) {
		seq := used(seed, false)
		if !slices.Equal(seq[:5], seq[5:]) {
			t.Fatalf("seed %d: records used %v, want one permutation repeated", seed, seq)
		}
		if got := slices.Sorted(slices.Values(seq[:5])); !slices.Equal(got, []int32{0, 1, 2, 3, 4}) {
			t.Fatalf("seed %d: records used %v, want each of the five once per cycle", seed, seq[:5])
		}
		if again := used(seed, true); !slices.Equal(again, seq) {
			t.Errorf("seed %d: other queries in between changed the order: %v vs %v", seed, again, seq)
		}
		orders[fmt.Sprint(seq[:5])] = true
	}
	if len(orders) < 2 || (len(orders) == 1 && orders["[0 1 2 3 4]"]) {
		t.Errorf("20 seeds gave the orders %v; want seeded permutations, not the file order", orders)
	}
}

func TestPairMetrics(t *testing.T) {
	h := []float64{1, 0, 2, 2}
	recs := []poolfile.Answer{rec(0, 0, 1, 1), rec(0, 0, 1, 0), rec(1, 0, 1, 1)}
	acc, nll := PairMetrics(h, 2, recs)
	wantNLL := (math.Log1p(math.Exp(-1)) + math.Log1p(math.Exp(1)) + math.Log(2)) / 3
	if acc != 0.5 || math.Abs(nll-wantNLL) > 1e-15 {
		t.Errorf("pairMetrics = %v, %v; want 0.5, %v", acc, nll, wantNLL)
	}
	if acc, nll := PairMetrics(h, 2, nil); !math.IsNaN(acc) || !math.IsNaN(nll) {
		t.Errorf("no answers: %v, %v; want NaN", acc, nll)
	}
	if got := logistic.Softplus(-800); got != 0 || logistic.Softplus(800) != 800 {
		t.Errorf("softplus overflows: %v %v", got, logistic.Softplus(800))
	}
}

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPoolMatchesSynthetic: a synthetic instance written as a pool file with
// its utilities gives the same run, byte for byte, as the synthetic problem
// (same features, same Bradley–Terry stream).
func TestPoolMatchesSynthetic(t *testing.T) {
	ps := experiments.ProblemSpec{Name: "sine", Dim: 3, Arms: 4, Contexts: 20, Theta: "sphere"}
	prob, err := ps.Build(5)
	if err != nil {
		t.Fatal(err)
	}
	p := prob.Pool
	pf := &poolfile.PoolFile{Pool: p, Features: []string{"a", "b", "c"}, Utility: prob.Evaluator.(*experiments.Latent).F}
	for c := range p.Contexts {
		pf.Contexts = append(pf.Contexts, "ctx"+string(rune('A'+c)))
		for a := range p.Arms {
			pf.Arms = append(pf.Arms, "arm"+string(rune('0'+a)))
		}
	}
	var b bytes.Buffer
	if err := poolfile.WritePool(&b, pf); err != nil {
		t.Fatal(err)
	}
	cfg := algorithms.Default()
	cfg.Width = 10
	spec := experiments.Spec{Algorithm: "neural-adb-ts", Problem: ps, Config: cfg, T: 60, Every: 20, Seed: 5}
	want := runtest.CSV(t, spec)
	spec.Problem = experiments.ProblemSpec{Name: "pool", Pool: writeTemp(t, "pool.csv", b.String())}
	if got := runtest.CSV(t, spec); got != want {
		t.Errorf("pool run differs from the synthetic run:\n%s\nvs\n%s", got, want)
	}
}

// TestPoolProblem covers the combinations of utility and answers files.
func TestPoolProblem(t *testing.T) {
	noUtil := "context,arm,x\nu1,a,1\nu1,b,0\nu2,a,0\nu2,b,1\n"
	answers := "context,arm1,arm2,y\nu1,a,b,1\n"
	pool := writeTemp(t, "pool.csv", noUtil)
	ansFile := writeTemp(t, "ans.csv", answers)

	if _, err := (experiments.ProblemSpec{Name: "pool", Pool: pool}).Build(1); err == nil || !strings.Contains(err.Error(), "no utility column and no answers file") {
		t.Errorf("pool without utility or answers: error %v", err)
	}
	_, err := experiments.ProblemSpec{Name: "pool", Pool: pool, Answers: ansFile, Missing: "error"}.Build(1)
	if err == nil || !strings.Contains(err.Error(), `ans.csv: no recorded answer for context "u2", arms "a" and "b" (and 0 other pairs)`) {
		t.Errorf("-missing error: error %v", err)
	}
	prob, err := experiments.ProblemSpec{Name: "pool", Pool: pool, Answers: ansFile}.Build(1)
	if err != nil {
		t.Fatal(err)
	}
	// Copeland from the answers: u1: a beat b; u2: unrecorded → ½ each.
	if d := cmp.Diff([]float64{1, 0, 0.5, 0.5}, prob.Evaluator.(*evaluator).F); d != "" {
		t.Errorf("Copeland utilities (-want +got):\n%s", d)
	}
	cfg := algorithms.Default()
	cfg.Width = 4
	run := experiments.Spec{Algorithm: "neural-adb-ucb", Config: cfg, T: 10, Every: 10, Seed: 1}
	// The default rule (mask) offers only u1, whose pair has a record.
	if !slices.Equal(prob.Offer.Contexts, []int{0}) || prob.Offer.Allowed == nil {
		t.Errorf("offer %+v, want context u1 only", prob.Offer)
	}
	res, err := experiments.RunProblem(context.Background(), run, prob, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"answer_accuracy", "answer_logloss", "tie_share", "unrecorded_share"}, res.ExtraColumns); d != "" {
		t.Errorf("extra columns (-want +got):\n%s", d)
	}
	if last := res.Checkpoints[len(res.Checkpoints)-1]; res.Counts[1] != 0 || last.Extra[3] != 0 {
		t.Errorf("mask: %d duels on u2, unrecorded_share %v; want none", res.Counts[1], last.Extra[3])
	}
	// The rule coin offers every pair and counts the coins.
	prob, err = experiments.ProblemSpec{Name: "pool", Pool: pool, Answers: ansFile, Missing: "coin"}.Build(1)
	if err != nil {
		t.Fatal(err)
	}
	if !prob.Offer.Full() {
		t.Errorf("coin: offer %+v, want every pair", prob.Offer)
	}
	if res, err = experiments.RunProblem(context.Background(), run, prob, nil); err != nil {
		t.Fatal(err)
	}
	last := res.Checkpoints[len(res.Checkpoints)-1]
	if unrec := float64(res.Counts[1]) / 10; last.Extra[3] != unrec || unrec == 0 {
		t.Errorf("coin: unrecorded_share = %v, want the share of rounds on context u2 = %v (> 0)", last.Extra[3], unrec)
	}

	// A changed file is refused once its hash is recorded.
	spec, err := experiments.ProblemSpec{Name: "pool", Pool: pool, Answers: ansFile}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if spec.PoolSHA == "" || spec.AnswersSHA == "" || spec.PoolSHA == spec.AnswersSHA {
		t.Errorf("Resolve hashes: %q %q", spec.PoolSHA, spec.AnswersSHA)
	}
	if err := os.WriteFile(ansFile, []byte(answers+"u2,a,b,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := spec.Build(1); err == nil || !strings.Contains(err.Error(), "has changed since the run was specified") {
		t.Errorf("changed answers file: error %v", err)
	}
	if _, err := spec.Resolve(); err == nil {
		t.Error("Resolve accepted a changed file")
	}
	if _, err := (experiments.ProblemSpec{Name: "pool", Pool: filepath.Join(t.TempDir(), "nope.csv")}).Build(1); err == nil || !strings.Contains(err.Error(), "nope.csv") {
		t.Errorf("missing pool file: error %v", err)
	}
}

// TestPoolLearnsFromAnswers: answers generated from a linear utility, replayed,
// teach a learner to rank the pool: in-sample answer accuracy rises well above
// a coin.
func TestPoolLearnsFromAnswers(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	const contexts, arms, dim = 30, 4, 3
	var pool, ans strings.Builder
	pool.WriteString("context,arm,x1,x2,x3\n")
	ans.WriteString("context,arm1,arm2,y\n")
	theta := []float64{1, -2, 0.5}
	for c := range contexts {
		f := make([]float64, arms)
		for a := range arms {
			pool.WriteString("c" + formatFloat(float64(c)) + ",a" + formatFloat(float64(a)))
			for k := range dim {
				x := 2*rng.Float64() - 1
				f[a] += 3 * theta[k] * x
				pool.WriteString("," + formatFloat(x))
			}
			pool.WriteString("\n")
		}
		for a := range arms {
			for b := a + 1; b < arms; b++ {
				y := "0"
				if f[a] > f[b] {
					y = "1"
				}
				ans.WriteString("c" + formatFloat(float64(c)) + ",a" + formatFloat(float64(a)) + ",a" + formatFloat(float64(b)) + "," + y + "\n")
			}
		}
	}
	ps := experiments.ProblemSpec{Name: "pool", Pool: writeTemp(t, "p.csv", pool.String()), Answers: writeTemp(t, "a.csv", ans.String()), Missing: "error"}
	cfg := algorithms.Default()
	cfg.Width = 20
	res, err := experiments.Run(context.Background(), experiments.Spec{Algorithm: "neural-adb-ucb-randctx", Problem: ps, Config: cfg, T: 300, Every: 300, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	first, last := res.Checkpoints[0], res.Checkpoints[len(res.Checkpoints)-1]
	t.Logf("answer accuracy %.3f → %.3f, log-loss %.3f → %.3f, mean Copeland gap %.3f → %.3f",
		first.Extra[0], last.Extra[0], first.Extra[1], last.Extra[1], first.MeanGap, last.MeanGap)
	if acc := last.Extra[0]; !(acc > 0.85) {
		t.Errorf("answer_accuracy after 300 duels = %v (at t = 0: %v), want > 0.85", acc, first.Extra[0])
	}
	if last.Extra[3] != 0 {
		t.Errorf("unrecorded_share = %v with complete answers", last.Extra[3])
	}
	if !(last.MeanGap < 0.5*first.MeanGap) {
		t.Errorf("mean Copeland gap %v → %v, want it at least halved", first.MeanGap, last.MeanGap)
	}
}

func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func mustPool(t testing.TB, s string) *poolfile.PoolFile {
	t.Helper()
	pf, err := poolfile.ReadPool(strings.NewReader(s), "pool.csv")
	if err != nil {
		t.Fatal(err)
	}
	return pf
}

// rec is the recorded answer y to the duel (a, b) of context c.
func rec(c, a, b int, y float64) poolfile.Answer {
	return poolfile.Answer{Context: c, Arm1: a, Arm2: b, Y: y}
}
