package algorithms

import (
	"bytes"
	"math"
	"testing"
)

// FuzzReadModel: a model file never panics the reader; an accepted model is
// valid (a registered algorithm, finite parameters within MaxModelValue),
// scores a row without panicking, and writes back to a file that reads
// equal. Run with
// "go test -fuzz FuzzReadModel ./algorithms".
func FuzzReadModel(f *testing.F) {
	for _, s := range []string{
		`{"format": "nadb-model", "version": 1, "algorithm": "random", "kind": "linear", "input_dim": 2, "pool_sha256": "", "seed": 1, "theta": [0.5, -1], "offset": 0}`,
		`{"format": "nadb-model", "version": 1, "algorithm": "neural-adb-ucb", "kind": "mlp", "input_dim": 1, "pool_sha256": "", "seed": 1, "mlp": {"width": 1, "depth": 1, "bias": false, "zero": false}, "theta": [1, 1], "offset": 0}`,
		`{"format": "nadb-model", "version": 1, "algorithm": "random", "kind": "linear", "input_dim": 1, "pool_sha256": "", "seed": 1, "theta": [null], "offset": 0}`,
		`{"format": "nadb-model", "version": 1, "algorithm": "random", "kind": "linear", "input_dim": 1, "pool_sha256": "", "seed": 1, "theta": [1e308], "offset": 0}`,
		`{"format": "nadb-model", "version": 1, "algorithm": "neural-adb-target", "kind": "ensemble", "input_dim": 2, "pool_sha256": "", "seed": 1, "mlp": {"width": 2, "depth": 1, "bias": false, "zero": false}, "ensemble": {"rule": "target", "scale": 0.5, "members": [{"weight": 0.75, "u": [1, -1], "theta": [0.5, -0.25, 1, 2, -1, 0.125]}, {"weight": 0.25, "u": [0, 2]}]}, "theta": [], "offset": 0}`,
		`{"format": "nadb-model", "version": 1, "algorithm": "neural-adb-plus", "kind": "ensemble", "input_dim": 1, "pool_sha256": "", "seed": 1, "mlp": {"width": 2, "depth": 2, "bias": false, "zero": false}, "ensemble": {"rule": "plus-average", "scale": 2, "members": [{"weight": 1, "u": [3], "theta": [1, -1, 0.5, 0.5, 0.5, 0.5, 1, 1]}, {"weight": 0.5, "u": [null]}]}, "theta": [], "offset": 0}`,
		`{"format": "nadb-model", "version": 1, "algorithm": "neural-adb-plus", "kind": "ensemble", "input_dim": 1, "pool_sha256": "", "seed": 1, "mlp": {"width": 2, "depth": 1, "bias": false, "zero": false}, "ensemble": {"rule": "plus-best", "scale": 1e308, "members": [{"weight": 1, "u": [1]}]}, "theta": [], "offset": 0}`,
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
		params := append([]float64{m.Offset}, m.Theta...)
		if e := m.Ensemble; e != nil {
			params = append(params, e.Scale)
			for _, mb := range e.Members {
				params = append(append(append(params, mb.Weight), mb.U...), mb.Theta...)
			}
		}
		for _, v := range params {
			if !(math.Abs(v) <= MaxModelValue) {
				t.Fatalf("accepted a parameter %v", v)
			}
		}
		if m.InputDim <= 64 && len(params) <= 1<<16 {
			m.Scorer().Score(nil, make([]float64, 2*m.InputDim))
		}
		var b bytes.Buffer
		if err := m.Write(&b); err != nil {
			t.Fatalf("an accepted model does not write: %v", err)
		}
		again, err := ReadModel(&b, "again.json", "")
		if err != nil {
			t.Fatalf("a written model does not read back: %v", err)
		}
		if again.Algorithm != m.Algorithm || len(again.Theta) != len(m.Theta) || (again.Ensemble == nil) != (m.Ensemble == nil) {
			t.Fatalf("round trip changed the model")
		}
	})
}
