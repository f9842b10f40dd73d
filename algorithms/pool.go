package algorithms

import (
	"fmt"
	"math"
)

// Pool is what a learner may see of a problem (paper Section 2): a fixed set of
// Contexts contexts, each with Arms arms, and the feature vector
// x_{c,a} = φ(c,a) ∈ R^Dim of every (context, arm). It never holds rewards.
type Pool struct {
	Contexts int       // |C| ≥ 1
	Arms     int       // K ≥ 2
	Dim      int       // d ≥ 1
	X        []float64 // row n = c·Arms + a holds x_{c,a}; Contexts·Arms rows × Dim
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
		return fmt.Errorf("pool: %d contexts, need at least 1", p.Contexts)
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
