package algorithms

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/neural-adb/nadb/internal/mlp"
)

// Kind "ensemble": the weighted families of neural-adb-target and
// neural-adb-plus (format in model.go). The scorers and policies here call
// the learners' own functions (tgScoreTo, tgPolicyTo, plusScoreTo,
// plusRowsTo), so a loaded model repeats the learner's arithmetic operation
// for operation.

// EnsembleRule names how an ensemble's members are combined.
type EnsembleRule string

// Ensemble rules (the formulas are in model.go's format comment).
const (
	EnsembleTarget      EnsembleRule = "target"       // neural-adb-target
	EnsemblePlusAverage EnsembleRule = "plus-average" // neural-adb-plus, averaging its members
	EnsemblePlusBest    EnsembleRule = "plus-best"    // neural-adb-plus, the member in use alone
)

// Ensemble is the model of kind "ensemble".
type Ensemble struct {
	Rule    EnsembleRule     `json:"rule"`
	Scale   float64          `json:"scale"`
	Members []EnsembleMember `json:"members"`
}

// EnsembleMember is one member: t(x) = uᵀx + g(x;θ), with g ≡ 0 when θ is
// empty (a linear member, or a network still at its mirrored
// initialisation). Its network has the model's "mlp" shape.
type EnsembleMember struct {
	Weight float64   `json:"weight"`
	U      []float64 `json:"u"`
	Theta  []float64 `json:"theta,omitempty"`
}

const maxMembers = 1 << 10

// validateEnsemble checks the fields of kind "ensemble" (m.MLP's width and
// depth are checked by the caller).
func (m *Model) validateEnsemble() error {
	e := m.Ensemble
	switch {
	case e == nil:
		return errors.New(`kind "ensemble" needs an "ensemble" object {rule, scale, members}`)
	case m.MLP.Bias:
		return errors.New(`mlp bias is true; the networks of kind "ensemble" have no biases`)
	case m.MLP.Zero:
		return errors.New(`mlp zero is true; in kind "ensemble" a member without a network has an empty theta`)
	case len(m.Theta) != 0:
		return fmt.Errorf(`theta has %d values; kind "ensemble" keeps θ per member (ensemble.members[k].theta)`, len(m.Theta))
	case m.Offset != 0:
		return fmt.Errorf(`offset is %v; kind "ensemble" has none (0)`, m.Offset)
	case e.Rule != EnsembleTarget && e.Rule != EnsemblePlusAverage && e.Rule != EnsemblePlusBest:
		return fmt.Errorf("ensemble.rule is %q, want %q, %q or %q", e.Rule, EnsembleTarget, EnsemblePlusAverage, EnsemblePlusBest)
	case !(e.Scale > 0 && e.Scale <= MaxModelValue):
		return fmt.Errorf("ensemble.scale is %v, want a positive finite number of at most %g", e.Scale, MaxModelValue)
	case len(e.Members) < 1 || len(e.Members) > maxMembers:
		return fmt.Errorf("ensemble.members has %d members, want 1 … %d", len(e.Members), maxMembers)
	case e.Rule == EnsemblePlusBest && (len(e.Members) != 1 || e.Members[0].Weight != 1):
		return fmt.Errorf("ensemble.rule %q takes one member of weight 1, got %d members", e.Rule, len(e.Members))
	}
	nt := m.arch().NumParams()
	for k, mb := range e.Members {
		at := fmt.Sprintf("ensemble.members[%d]", k)
		switch {
		case !(math.Abs(mb.Weight) <= MaxModelValue):
			return fmt.Errorf("%s.weight is %v, want a finite number of at most %g in absolute value", at, mb.Weight, MaxModelValue)
		case len(mb.U) != m.InputDim:
			return fmt.Errorf("%s.u has %d values, want input_dim = %d", at, len(mb.U), m.InputDim)
		case len(mb.Theta) != 0 && len(mb.Theta) != nt:
			return fmt.Errorf("%s.theta has %d values, want %d for the mlp shape (or none: no network)", at, len(mb.Theta), nt)
		}
		for _, f := range []struct {
			name string
			v    []float64
		}{{"u", mb.U}, {"theta", mb.Theta}} {
			for i, v := range f.v {
				if !(math.Abs(v) <= MaxModelValue) {
					return fmt.Errorf("%s.%s[%d] is %v, want a finite number of at most %g in absolute value", at, f.name, i, v, MaxModelValue)
				}
			}
		}
	}
	return nil
}

// ensembleNulls reports a JSON null among an ensemble's numbers.
func ensembleNulls(e *rawEnsemble) error {
	if e == nil {
		return nil
	}
	if string(e.Scale) == "null" {
		return errors.New("ensemble.scale is null, want a number")
	}
	for k, mb := range e.Members {
		if string(mb.Weight) == "null" {
			return fmt.Errorf("ensemble.members[%d].weight is null, want a number", k)
		}
		for _, f := range []struct {
			name string
			v    []rawNumber
		}{{"u", mb.U}, {"theta", mb.Theta}} {
			for i, v := range f.v {
				if string(v) == "null" {
					return fmt.Errorf("ensemble.members[%d].%s[%d] is null, want a number", k, f.name, i)
				}
			}
		}
	}
	return nil
}

// ensembleScorer is the Scorer of kind "ensemble".
type ensembleScorer struct {
	dim   int
	rule  EnsembleRule
	scale float64
	tg    []tgTerm   // rule target
	plus  []plusTerm // rules plus-*
}

func (m *Model) ensembleScorer() *ensembleScorer {
	e := m.Ensemble
	s := &ensembleScorer{dim: m.InputDim, rule: e.Rule, scale: e.Scale}
	for _, mb := range e.Members {
		var net *mlp.Net
		if len(mb.Theta) > 0 {
			net = mlp.NewNet(m.arch())
			net.SetTheta(mb.Theta)
		}
		u := slices.Clone(mb.U)
		if e.Rule == EnsembleTarget {
			t := tgTerm{w: mb.Weight, u: u}
			if net != nil {
				t.net = &tgNet{net: net}
				t.net.syncT()
			}
			s.tg = append(s.tg, t)
			continue
		}
		w := mb.Weight
		if e.Rule == EnsemblePlusBest {
			w = e.Scale // the learner's factor: its calibration
		}
		s.plus = append(s.plus, plusTerm{w: w, u: u, net: net})
	}
	return s
}

// Score implements Scorer: the learner's scores (model.go's formulas).
func (s *ensembleScorer) Score(dst, x []float64) []float64 {
	if len(x)%s.dim != 0 {
		panic("algorithms: Score input is not a whole number of rows")
	}
	if s.rule == EnsembleTarget {
		return tgScoreTo(dst, x, s.dim, s.tg, s.scale, new(tgBatch))
	}
	return plusScoreTo(dst, x, s.dim, s.plus, s.rule == EnsemblePlusAverage)
}

// policy writes the learner's policy on the committed contexts of p: the
// argmax of the uncalibrated scores, ties broken as the learner breaks them
// (neural-adb-target: a hash of seed and row; neural-adb-plus: the seed's
// priorities, as every other learner).
func (s *ensembleScorer) policy(dst []int, p *Pool, seed uint64) []int {
	if s.rule == EnsembleTarget {
		return tgPolicyTo(dst, p, s.tg, seed, new(tgBatch))
	}
	r := newRowScores(p, seed)
	d := p.Dim
	var buf, g, h []float64
	for start, x := range p.Blocks(0, p.Rows(), &buf) {
		n := len(x) / d
		rank := r.S[start : start+n]
		clear(rank)
		g, h = resize(g, n), resize(h, n)
		for _, t := range s.plus {
			if t.net != nil {
				t.net.Predict(g, x, nil)
			} else {
				clear(g)
			}
			if s.rule == EnsemblePlusBest {
				plusRowsTo(rank, g, x, t.u, d)
				break
			}
			plusRowsTo(h, g, x, t.u, d)
			plusAxpy(t.w/s.scale, h, rank)
		}
	}
	return r.policy(dst)
}

// Snapshot implements Snapshotter: the members that count in the averaged
// scores (weight ≠ 0) and the calibration, after any retraining that is due.
func (l *NeuralADBTarget) Snapshot() *Model {
	l.ready()
	m := l.model
	e := &Ensemble{Rule: EnsembleTarget, Scale: m.calibration()}
	for _, t := range m.terms() {
		mb := EnsembleMember{Weight: t.w, U: slices.Clone(t.u)}
		if t.net != nil {
			mb.Theta = slices.Clone(t.net.net.Theta)
		}
		e.Members = append(e.Members, mb)
	}
	return ensembleModel(m.members[0].net.net.Arch, e)
}

// Snapshot implements Snapshotter: the members with w·τ > 0 while
// averaging, else the member in use, and the calibration.
func (l *NeuralADBPlus) Snapshot() *Model {
	terms, averaged, scale := l.model.terms()
	e := &Ensemble{Rule: EnsemblePlusAverage, Scale: scale}
	if !averaged {
		e.Rule = EnsemblePlusBest
	}
	for _, t := range terms {
		mb := EnsembleMember{Weight: t.w, U: slices.Clone(t.u)}
		if !averaged {
			mb.Weight = 1 // its factor is the scale
		}
		if !t.net.IdenticallyZero() {
			mb.Theta = slices.Clone(t.net.Theta)
		}
		e.Members = append(e.Members, mb)
	}
	return ensembleModel(l.model.members[0].net.Arch, e)
}

func ensembleModel(a mlp.Arch, e *Ensemble) *Model {
	return &Model{Kind: ModelEnsemble, InputDim: a.In, MLP: &MLPShape{Width: a.Width, Depth: a.Depth}, Ensemble: e, Theta: []float64{}}
}
