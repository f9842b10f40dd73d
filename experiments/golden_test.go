package experiments

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
)

var update = flag.Bool("update", false, "rewrite the golden run files under testdata/golden")

// TestGoldenRuns pins the exact output of a short run of every registered
// algorithm on every synthetic function. The cache reuses results by the hash
// of their configuration, not of the code, so a change that alters any number
// must bump CacheVersion: this test is what notices such a change.
//
// The files hold amd64 results with GOAMD64=v1 (no fused multiply–add); other
// architectures fuse a*b+c and differ in the last bits, so the test runs on
// amd64 only (determinism on one machine is checked by TestDeterminism).
func TestGoldenRuns(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skipf("golden files are amd64 results; this is %s", runtime.GOARCH)
	}
	cfg := algorithms.Default()
	cfg.Width = 8
	for _, name := range algorithms.Names() {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			for _, fn := range []string{"square", "sine"} {
				spec := Spec{Algorithm: name, Problem: ProblemSpec{Name: fn, Dim: 3, Arms: 4, Contexts: 12, Theta: "sphere"}, Config: cfg, T: 80, Every: 20, Seed: 7}
				res, err := Run(context.Background(), spec, nil)
				if err != nil {
					t.Fatal(err)
				}
				for i := range res.Checkpoints {
					res.Checkpoints[i].Elapsed = 0
				}
				out.WriteString("# " + fn + "\n")
				if err := WriteCSV(&out, res); err != nil {
					t.Fatal(err)
				}
			}
			path := filepath.Join("testdata", "golden", name+".csv")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (new algorithm? pin its results: go test ./experiments -run 'GoldenRuns/^%s$' -update, and commit %s)", err, name, path)
			}
			if !bytes.Equal(want, out.Bytes()) {
				t.Fatalf("%s: results differ from %s.\nIf the change is intended, bump experiments.CacheVersion (cached runs are stale) and run\n  go test ./experiments -run GoldenRuns -update\ngot:\n%s", name, path, out.String())
			}
		})
	}
}
