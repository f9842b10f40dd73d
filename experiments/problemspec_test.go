package experiments_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	. "github.com/neural-adb/nadb/experiments"
	_ "github.com/neural-adb/nadb/experiments/pool"
	"github.com/neural-adb/nadb/experiments/realdata"
)

// TestProblemSpecJSON: synthetic specs keep their JSON (and so their cache
// keys) as before the real-data fields existed; fields a problem does not use
// are left out.
func TestProblemSpecJSON(t *testing.T) {
	for _, tc := range []struct {
		p    ProblemSpec
		want string
	}{
		{DefaultProblem(), `{"problem":"square","d":20,"K":10,"contexts":300,"theta":"sphere"}`},
		{ProblemSpec{Name: "cems"}, `{"problem":"cems"}`},
		{ProblemSpec{Name: "shuttle", Contexts: 500, Holdout: 100, Scale: 3, Data: "d", DataSHA: "ab"},
			`{"problem":"shuttle","contexts":500,"holdout":100,"scale":3,"data":"d","data_sha256":"ab"}`},
		{ProblemSpec{Name: "pool", Pool: "p.csv", PoolSHA: "01", Answers: "a.csv", AnswersSHA: "02", Missing: "error"},
			`{"problem":"pool","pool":"p.csv","pool_sha256":"01","answers":"a.csv","answers_sha256":"02","missing":"error"}`},
		// Holdout became a float64: whole counts marshal as they did as an int.
		{ProblemSpec{Name: "pool", Pool: "p.csv", Holdout: 0.25}, `{"problem":"pool","holdout":0.25,"pool":"p.csv"}`},
	} {
		b, err := json.Marshal(tc.p)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.want {
			t.Errorf("JSON %s, want %s", b, tc.want)
		}
	}
}

// TestProblemSpecValidate: a field the problem does not use is an error
// naming it, so that one problem has one spelling (and one cache key).
func TestProblemSpecValidate(t *testing.T) {
	for _, tc := range []struct {
		p    ProblemSpec
		want string // "" for valid
	}{
		{DefaultProblem(), ""},
		{ProblemSpec{Name: "cems"}, ""},
		{ProblemSpec{Name: "cems", Contexts: 100, Holdout: 50, Data: "x"}, ""},
		{ProblemSpec{Name: "shuttle", Contexts: 100, Holdout: 50, Scale: 1}, ""},
		{ProblemSpec{Name: "pool", Pool: "p.csv"}, ""},
		{ProblemSpec{Name: "pool", Pool: "p.csv", Answers: "a.csv", Missing: "error"}, ""},
		{ProblemSpec{Name: "cube"}, "experiments: unknown problem"},
		{ProblemSpec{Name: "square", Dim: 20, Arms: 10, Contexts: 300, Theta: "sphere", Holdout: 5}, "experiments: holdout is not used by problem square"},
		{ProblemSpec{Name: "square", Dim: 20, Arms: 10, Contexts: 300, Theta: "sphere", Pool: "p"}, "experiments: pool is not used by problem square"},
		{ProblemSpec{Name: "sine", Dim: 20, Arms: 10, Contexts: 300, Theta: "sphere", Data: "x"}, "experiments: data is not used by problem sine"},
		{ProblemSpec{Name: "cems", Dim: 5}, "experiments: d is not used by problem cems"},
		{ProblemSpec{Name: "cems", Theta: "sphere"}, "experiments: theta is not used by problem cems"},
		{ProblemSpec{Name: "cems", Scale: 2}, "experiments: scale is not used by problem cems"},
		{ProblemSpec{Name: "cems", Pool: "p.csv"}, "experiments: pool is not used by problem cems"},
		{ProblemSpec{Name: "cems", Holdout: -1}, "experiments: holdout: -1 is negative"},
		{ProblemSpec{Name: "cems", Holdout: math.NaN()}, "experiments: holdout: NaN is not a number of contexts"},
		{ProblemSpec{Name: "shuttle", Holdout: 2.5}, "experiments: holdout: 2.5 is neither a fraction in (0, 1) nor a whole count"},
		{ProblemSpec{Name: "cems", Holdout: 0.25, Missing: "coin"}, ""},
		{ProblemSpec{Name: "cems", Missing: "guess"}, "realdata: missing: unknown missing-answer rule"},
		{ProblemSpec{Name: "shuttle", Missing: "coin"}, "experiments: missing is not used by problem shuttle"},
		{ProblemSpec{Name: "shuttle", Contexts: -3}, "realdata: contexts: must be ≥ 0"},
		{ProblemSpec{Name: "shuttle", Scale: -1}, "realdata: scale: must be a positive number"},
		{ProblemSpec{Name: "shuttle", Arms: 7}, "experiments: K is not used by problem shuttle"},
		{ProblemSpec{Name: "pool"}, "pool: no pool file"},
		{ProblemSpec{Name: "pool", Pool: "p.csv", Contexts: 10}, "experiments: contexts is not used by problem pool"},
		{ProblemSpec{Name: "pool", Pool: "p.csv", Holdout: 10}, ""},
		{ProblemSpec{Name: "pool", Pool: "p.csv", Holdout: 0.2}, ""},
		{ProblemSpec{Name: "pool", Pool: "p.csv", Holdout: math.Inf(1)}, "experiments: holdout: +Inf is not a number of contexts"},
		{ProblemSpec{Name: "pool", Pool: "p.csv", Holdout: -0.5}, "experiments: holdout: -0.5 is negative"},
		{ProblemSpec{Name: "pool", Pool: "p.csv", Answers: "a.csv", Missing: "guess"}, "pool: missing: unknown missing-answer rule"},
		{ProblemSpec{Name: "pool", Pool: "p.csv", Missing: "coin"}, "pool: missing: the missing-answer rule only applies"},
	} {
		err := tc.p.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: unexpected error %v", tc.p, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%+v: error %v, want prefix %q", tc.p, err, tc.want)
		}
	}
}

// TestResolveCanonical: explicit defaults and omitted ones give one key.
func TestResolveCanonical(t *testing.T) {
	for _, pair := range [][2]ProblemSpec{
		{{Name: "shuttle"}, {Name: "shuttle", Contexts: realdata.DefaultShuttleContexts, Holdout: realdata.DefaultShuttleHoldout, Scale: realdata.DefaultShuttleScale}},
		{{Name: "cems"}, {Name: "cems", Holdout: realdata.DefaultCEMSHoldout, Missing: MissingMask}},
		{{Name: "pool", Pool: "testdata/golden/apo.csv", Answers: "testdata/golden/apo.csv"}, {Name: "pool", Pool: "testdata/golden/apo.csv", Answers: "testdata/golden/apo.csv", Missing: MissingMask}},
	} {
		a, err := pair[0].Resolve()
		if err != nil {
			t.Fatal(err)
		}
		b, err := pair[1].Resolve()
		if err != nil {
			t.Fatal(err)
		}
		if a != b {
			t.Errorf("%+v and %+v resolve differently: %+v vs %+v", pair[0], pair[1], a, b)
		}
	}
}
