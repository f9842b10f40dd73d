package experiments

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
// naming its flag, so that one problem has one spelling (and one cache key).
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
		{ProblemSpec{Name: "cube"}, "problem: unknown problem"},
		{ProblemSpec{Name: "square", Dim: 20, Arms: 10, Contexts: 300, Theta: "sphere", Holdout: 5}, "holdout: not used by -problem square"},
		{ProblemSpec{Name: "square", Dim: 20, Arms: 10, Contexts: 300, Theta: "sphere", Pool: "p"}, "pool: not used by -problem square"},
		{ProblemSpec{Name: "sine", Dim: 20, Arms: 10, Contexts: 300, Theta: "sphere", Data: "x"}, "data: not used by -problem sine"},
		{ProblemSpec{Name: "cems", Dim: 5}, "d: not used by -problem cems"},
		{ProblemSpec{Name: "cems", Theta: "sphere"}, "theta: not used by -problem cems"},
		{ProblemSpec{Name: "cems", Scale: 2}, "scale: not used by -problem cems"},
		{ProblemSpec{Name: "cems", Pool: "p.csv"}, "pool: not used by -problem cems"},
		{ProblemSpec{Name: "cems", Holdout: -1}, "holdout: must be ≥ 0"},
		{ProblemSpec{Name: "shuttle", Contexts: -3}, "contexts: must be ≥ 0"},
		{ProblemSpec{Name: "shuttle", Scale: -1}, "scale: must be a positive number"},
		{ProblemSpec{Name: "shuttle", Arms: 7}, "K: not used by -problem shuttle"},
		{ProblemSpec{Name: "pool"}, "pool: -problem pool needs -pool FILE"},
		{ProblemSpec{Name: "pool", Pool: "p.csv", Contexts: 10}, "contexts: not used by -problem pool"},
		{ProblemSpec{Name: "pool", Pool: "p.csv", Holdout: 10}, "holdout: not used by -problem pool"},
		{ProblemSpec{Name: "pool", Pool: "p.csv", Answers: "a.csv", Missing: "guess"}, "missing: unknown rule"},
		{ProblemSpec{Name: "pool", Pool: "p.csv", Missing: "coin"}, "missing: only used with -answers"},
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

// TestProblemSpecData: -data reads a folder by content hash, and errors name
// the folder and file.
func TestProblemSpecData(t *testing.T) {
	shipped, err := ProblemSpec{Name: "cems"}.Build(4)
	if err != nil {
		t.Fatal(err)
	}
	if spec, err := (ProblemSpec{Name: "cems"}).Resolve(); err != nil || spec.DataSHA != "" {
		t.Errorf("shipped data: Resolve = %+v, %v; want no hash", spec, err)
	}
	// A copy of the shipped folder gives the same problem.
	spec, err := ProblemSpec{Name: "cems", Data: "data"}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if len(spec.DataSHA) != 64 {
		t.Errorf("DataSHA = %q", spec.DataSHA)
	}
	fromDir, err := spec.Build(4)
	if err != nil {
		t.Fatal(err)
	}
	if len(fromDir.Pool.X) != len(shipped.Pool.X) || fromDir.Pool.X[100] != shipped.Pool.X[100] {
		t.Error("the data folder gives another problem than the shipped data")
	}
	spec.DataSHA = strings.Repeat("0", 64)
	if _, err := spec.Build(4); err == nil || !strings.Contains(err.Error(), "have changed") {
		t.Errorf("stale data hash: error %v", err)
	}

	dir := t.TempDir()
	if _, err := (ProblemSpec{Name: "shuttle", Data: dir}).Build(1); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "shuttle", "shuttle.csv")) {
		t.Errorf("missing shuttle file: error %v, want it to name the path", err)
	}
	// A malformed file is located inside the folder.
	for _, f := range []string{"CEMSChoice_subjects.csv", "CEMSChoice_items.csv", "CEMSChoice_pairs.csv"} {
		b, err := os.ReadFile(filepath.Join("data", "cems", f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "CEMSChoice_items.csv" {
			b = []byte(strings.Replace(string(b), `"finance","other"`, `"finance","nordic"`, 1))
		}
		if err := os.MkdirAll(filepath.Join(dir, "cems"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "cems", f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := filepath.Join(dir, "cems", "CEMSChoice_items.csv") + " line 5, column 3 (location)"
	if _, err := (ProblemSpec{Name: "cems", Data: dir}).Build(1); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("malformed items file: error %v, want prefix %q", err, want)
	}
}
