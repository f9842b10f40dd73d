package realdata

import (
	"context"
	"errors"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/pool"
	"github.com/neural-adb/nadb/experiments/realdata/data"
)

// TestCEMSData checks the parsed shipped data against the counts in its README.
func TestCEMSData(t *testing.T) {
	d, err := shippedCEMS()
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Subjects) != 303 || len(d.Items) != 6 || d.Dim() != 58 {
		t.Fatalf("%d subjects, %d items, d = %d; want 303, 6, 58", len(d.Subjects), len(d.Items), d.Dim())
	}
	if !slices.Equal(d.Items, []string{"London", "Paris", "Milano", "StGallen", "Barcelona", "Stockholm"}) {
		t.Errorf("items %v", d.Items)
	}
	ties := len(d.All.List) - len(d.All.Strict())
	if d.NA != 91 || ties != 487 || len(d.All.List) != 4545-91 {
		t.Errorf("NA %d, ties %d, records %d; want 91, 487, 4454", d.NA, ties, len(d.All.List))
	}
	if n, first := d.All.Missing(); n != 91 || d.Items[first.Arm1] != "Paris" || d.Items[first.Arm2] != "Milano" {
		t.Errorf("unrecorded pairs: %d, first %+v; want the 91 Paris–Milano NAs", n, first)
	}
	// Subject 1: other, good, good, poor, poor, no, male, yes.
	x := make([]float64, d.Dim())
	d.features(x, 0, 0) // subject 1, London (economics, other)
	want := make([]float64, 58)
	want[0] = 1
	copy(want[6:14], []float64{-1, 1, 1, -1, -1, -1, -1, 1})
	want[54], want[57] = 1, -1
	if diff := cmp.Diff(want, x); diff != "" {
		t.Errorf("features of (subject 1, London) (-want +got):\n%s", diff)
	}
	d.features(x, 0, 4) // Barcelona: block 4, management science, latin
	if x[4] != 1 || x[6+4*8] != -1 || x[6+4*8+1] != 1 || x[55] != 1 || x[57] != 1 || x[0] != 0 || x[6] != 0 {
		t.Errorf("features of (subject 1, Barcelona) = %v", x)
	}
	// Every student's Copeland scores sum to the 15 pairs.
	f := d.All.Copeland()
	for s := range 303 {
		var sum float64
		for _, v := range f[s*6 : (s+1)*6] {
			sum += v
		}
		if sum != 15 {
			t.Fatalf("subject %s: Copeland scores sum to %v, want 15", d.Subjects[s], sum)
		}
	}
}

// TestCEMSSplit: the seed draws a split of disjoint sets of the requested
// sizes; different seeds give different splits; replayed answers are the
// students' recorded ones.
func TestCEMSSplit(t *testing.T) {
	d, _ := shippedCEMS()
	prob, err := CEMS{}.New(1)
	if err != nil {
		t.Fatal(err)
	}
	setup, _ := pool.SetupOf(prob)
	if prob.Pool.Contexts != 202 || setup.Test.Pool.Contexts != 101 || prob.Pool.Dim != 58 || prob.Pool.Arms != 6 {
		t.Fatalf("pool %d×%d×%d, %d held-out students", prob.Pool.Contexts, prob.Pool.Arms, prob.Pool.Dim, setup.Test.Pool.Contexts)
	}
	// Recover which subject each context is from its answers: the pool's
	// records are the subject's, in order.
	perm := slicesPerm(1, 303)
	train := slices.Sorted(slices.Values(perm[101:]))
	test := slices.Sorted(slices.Values(perm[:101]))
	if len(intersect(train, test)) != 0 {
		t.Fatal("train and test overlap")
	}
	replay := prob.Oracle.(*pool.Replay)
	if !slices.Equal(setup.Train.Contexts, subjects(d, train)) || !slices.Equal(setup.Test.Contexts, subjects(d, test)) {
		t.Fatalf("training students %v…, held out %v…; want the split of the seed", setup.Train.Contexts[:5], setup.Test.Contexts[:5])
	}
	for c, s := range train[:20] {
		for i := range 6 {
			for j := i + 1; j < 6; j++ {
				m, ok := d.All.Wins(s, i, j)
				got := replay.Answers.Recorded(c, i, j)
				if !ok {
					if got != 0 {
						t.Fatalf("context %d (subject %s): NA pair %d-%d has %d records", c, d.Subjects[s], i, j, got)
					}
					continue
				}
				if m2, _ := replay.Answers.Wins(c, i, j); m2 != m || got != 1 {
					t.Fatalf("context %d (subject %s) pair %d-%d: replay has %v (%d records), data %v", c, d.Subjects[s], i, j, m2, got, m)
				}
				if m == 0.5 {
					continue
				}
				y := prob.Oracle.Answer(algorithms.Query{Context: c, Arm1: j, Arm2: i})
				if (y == algorithms.Arm1Won) != (m == 0) {
					t.Fatalf("context %d (subject %s): query (%d,%d) answered %v, recorded %v for %d", c, d.Subjects[s], j, i, y, m, i)
				}
			}
		}
	}
	for _, tc := range []struct {
		c           CEMS
		train, hold int
	}{{CEMS{Train: 50, Holdout: 30}, 50, 30}, {CEMS{Holdout: 0.2}, 242, 61}, {CEMS{Holdout: 1}, 302, 1}} {
		other, err := tc.c.New(2)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := pool.SetupOf(other)
		if other.Pool.Contexts != tc.train || s.Test.Pool.Contexts != tc.hold {
			t.Errorf("%+v: pool %d, held out %d; want %d, %d", tc.c, other.Pool.Contexts, s.Test.Pool.Contexts, tc.train, tc.hold)
		}
	}
	again, _ := CEMS{}.New(1)
	seed2, _ := CEMS{}.New(2)
	if !again.Pool.Equal(prob.Pool) || seed2.Pool.Equal(prob.Pool) {
		t.Error("the split is not a function of the seed")
	}
	for _, tc := range []struct {
		c     CEMS
		field string
		msg   string
	}{
		{CEMS{Train: 300}, "contexts", "300 training students and 101 held-out (holdout) exceed the 303 there are"},
		{CEMS{Train: 250, Holdout: 60}, "contexts", "250 training students and 60 held-out (holdout) exceed the 303 there are"},
		{CEMS{Holdout: 303}, "holdout", "303 held-out students of 303 leave no training student"},
		{CEMS{Holdout: 400}, "holdout", "400 held-out students, but there are only 303"},
		{CEMS{Holdout: 0.999}, "holdout", "303 held-out students of 303 leave no training student"},
		{CEMS{Holdout: 0.001}, "holdout", "0.001 of 303 students rounds to no held-out student"},
	} {
		_, err := tc.c.New(1)
		var fe *experiments.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || fe.Msg != tc.msg || !strings.HasPrefix(err.Error(), "experiments: "+tc.field+": ") {
			t.Errorf("%+v: error %v, want field %s: %s", tc.c, err, tc.field, tc.msg)
		}
	}
}

func subjects(d *cemsData, idx []int) []string {
	var out []string
	for _, s := range idx {
		out = append(out, d.Subjects[s])
	}
	return out
}

func slicesPerm(seed uint64, n int) []int {
	return rand.New(rand.NewPCG(seed, experiments.StreamProblem)).Perm(n)
}

func intersect(a, b []int) []int {
	var out []int
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// constScorer is a learner stub whose model scores every row alike.
type constScorer struct{ algorithms.Learner }

func (constScorer) Score(dst, x []float64) []float64 { return make([]float64, len(x)/58) }

// column returns the value of the named extra column.
func column(t *testing.T, cols []string, vals []float64, name string) float64 {
	t.Helper()
	i := slices.Index(cols, name)
	if i < 0 {
		t.Fatalf("no column %s in %v", name, cols)
	}
	return vals[i]
}

// TestCEMSMetrics: a constant model scores accuracy ½, log-loss log 2 and the
// mean over held-out students of max − mean Copeland score.
func TestCEMSMetrics(t *testing.T) {
	prob, err := CEMS{}.New(3)
	if err != nil {
		t.Fatal(err)
	}
	ev := prob.Evaluator.(experiments.ExtraEvaluator)
	cols := ev.ExtraColumns()
	want := []string{"answer_accuracy", "answer_logloss", "test_accuracy", "test_logloss", "test_copeland_gap", "tie_share", "unrecorded_share"}
	if !slices.Equal(cols, want) {
		t.Fatalf("columns %v, want %v", cols, want)
	}
	setup, _ := pool.SetupOf(prob)
	cop := setup.Test.Answers.Copeland()
	gap := 0.0
	for s := range 101 {
		gap += slices.Max(cop[s*6:(s+1)*6]) - 15.0/6
	}
	gap /= 101
	got := ev.Extra(nil, constScorer{})
	for _, c := range []struct {
		name string
		want float64
	}{{"answer_accuracy", 0.5}, {"answer_logloss", math.Ln2}, {"test_accuracy", 0.5}, {"test_logloss", math.Ln2}, {"test_copeland_gap", gap}} {
		if v := column(t, cols, got, c.name); math.Abs(v-c.want) > 1e-12 {
			t.Errorf("constant model: %s = %v, want %v", c.name, v, c.want)
		}
	}
	if v := column(t, cols, got, "tie_share"); !math.IsNaN(v) {
		t.Errorf("tie_share before any duel = %v, want NaN", v)
	}
	// Non-scorers get NaN.
	if got := ev.Extra(nil, nil); !math.IsNaN(got[0]) || !math.IsNaN(got[4]) {
		t.Errorf("no scorer: %v", got)
	}
}

// TestCEMSLearns: at reduced scale a learner trained on replayed answers
// predicts held-out students' answers better than a coin, and the schools it
// picks for them are better than a constant model's. The linear
// Bradley–Terry learner is used: on all the data its 5-fold accuracy is 0.686
// and log-loss 0.587 (data README).
func TestCEMSLearns(t *testing.T) {
	spec := experiments.Spec{Algorithm: "random", Problem: experiments.ProblemSpec{Name: "cems"}, Config: algorithms.Default(), T: 400, Every: 400, Seed: 1}
	res, err := experiments.Run(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	first, last := res.Checkpoints[0], res.Checkpoints[len(res.Checkpoints)-1]
	v := func(cp experiments.Checkpoint, name string) float64 {
		return column(t, res.ExtraColumns, cp.Extra, name)
	}
	acc, nll, gap0, gap := v(last, "test_accuracy"), v(last, "test_logloss"), v(first, "test_copeland_gap"), v(last, "test_copeland_gap")
	t.Logf("test accuracy %.3f, log-loss %.3f, Copeland gap %.3f → %.3f, coins: ties %.3f, no record %.3f",
		acc, nll, gap0, gap, v(last, "tie_share"), v(last, "unrecorded_share"))
	if !(acc > 0.62) || !(nll < 0.66) || !(gap < 0.7*gap0) {
		t.Errorf("after 400 duels: test accuracy %v (want > 0.62), log-loss %v (want < 0.66), Copeland gap %v (want < 0.7 × %v)", acc, nll, gap, gap0)
	}
	if tie := v(last, "tie_share"); !(tie > 0.03 && tie < 0.2) {
		t.Errorf("tie_share %v; ~11%% of the recorded answers are ties", tie)
	}
	if unrec := v(last, "unrecorded_share"); unrec != 0 {
		t.Errorf("unrecorded_share %v under the default rule mask, want 0", unrec)
	}
}

// TestCEMSDataErrors: a user's data folder is checked value by value, and
// errors name the folder, file, line and column.
func TestCEMSDataErrors(t *testing.T) {
	base := fstest.MapFS{}
	for _, f := range data.CEMS {
		b, err := data.Shipped().(interface{ ReadFile(string) ([]byte, error) }).ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		base[f] = &fstest.MapFile{Data: b}
	}
	edit := func(file, old, new string) fstest.MapFS {
		m := fstest.MapFS{}
		maps.Copy(m, base)
		s := string(base[file].Data)
		if !strings.Contains(s, old) {
			t.Fatalf("%s has no %q", file, old)
		}
		m[file] = &fstest.MapFile{Data: []byte(strings.Replace(s, old, new, 1))}
		return m
	}
	subj, items, pairs := data.CEMS[0], data.CEMS[1], data.CEMS[2]
	for _, tc := range []struct {
		fsys fstest.MapFS
		want string
	}{
		{edit(subj, `1,"other","good"`, `1,"other","fluent"`), `cems/CEMSChoice_subjects.csv line 2, column 3 (english): unknown level "fluent"`},
		{edit(subj, `"gender"`, `"sex"`), `cems/CEMSChoice_subjects.csv line 1: missing column "gender"`},
		{edit(subj, "\n2,", "\n1,"), `cems/CEMSChoice_subjects.csv line 3, column 1 (subject): subject "1" repeats line 2`},
		{edit(items, `"finance","other"`, `"finance","nordic"`), `cems/CEMSChoice_items.csv line 5, column 3 (location): unknown level "nordic"`},
		{edit(pairs, `1,"London","Paris",1`, `1,"London","Paris",2`), `cems/CEMSChoice_pairs.csv line 2, column 4 (pref): pref "2"`},
		{edit(pairs, `1,"London","Paris",1`, `1,"London","Pariss",1`), `cems/CEMSChoice_pairs.csv line 2, column 3 (item2): unknown item "Pariss"`},
		{edit(pairs, `1,"London","Paris",1`, `999,"London","Paris",1`), `cems/CEMSChoice_pairs.csv line 2, column 1 (subject): unknown subject "999"`},
		{edit(pairs, `1,"London","Milano",1`, `1,"Paris","London",1`), `cems/CEMSChoice_pairs.csv line 3: subject "1" compares Paris and London again (first at line 2)`},
		{edit(pairs, `1,"London","Paris",1`, `1,"London","London",1`), `cems/CEMSChoice_pairs.csv line 2, column 3 (item2): item2 is item1`},
		{edit(pairs, `1,"London","Paris",1`, `1,"London","Paris"`), `cems/CEMSChoice_pairs.csv line 2: 3 fields`},
	} {
		_, err := CEMS{FS: tc.fsys}.New(1)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("error = %v\nwant prefix %q", err, tc.want)
		}
	}
}

// TestCEMSMissingRules: by default the unrecorded Paris–Milano pairs (NA) of
// the training students are not offered; "coin" offers every pair; "error"
// refuses the data, naming a student and the pair.
func TestCEMSMissingRules(t *testing.T) {
	d, _ := shippedCEMS()
	paris, milano := slices.Index(d.Items, "Paris"), slices.Index(d.Items, "Milano")
	prob, err := CEMS{}.New(1)
	if err != nil {
		t.Fatal(err)
	}
	setup, _ := pool.SetupOf(prob)
	o, na := prob.Offer, 0
	if len(o.Contexts) != 202 {
		t.Errorf("%d students on offer, want all 202 training students", len(o.Contexts))
	}
	for c := range prob.Pool.Contexts {
		for i := range 6 {
			for j := i + 1; j < 6; j++ {
				recorded := setup.Train.Answers.Recorded(c, i, j) > 0
				if o.Allows(c, i, j) != recorded || o.Allows(c, j, i) != recorded {
					t.Fatalf("student %s, pair %d–%d: offered %v, recorded %v", setup.Train.Contexts[c], i, j, o.Allows(c, i, j), recorded)
				}
				if !recorded {
					if i != paris || j != milano {
						t.Fatalf("student %s: pair %d–%d unrecorded; only Paris–Milano has NAs", setup.Train.Contexts[c], i, j)
					}
					na++
				}
			}
		}
	}
	if na == 0 || na > 91 {
		t.Errorf("%d training students without a Paris–Milano answer; want some of the 91", na)
	}
	if coin, err := (CEMS{Missing: experiments.MissingCoin}).New(1); err != nil || !coin.Offer.Full() {
		t.Errorf("coin: offer %+v, error %v; want every pair", coin.Offer, err)
	}
	_, err = CEMS{Missing: experiments.MissingError}.New(1)
	if err == nil || !strings.Contains(err.Error(), `arms "Paris" and "Milano"`) || !strings.Contains(err.Error(), "missing-answer rule \"error\"") {
		t.Errorf("error: %v", err)
	}
}
