package algorithms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestEnsembleModelRoundTrip: the models of neural-adb-target and
// neural-adb-plus, saved and read back after online answers, a replay
// (BeginReplay … EndReplay) and more online answers, score the pool and
// unseen rows (some with non-finite or huge features) bit for bit as the
// learner does and give its policy, under both objectives, on a dense pool
// and on a mostly-zero one (the sparse first layer of neural-adb-target).
func TestEnsembleModelRoundTrip(t *testing.T) {
	dense, denseTheta := testPool(t, 6, 30, 4, 5, 2)
	sparse, sparseUtil := targetPool(t, 40, 4, 3, 5)
	pools := []struct {
		name   string
		p      *Pool
		answer func(q Query, rng *rand.Rand) Feedback
	}{
		{"dense", dense, func(q Query, rng *rand.Rand) Feedback { return btAnswer(dense, denseTheta, q, rng) }},
		{"sparse", sparse, func(q Query, rng *rand.Rand) Feedback {
			u := sparseUtil[sparse.Row(q.Context, q.Arm1)] - sparseUtil[sparse.Row(q.Context, q.Arm2)]
			if rng.Float64() < sigmoidTest(u) {
				return Arm1Won
			}
			return Arm2Won
		}},
	}
	rules := map[string]map[EnsembleRule]int{}
	withNet := map[string]int{}
	for _, pc := range pools {
		p := pc.p
		unseen := make([]float64, 12*p.Dim)
		urng := rand.New(rand.NewPCG(9, 9))
		for i := range unseen {
			if urng.IntN(3) > 0 { // mostly zeros, as the sparse pool
				unseen[i] = 4*urng.Float64() - 2
			}
		}
		unseen[3], unseen[p.Dim+1], unseen[2*p.Dim] = math.Inf(1), math.NaN(), 1e300
		for _, name := range []string{"neural-adb-target", "neural-adb-plus"} {
			for _, obj := range []Objective{ObjectivePredict, ObjectivePolicy} {
				cfg := Default()
				cfg.Width, cfg.RetrainEvery, cfg.Objective = 16, 5, obj
				env := Env{Pool: p, Config: cfg, Seed: 4}
				l := mustNew(t, name, p, cfg, env.Seed)
				rng := rand.New(rand.NewPCG(5, 5))
				at := func(stage string) string { return fmt.Sprintf("%s %s %s pool, %s", name, obj, pc.name, stage) }
				check := func(stage string) {
					m := checkEnsembleRoundTrip(t, l, name, env, [][]float64{unseen}, at(stage))
					if m == nil {
						return
					}
					if rules[name] == nil {
						rules[name] = map[EnsembleRule]int{}
					}
					rules[name][m.Ensemble.Rule]++
					for _, mb := range m.Ensemble.Members {
						if len(mb.Theta) > 0 {
							withNet[name]++
						}
					}
				}
				check("0 answers")
				for range 12 {
					q := l.Select(Offer{})
					l.Observe(q, pc.answer(q, rng))
				}
				check("12 online answers")
				BeginReplay(l)
				for range 50 {
					q := Offer{}.RandomQuery(p, rng)
					l.Observe(q, pc.answer(q, rng))
				}
				EndReplay(l)
				check("a replay of 50 answers")
				for range 9 {
					q := l.Select(Offer{})
					l.Observe(q, pc.answer(q, rng))
				}
				check("9 more online answers")
			}
		}
	}
	// The checks above must have met every rule and trained networks.
	for name, want := range map[string][]EnsembleRule{
		"neural-adb-target": {EnsembleTarget},
		"neural-adb-plus":   {EnsemblePlusBest, EnsemblePlusAverage},
	} {
		for _, r := range want {
			if rules[name][r] == 0 {
				t.Errorf("%s: no model of rule %q was checked (%v)", name, r, rules[name])
			}
		}
		if withNet[name] == 0 {
			t.Errorf("%s: no member with a network was checked", name)
		}
	}
}

// checkEnsembleRoundTrip saves the model of l, reads it back and compares
// its scores (pool rows, pool blocks, the rows of extra) and policy with the
// learner's; it returns the model read back.
func checkEnsembleRoundTrip(t *testing.T, l Learner, name string, env Env, extra [][]float64, at string) *Model {
	t.Helper()
	p := env.Pool
	m, err := Snapshot(l, name, env, testPoolSHA)
	if err != nil {
		t.Errorf("%s: %v", at, err)
		return nil
	}
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Errorf("%s: %v", at, err)
		return nil
	}
	text := buf.String()
	back, err := ReadModel(&buf, "m.json", testPoolSHA)
	if err != nil {
		t.Errorf("%s: %v", at, err)
		return nil
	}
	var again bytes.Buffer
	if err := back.Write(&again); err != nil || again.String() != text {
		t.Errorf("%s: the model read back writes differently (%v)", at, err)
	}
	sc, loaded := l.(Scorer), back.Scorer()
	same := func(what string, got, want []float64) {
		t.Helper()
		if len(got) != len(want) {
			t.Errorf("%s: %s: %d scores loaded, %d in the learner", at, what, len(got), len(want))
			return
		}
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Errorf("%s: %s row %d scores %v loaded, %v in the learner", at, what, i, got[i], want[i])
				return
			}
		}
	}
	all := p.RowsTo(nil, 0, p.Rows())
	same("pool", loaded.Score(nil, all), sc.Score(nil, all))
	same("pool blocks", ScoreRows(nil, loaded, p, 0, p.Rows(), nil), ScoreRows(nil, sc, p, 0, p.Rows(), nil))
	for _, x := range extra {
		same("unseen", loaded.Score(nil, x), sc.Score(nil, x))
	}
	if got, want := back.Policy(nil, p), l.Policy(nil); !slices.Equal(got, want) {
		t.Errorf("%s: loaded policy %v, learner's %v", at, got, want)
	}
	return back
}

// TestEnsembleModelRefuses: a malformed ensemble is refused with an error
// that names the field.
func TestEnsembleModelRefuses(t *testing.T) {
	m := &Model{
		Format: ModelFormat, Version: ModelVersion, Algorithm: "neural-adb-target", Kind: ModelEnsemble, InputDim: 2, Seed: 1,
		MLP: &MLPShape{Width: 2, Depth: 1}, Theta: []float64{},
		Ensemble: &Ensemble{Rule: EnsembleTarget, Scale: 0.5, Members: []EnsembleMember{
			{Weight: 0.75, U: []float64{1, -1}, Theta: []float64{0.5, -0.25, 1, 2, -1, 0.125}},
			{Weight: 0.25, U: []float64{0, 2}},
		}},
	}
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	good := compact.String()
	if _, err := ReadModel(strings.NewReader(good), "m.json", ""); err != nil {
		t.Fatalf("a valid ensemble is refused: %v", err)
	}
	for _, tc := range []struct{ name, old, new, want string }{
		{"bad rule", `"rule":"target"`, `"rule":"median"`, `ensemble.rule is "median"`},
		{"zero scale", `"scale":0.5`, `"scale":0`, "ensemble.scale is 0"},
		{"negative scale", `"scale":0.5`, `"scale":-1`, "ensemble.scale is -1"},
		{"null scale", `"scale":0.5`, `"scale":null`, "ensemble.scale is null"},
		{"absurd weight", `"weight":0.75`, `"weight":1e300`, "ensemble.members[0].weight is 1e+300"},
		{"null weight", `"weight":0.25`, `"weight":null`, "ensemble.members[1].weight is null"},
		{"short u", `"u":[0,2]`, `"u":[0]`, "ensemble.members[1].u has 1 values, want input_dim = 2"},
		{"null in u", `"u":[0,2]`, `"u":[null,2]`, "ensemble.members[1].u[0] is null"},
		{"absurd u", `"u":[0,2]`, `"u":[-2e15,2]`, "ensemble.members[1].u[0] is -2e+15"},
		{"short theta", `"theta":[0.5,`, `"theta":[`, "ensemble.members[0].theta has 5 values, want 6"},
		{"null in theta", `"theta":[0.5,`, `"theta":[null,`, "ensemble.members[0].theta[0] is null"},
		{"absurd theta", `"theta":[0.5,`, `"theta":[1e16,`, "ensemble.members[0].theta[0] is 1e+16"},
		{"top-level theta", `"theta":[],`, `"theta":[1,2],`, `theta has 2 values; kind "ensemble" keeps`},
		{"offset", `"offset":0`, `"offset":1`, `offset is 1; kind "ensemble" has none`},
		{"bias", `"bias":false`, `"bias":true`, "mlp bias is true"},
		{"zero", `"zero":false`, `"zero":true`, "mlp zero is true"},
		{"ensemble of kind mlp", `"kind":"ensemble"`, `"kind":"mlp"`, `kind "mlp" has an "ensemble"`},
		{"plus-best with two members", `"rule":"target"`, `"rule":"plus-best"`, `ensemble.rule "plus-best" takes one member of weight 1`},
	} {
		if !strings.Contains(good, tc.old) {
			t.Fatalf("%s: the model file has no %q:\n%s", tc.name, tc.old, good)
		}
		_, err := ReadModel(strings.NewReader(strings.Replace(good, tc.old, tc.new, 1)), "m.json", "")
		switch {
		case err == nil:
			t.Errorf("%s: accepted", tc.name)
		case !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "m.json"):
			t.Errorf("%s: error %q does not name the file and %q", tc.name, err, tc.want)
		}
	}
	// No members, and no "ensemble" object at all.
	m.Ensemble.Members = nil
	if err := m.Validate(); err == nil || !strings.Contains(err.Error(), "ensemble.members has 0 members") {
		t.Errorf("an ensemble without members: %v", err)
	}
	m.Ensemble = nil
	if err := m.Validate(); err == nil || !strings.Contains(err.Error(), `needs an "ensemble" object`) {
		t.Errorf("kind ensemble without an ensemble: %v", err)
	}
}
