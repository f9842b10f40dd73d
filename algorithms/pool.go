package algorithms

import (
	"fmt"
	"math"
)

// Pool is what a learner may see of a problem (paper Section 2): Contexts
// contexts, each with Arms arms, and the feature vector x_{c,a} = φ(c,a) ∈
// R^Dim of every (context, arm). It never holds rewards.
//
// In the paper's fixed-pool reading the contexts never change. In the
// fresh-context reading the experimenter draws new candidate contexts every
// round: the last Fresh() contexts of the pool are this round's candidates
// (SetFresh), and after the answer the queried one is kept as the next
// committed context and the others are dropped (Commit). Committed contexts
// never change; fresh ones change every round, so a learner recomputes
// whatever it keeps about them whenever Generation changes.
type Pool struct {
	Contexts int       // contexts visible now: Committed() committed ones, then Fresh() fresh ones
	Arms     int       // K ≥ 2
	Dim      int       // d ≥ 1
	X        []float64 // row n = c·Arms + a holds x_{c,a}; Contexts·Arms rows × Dim

	fresh int
	gen   uint64
}

// Committed returns the number of contexts that stay (all of them in the
// fixed-pool reading); they are contexts 0 … Committed()−1.
func (p *Pool) Committed() int { return p.Contexts - p.fresh }

// Fresh returns the number of this round's fresh candidate contexts (0 in
// the fixed-pool reading): contexts Committed() … Contexts−1.
func (p *Pool) Fresh() int { return p.fresh }

// Generation changes whenever rows of the pool change (SetFresh, Commit), so
// that a learner can tell when to recompute what it keeps per row.
func (p *Pool) Generation() uint64 { return p.gen }

// SetFresh replaces the fresh contexts with the rows of x (a whole number of
// contexts of Arms rows of Dim features, all finite).
func (p *Pool) SetFresh(x []float64) error {
	per := p.Arms * p.Dim
	if len(x)%per != 0 {
		return fmt.Errorf("algorithms: %d fresh feature values are not whole contexts of %d arms × %d dims", len(x), p.Arms, p.Dim)
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("algorithms: fresh feature %d is %v", i, v)
		}
	}
	c := p.Committed()
	p.X = append(p.X[:c*per], x...)
	p.fresh = len(x) / per
	p.Contexts = c + p.fresh
	p.gen++
	return nil
}

// Commit keeps the fresh context c as committed context Committed() (its
// rows move there) and drops the other fresh contexts. It returns the
// committed index.
func (p *Pool) Commit(c int) (int, error) {
	first := p.Committed()
	if c < first || c >= p.Contexts {
		return 0, fmt.Errorf("algorithms: context %d is not fresh (fresh contexts are %d … %d)", c, first, p.Contexts-1)
	}
	per := p.Arms * p.Dim
	copy(p.X[first*per:(first+1)*per], p.X[c*per:(c+1)*per])
	p.X = p.X[:(first+1)*per]
	p.fresh = 0
	p.Contexts = first + 1
	p.gen++
	return first, nil
}

// NewPool checks and wraps feature rows.
func NewPool(contexts, arms, dim int, x []float64) (*Pool, error) {
	p := &Pool{Contexts: contexts, Arms: arms, Dim: dim, X: x}
	return p, p.Validate()
}

// Validate reports the first problem with the pool's shape or values.
func (p *Pool) Validate() error {
	switch {
	case p.Contexts < 1:
		return fmt.Errorf("pool: %d contexts, need at least 1 (fresh ones count)", p.Contexts)
	case p.Arms < 2:
		return fmt.Errorf("pool: %d arms per context, need K ≥ 2 to form a duel", p.Arms)
	case p.Dim < 1:
		return fmt.Errorf("pool: feature dimension %d, need d ≥ 1", p.Dim)
	case len(p.X) != p.Contexts*p.Arms*p.Dim:
		return fmt.Errorf("pool: %d feature values, want %d contexts × %d arms × %d dims = %d",
			len(p.X), p.Contexts, p.Arms, p.Dim, p.Contexts*p.Arms*p.Dim)
	}
	for i, v := range p.X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			n := i / p.Dim
			return fmt.Errorf("pool: feature %d of context %d arm %d is %v", i%p.Dim, n/p.Arms, n%p.Arms, v)
		}
	}
	return nil
}

// Rows returns Contexts·Arms.
func (p *Pool) Rows() int { return p.Contexts * p.Arms }

// Row returns the row index n = c·Arms + a of (context c, arm a).
func (p *Pool) Row(c, a int) int { return c*p.Arms + a }

// Feature returns x_{c,a} (aliases the pool: read only).
func (p *Pool) Feature(c, a int) []float64 {
	n := p.Row(c, a)
	return p.X[n*p.Dim : (n+1)*p.Dim]
}

// Query is a triple (c_t, a_{t,1}, a_{t,2}) put to the labeller.
type Query struct {
	Context, Arm1, Arm2 int
}

// Validate reports whether q is a valid duel in p: context in the pool, arms in
// range and distinct.
func (q Query) Validate(p *Pool) error {
	switch {
	case q.Context < 0 || q.Context >= p.Contexts:
		return fmt.Errorf("query context %d outside [0, %d)", q.Context, p.Contexts)
	case q.Arm1 < 0 || q.Arm1 >= p.Arms || q.Arm2 < 0 || q.Arm2 >= p.Arms:
		return fmt.Errorf("query arms (%d, %d) outside [0, %d)", q.Arm1, q.Arm2, p.Arms)
	case q.Arm1 == q.Arm2:
		return fmt.Errorf("query duels arm %d with itself", q.Arm1)
	}
	return nil
}

// Feedback is the labeller's answer y_t: Arm1Won (y = 1) or Arm2Won (y = 0).
type Feedback int

// Feedback values, y_t = 1[a_{t,1} ≻ a_{t,2}].
const (
	Arm2Won Feedback = 0
	Arm1Won Feedback = 1
)

// WinnerLoser returns the winning and losing arms of q under y.
func (q Query) WinnerLoser(y Feedback) (win, lose int) {
	if y == Arm1Won {
		return q.Arm1, q.Arm2
	}
	return q.Arm2, q.Arm1
}
