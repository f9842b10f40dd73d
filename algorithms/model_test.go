package algorithms

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// snapshotNames are the learners that must be Snapshotters (every learner
// registered when model snapshots were added, and the two of kind
// "ensemble").
var snapshotNames = []string{
	"ae-borda", "ae-borda-nn", "ae-dpo", "apo", "neural-adb-apo",
	"neural-adb-lookahead-ts", "neural-adb-lookahead-ucb", "neural-adb-plus", "neural-adb-target",
	"neural-adb-ts", "neural-adb-ts-randctx", "neural-adb-tsctx-ts", "neural-adb-tsctx-ucb",
	"neural-adb-ucb", "neural-adb-ucb-randctx", "random", "random-nn",
}

const testPoolSHA = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// TestModelRoundTrip trains every Snapshotter on Bradley–Terry answers, saves
// its model, reads it back and checks that the loaded model scores the pool
// and unseen rows exactly as the learner does, and that its policy is the
// learner's. Before any answer, the neural models are at the mirrored
// initialisation (h ≡ 0), a case of its own.
func TestModelRoundTrip(t *testing.T) {
	p, theta := testPool(t, 5, 14, 4, 3, 2)
	cfg := Default()
	// The paper's width: at 0 answers, evaluating the mirrored θ0 leaves rounding
	// noise that only the "zero" flag removes.
	cfg.Width, cfg.RetrainEvery, cfg.Steps = 50, 6, 20
	cfg.BordaOffset = 0.25
	names := Names()
	for _, name := range snapshotNames {
		if !slices.Contains(names, name) {
			t.Errorf("%s is no longer registered; update snapshotNames", name)
		}
	}
	unseen := make([]float64, 9*p.Dim)
	urng := rand.New(rand.NewPCG(9, 9))
	for i := range unseen {
		unseen[i] = 4*urng.Float64() - 2
	}
	for _, name := range names {
		for _, answers := range []int{0, 27} {
			env := Env{Pool: p, Config: cfg, Seed: 3}
			l := mustNew(t, name, p, cfg, env.Seed)
			if _, ok := l.(Snapshotter); !ok {
				if slices.Contains(snapshotNames, name) {
					t.Errorf("%s is not a Snapshotter", name)
				}
				continue
			}
			rng := rand.New(rand.NewPCG(4, 4))
			for range answers {
				q := l.Select(Offer{})
				l.Observe(q, btAnswer(p, theta, q, rng))
			}
			m, err := Snapshot(l, name, env, testPoolSHA)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var buf bytes.Buffer
			if err := m.Write(&buf); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			back, err := ReadModel(&buf, name+".json", testPoolSHA)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if back.Algorithm != name || back.Seed != env.Seed || back.PoolSHA256 != testPoolSHA {
				t.Errorf("%s: read back algorithm %q, seed %d, pool %q", name, back.Algorithm, back.Seed, back.PoolSHA256)
			}
			sc := l.(Scorer)
			loaded := back.Scorer()
			for _, x := range [][]float64{p.RowsTo(nil, 0, p.Rows()), unseen} {
				want := sc.Score(nil, x)
				got := loaded.Score(nil, x)
				for i := range want {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Errorf("%s after %d answers: row %d scores %v loaded, %v in the learner", name, answers, i, got[i], want[i])
						break
					}
				}
			}
			if answers > 0 && slices.Max(sc.Score(nil, p.RowsTo(nil, 0, p.Rows()))) == slices.Min(sc.Score(nil, p.RowsTo(nil, 0, p.Rows()))) {
				t.Errorf("%s after %d answers: every row has the same score; the test checks nothing", name, answers)
			}
			if got, want := back.Policy(nil, p), l.Policy(nil); !slices.Equal(got, want) {
				t.Errorf("%s after %d answers: loaded policy %v, learner's %v", name, answers, got, want)
			}
		}
	}
}

// TestReadModelRefuses checks that another pool's model, another format
// version and malformed files are refused with errors that say what is wrong.
func TestReadModelRefuses(t *testing.T) {
	p, _ := testPool(t, 1, 5, 3, 2, 1)
	env := Env{Pool: p, Config: Default(), Seed: 1}
	l := mustNew(t, "random", p, env.Config, env.Seed)
	m, err := Snapshot(l, "random", env, testPoolSHA)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	other := strings.Repeat("f", 64)
	for _, tc := range []struct {
		name, text, pool string
		is               error
		want             string
	}{
		{"other pool", good, other, ErrModelPool, "export a model trained on this pool"},
		{"version 2", strings.Replace(good, `"version": 1`, `"version": 2`, 1), "", ErrModelVersion, "reads version 1"},
		{"not JSON", "context,arm\n", "", nil, "not a model file"},
		{"other format", strings.Replace(good, ModelFormat, "onnx", 1), "", nil, "not a model file"},
		{"unknown field", strings.Replace(good, `"kind"`, `"colour": 1, "kind"`, 1), "", nil, "colour"},
		{"short theta", strings.Replace(good, `"input_dim": 2`, `"input_dim": 3`, 1), "", nil, "theta has 2 values, want 3"},
		{"bad kind", strings.Replace(good, `"linear"`, `"tree"`, 1), "", nil, "kind"},
		{"mlp without shape", strings.Replace(good, `"linear"`, `"mlp"`, 1), "", nil, "mlp"},
		{"null in theta", strings.Replace(good, `"theta": [`, `"theta": [null, `, 1), "", nil, "theta[0] is null"},
		{"null offset", strings.Replace(good, `"offset": 0`, `"offset": null`, 1), "", nil, "offset is null"},
		{"absurd theta", regexp.MustCompile(`("theta": \[\s*)[^,\s]+`).ReplaceAllString(good, "${1}1e308"), "", nil, "theta[0] is 1e+308, want a finite number of at most 1e+15"},
		{"absurd offset", strings.Replace(good, `"offset": 0`, `"offset": -2e15`, 1), "", nil, "offset is -2e+15"},
		{"unregistered algorithm", strings.Replace(good, `"algorithm": "random"`, `"algorithm": "my-secret-net"`, 1), "", nil, `algorithm "my-secret-net" is not registered`},
		{"trailing data", good + "{}", "", nil, "m.json is not valid JSON: invalid character '{' after top-level value"},
		{"cut short", good[:len(good)/2], "", nil, "m.json is not valid JSON: unexpected end of JSON input"},
		{"NaN by hand", strings.Replace(good, `"offset": 0`, `"offset": NaN`, 1), "", nil, "m.json is not valid JSON: invalid character 'N' looking for beginning of value (line "},
	} {
		_, err := ReadModel(strings.NewReader(tc.text), "m.json", tc.pool)
		switch {
		case err == nil:
			t.Errorf("%s: accepted", tc.name)
		case tc.is != nil && !errors.Is(err, tc.is):
			t.Errorf("%s: error %v is not %v", tc.name, err, tc.is)
		case !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "m.json"):
			t.Errorf("%s: error %q does not name the file and %q", tc.name, err, tc.want)
		}
	}
	if _, err := ReadModel(strings.NewReader(good), "m.json", testPoolSHA); err != nil {
		t.Errorf("the model of its own pool is refused: %v", err)
	}
}
