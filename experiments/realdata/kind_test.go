package realdata

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/experiments"
)

// TestProblemSpecData: -data reads a folder by content hash, and errors name
// the folder and file.
func TestProblemSpecData(t *testing.T) {
	shipped, err := experiments.ProblemSpec{Name: "cems"}.Build(4)
	if err != nil {
		t.Fatal(err)
	}
	if spec, err := (experiments.ProblemSpec{Name: "cems"}).Resolve(); err != nil || spec.DataSHA != "" {
		t.Errorf("shipped data: Resolve = %+v, %v; want no hash", spec, err)
	}
	// A copy of the shipped folder gives the same problem.
	spec, err := experiments.ProblemSpec{Name: "cems", Data: "data"}.Resolve()
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
	if !fromDir.Pool.Equal(shipped.Pool) {
		t.Error("the data folder gives another problem than the shipped data")
	}
	spec.DataSHA = strings.Repeat("0", 64)
	if _, err := spec.Build(4); err == nil || !strings.Contains(err.Error(), "have changed") {
		t.Errorf("stale data hash: error %v", err)
	}

	dir := t.TempDir()
	if _, err := (experiments.ProblemSpec{Name: "shuttle", Data: dir}).Build(1); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "shuttle", "shuttle.csv")) {
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
	if _, err := (experiments.ProblemSpec{Name: "cems", Data: dir}).Build(1); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("malformed items file: error %v, want prefix %q", err, want)
	}
}
