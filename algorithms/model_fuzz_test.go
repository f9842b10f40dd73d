package algorithms

import (
	"bytes"
	"math"
	"testing"
)

// FuzzReadModel: a model file never panics the reader; an accepted model is
// valid (a registered algorithm, finite parameters within MaxModelValue)
// and writes back to a file that reads equal. Run with
// "go test -fuzz FuzzReadModel ./algorithms".
func FuzzReadModel(f *testing.F) {
	for _, s := range []string{
		`{"format": "nadb-model", "version": 1, "algorithm": "random", "kind": "linear", "input_dim": 2, "pool_sha256": "", "seed": 1, "theta": [0.5, -1], "offset": 0}`,
		`{"format": "nadb-model", "version": 1, "algorithm": "neural-adb-ucb", "kind": "mlp", "input_dim": 1, "pool_sha256": "", "seed": 1, "mlp": {"width": 1, "depth": 1, "bias": false, "zero": false}, "theta": [1, 1], "offset": 0}`,
		`{"format": "nadb-model", "version": 1, "algorithm": "random", "kind": "linear", "input_dim": 1, "pool_sha256": "", "seed": 1, "theta": [null], "offset": 0}`,
		`{"format": "nadb-model", "version": 1, "algorithm": "random", "kind": "linear", "input_dim": 1, "pool_sha256": "", "seed": 1, "theta": [1e308], "offset": 0}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		m, err := ReadModel(bytes.NewReader(in), "m.json", "")
		if err != nil {
			return
		}
		if _, err := Lookup(m.Algorithm); err != nil {
			t.Fatalf("accepted an unregistered algorithm %q", m.Algorithm)
		}
		for _, v := range append([]float64{m.Offset}, m.Theta...) {
			if !(math.Abs(v) <= MaxModelValue) {
				t.Fatalf("accepted a parameter %v", v)
			}
		}
		var b bytes.Buffer
		if err := m.Write(&b); err != nil {
			t.Fatalf("an accepted model does not write: %v", err)
		}
		again, err := ReadModel(&b, "again.json", "")
		if err != nil {
			t.Fatalf("a written model does not read back: %v", err)
		}
		if again.Algorithm != m.Algorithm || len(again.Theta) != len(m.Theta) {
			t.Fatalf("round trip changed the model")
		}
	})
}
