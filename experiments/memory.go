package experiments

import (
	"errors"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/memlimit"
)

// SyntheticShape returns the shape of the learner's pool for a synthetic
// problem without drawing it (in the fresh-context reading: the candidates
// of a round plus every context committed over T rounds); ok is false for
// the other problems, whose size is known once their files are read.
func (s Spec) SyntheticShape() (shape algorithms.Shape, ok bool) {
	p := s.Problem
	if !IsSynthetic(p.Name) {
		return shape, false
	}
	if p.Candidates > 0 {
		return algorithms.Shape{Contexts: p.Candidates + s.T, Arms: p.Arms, Dim: p.Dim, Fresh: p.Candidates}, true
	}
	return algorithms.Shape{Contexts: p.Contexts, Arms: p.Arms, Dim: p.Dim}, true
}

// EstimateMemory estimates, from sizes alone, the memory of spec's run on a
// pool of the given shape: the learner over spec.T rounds
// (algorithms.EstimateMemory) and, for a synthetic problem, its data (the
// features and utilities of the pool, or of the evaluation pool and the
// committed contexts in the fresh-context reading). Fields are named as in
// Spec's JSON: contexts, K, d, T, or a Config field; "pool" for the size of
// a pool of the other problems.
func EstimateMemory(spec Spec, shape algorithms.Shape) []algorithms.MemoryPart {
	parts := algorithms.EstimateMemory(spec.Algorithm, shape, spec.Config, spec.T)
	p := spec.Problem
	synthetic := IsSynthetic(p.Name)
	if synthetic {
		perRow := 8 * float64(p.Dim+2) // features, utility and the oracle's copy
		rows := float64(p.Contexts) * float64(p.Arms)
		parts = append(parts, algorithms.MemoryPart{What: "the pool's features and utilities", Bytes: rows * perRow, Field: "contexts"})
		if p.Candidates > 0 {
			parts = append(parts, algorithms.MemoryPart{What: "features of the committed and candidate contexts", Bytes: float64(shape.Contexts) * float64(p.Arms) * perRow, Field: "T"})
		}
	}
	for i := range parts {
		parts[i].Field = specField(parts[i].Field, synthetic)
	}
	return parts
}

// specField names an algorithms.MemoryPart field as Spec's JSON does.
func specField(f string, synthetic bool) string {
	switch f {
	case "rounds":
		return "T"
	case "contexts", "arms", "dim":
		if !synthetic {
			return "pool"
		}
		return map[string]string{"contexts": "contexts", "arms": "K", "dim": "d"}[f]
	}
	return f
}

// CheckMemory returns a *FieldError naming the size to reduce when the
// estimate of spec's run on shape exceeds the limit; nil when it fits or the
// limit is unknown.
func CheckMemory(spec Spec, shape algorithms.Shape, lim memlimit.Limit) error {
	err := algorithms.CheckMemory(EstimateMemory(spec, shape), lim)
	var me *algorithms.MemoryError
	if errors.As(err, &me) {
		return &FieldError{Pkg: "experiments", Field: me.Largest.Field, Msg: "the run " + me.Msg()}
	}
	return err
}
