package experiments

import (
	"errors"
	"slices"

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
		return &FieldError{Pkg: "experiments", Field: driver(spec, me.Largest), Msg: "the run " + me.Msg()}
	}
	return err
}

// defaultRounds is the T that driver compares a run's with (nadb run's
// default).
const defaultRounds = 1000

// size is a size of a synthetic run that memory grows with: its Spec
// field's name, its default and where spec holds it.
type size struct {
	field string
	def   int
	at    func(*Spec) *int
}

// sizes are the sizes driver chooses among.
var sizes = []size{
	{"contexts", DefaultProblem().Contexts, func(s *Spec) *int { return &s.Problem.Contexts }},
	{"K", DefaultProblem().Arms, func(s *Spec) *int { return &s.Problem.Arms }},
	{"d", DefaultProblem().Dim, func(s *Spec) *int { return &s.Problem.Dim }},
	{"candidates", 1, func(s *Spec) *int { return &s.Problem.Candidates }},
	{"T", defaultRounds, func(s *Spec) *int { return &s.T }},
}

// driver names the size of a synthetic problem that drives the part of
// spec's estimate named largest: of the sizes above their defaults, the
// one whose reset to its default shrinks that part the most. A part's
// field names one size it grows with (the pool's features grow with
// contexts, K and d alike), so an estimate blown up by K would otherwise
// blame contexts. Parts named by another field (a Config field), and
// problems read from files, keep the field the estimate gives.
func driver(spec Spec, largest algorithms.MemoryPart) string {
	if !IsSynthetic(spec.Problem.Name) || !slices.ContainsFunc(sizes, func(z size) bool { return z.field == largest.Field }) {
		return largest.Field
	}
	best, most := largest.Field, 1.0
	for _, z := range sizes {
		s := spec
		v := z.at(&s)
		if *v <= z.def {
			continue
		}
		*v = z.def
		shape, ok := s.SyntheticShape()
		if !ok {
			continue
		}
		for _, part := range EstimateMemory(s, shape) {
			if part.What == largest.What && part.Bytes > 0 && largest.Bytes/part.Bytes > most {
				best, most = z.field, largest.Bytes/part.Bytes
			}
		}
	}
	return best
}
