package poolfile

import (
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/csvtab"
)

// Answer is one recorded duel in context Context: Y = 1 when Arm1 won, 0 when
// Arm2 won, ½ for a recorded tie.
type Answer struct {
	Context, Arm1, Arm2 int
	Y                   float64
}

// Answers holds the recorded duels of a pool, by context and unordered arm
// pair. The zero value is not usable; call NewAnswers.
type Answers struct {
	Contexts, Arms int
	List           []Answer // in the order added (file order)

	byPair map[int][]int32 // pairKey → indices into List
}

// NewAnswers returns an empty record set for a pool of the given shape.
func NewAnswers(contexts, arms int) *Answers {
	return &Answers{Contexts: contexts, Arms: arms, byPair: map[int][]int32{}}
}

// PairKey returns the key of the unordered pair {a, b} of context c in the
// index of the records (PairKeys, Indices).
func (s *Answers) PairKey(c, a, b int) int {
	if a > b {
		a, b = b, a
	}
	return (c*s.Arms+a)*s.Arms + b
}

// Add records a duel. It panics if the answer does not fit the pool (callers
// validate user input first).
func (s *Answers) Add(a Answer) {
	if a.Context < 0 || a.Context >= s.Contexts || a.Arm1 < 0 || a.Arm1 >= s.Arms || a.Arm2 < 0 || a.Arm2 >= s.Arms ||
		a.Arm1 == a.Arm2 || (a.Y != 0 && a.Y != 0.5 && a.Y != 1) {
		panic(fmt.Sprintf("poolfile: invalid answer %+v for %d contexts × %d arms", a, s.Contexts, s.Arms))
	}
	k := s.PairKey(a.Context, a.Arm1, a.Arm2)
	s.byPair[k] = append(s.byPair[k], int32(len(s.List)))
	s.List = append(s.List, a)
}

// PairKeys returns the keys of the pairs with at least one record, in
// increasing order (context, then arm order).
func (s *Answers) PairKeys() []int { return slices.Sorted(maps.Keys(s.byPair)) }

// Indices returns the indices into List of the records of the pair with key
// k, in the order added (a copy).
func (s *Answers) Indices(k int) []int32 { return slices.Clone(s.byPair[k]) }

// Recorded reports how many answers the pair {a, b} of context c has.
func (s *Answers) Recorded(c, a, b int) int { return len(s.byPair[s.PairKey(c, a, b)]) }

// Records returns the recorded answers of the pair {a, b} of context c, in
// the order added.
func (s *Answers) Records(c, a, b int) []Answer {
	idx := s.byPair[s.PairKey(c, a, b)]
	out := make([]Answer, len(idx))
	for i, r := range idx {
		out[i] = s.List[r]
	}
	return out
}

// Missing returns the number of arm pairs, over all contexts, with no
// recorded answer, and the first of them (in context, then arm order).
func (s *Answers) Missing() (n int, first Answer) {
	first = Answer{Context: -1, Arm1: -1, Arm2: -1}
	for c := range s.Contexts {
		for a := range s.Arms {
			for b := a + 1; b < s.Arms; b++ {
				if s.Recorded(c, a, b) == 0 {
					if n == 0 {
						first = Answer{Context: c, Arm1: a, Arm2: b}
					}
					n++
				}
			}
		}
	}
	return n, first
}

// Wins returns the mean outcome of the records of pair {a, b} in context c
// from a's side (1: a always won), and false when there is none.
func (s *Answers) Wins(c, a, b int) (float64, bool) {
	idx := s.byPair[s.PairKey(c, a, b)]
	if len(idx) == 0 {
		return 0, false
	}
	sum := 0.0
	for _, i := range idx {
		r := s.List[i]
		if r.Arm1 == a {
			sum += r.Y
		} else {
			sum += 1 - r.Y
		}
	}
	return sum / float64(len(idx)), true
}

// Copeland returns every pool row's empirical Copeland score: arm a of context
// c scores 1 for each other arm it beat in the majority of their recorded
// duels, ½ for each arm it ties with (equal wins, ties counted ½ each) or has
// no record against, and 0 otherwise; so f(c,a) ∈ [0, K−1].
func (s *Answers) Copeland() []float64 {
	f := make([]float64, s.Contexts*s.Arms)
	for c := range s.Contexts {
		for a := range s.Arms {
			for b := a + 1; b < s.Arms; b++ {
				m, ok := s.Wins(c, a, b)
				switch {
				case !ok || m == 0.5:
					f[c*s.Arms+a] += 0.5
					f[c*s.Arms+b] += 0.5
				case m > 0.5:
					f[c*s.Arms+a]++
				default:
					f[c*s.Arms+b]++
				}
			}
		}
	}
	return f
}

// Subset returns the records of the contexts ctxs, renumbered so that
// ctxs[i] becomes context i, in the order added.
func (s *Answers) Subset(ctxs []int) *Answers {
	index := make(map[int]int, len(ctxs))
	for i, c := range ctxs {
		index[c] = i
	}
	out := NewAnswers(len(ctxs), s.Arms)
	for _, a := range s.List {
		if i, ok := index[a.Context]; ok {
			a.Context = i
			out.Add(a)
		}
	}
	return out
}

// Offer returns the offer of the pairs with at least one record (ties
// included), in the contexts that have one: what a learner may ask under
// the missing-answer rule "mask". Its Contexts is empty (not nil) when there
// is no record.
func (s *Answers) Offer() algorithms.Offer {
	K := s.Arms
	mask := make([]bool, s.Contexts*K*K)
	has := make([]bool, s.Contexts)
	for _, a := range s.List {
		mask[(a.Context*K+a.Arm1)*K+a.Arm2] = true
		mask[(a.Context*K+a.Arm2)*K+a.Arm1] = true
		has[a.Context] = true
	}
	ctxs := []int{}
	for c, ok := range has {
		if ok {
			ctxs = append(ctxs, c)
		}
	}
	return algorithms.Offer{Contexts: ctxs, Allowed: func(c, a, b int) bool { return mask[(c*K+a)*K+b] }}
}

// Strict returns the records with a winner (Y = 0 or 1), in order.
func (s *Answers) Strict() []Answer {
	out := make([]Answer, 0, len(s.List))
	for _, a := range s.List {
		if a.Y != 0.5 {
			out = append(out, a)
		}
	}
	return out
}

// ReadAnswers parses an answers file for the pool pf (format in pool.go).
// Errors are *csvtab.Error values naming the file, line and column.
func (pf *PoolFile) ReadAnswers(r io.Reader, file string) (*Answers, error) {
	t, err := csvtab.Read(r, file)
	if err != nil {
		return nil, err
	}
	want := []string{"context", "arm1", "arm2", "y"}
	cols, err := t.Require(want...)
	if err != nil {
		return nil, err
	}
	for i, h := range t.Header {
		if !slices.Contains(cols, i) {
			return nil, &csvtab.Error{File: file, Line: t.HeaderLine, Column: i + 1, Name: h,
				Msg: "unknown column: an answers file has exactly the columns context,arm1,arm2,y"}
		}
	}
	if len(t.Rows) == 0 {
		return nil, &csvtab.Error{File: file, Msg: "no answers after the header"}
	}
	ctxOf := pf.ContextIndex()
	ans := NewAnswers(pf.Pool.Contexts, pf.Pool.Arms)
	for r := range t.Rows {
		cid, err := t.ID(r, cols[0])
		if err != nil {
			return nil, err
		}
		c, ok := ctxOf[cid]
		if !ok {
			return nil, t.ErrAt(r, cols[0], "unknown context %q (not in the pool file)", cid)
		}
		var arm [2]int
		for k := range arm {
			id, err := t.ID(r, cols[1+k])
			if err != nil {
				return nil, err
			}
			if arm[k] = pf.ArmIndex(c, id); arm[k] < 0 {
				return nil, t.ErrAt(r, cols[1+k], "context %q has no arm %q in the pool file", cid, id)
			}
		}
		if arm[0] == arm[1] {
			return nil, t.ErrAt(r, cols[2], "arm2 is arm1 (%q): a duel needs two different arms", t.Rows[r][cols[1]])
		}
		y, err := t.Float(r, cols[3])
		if err != nil {
			return nil, err
		}
		if y != 0 && y != 0.5 && y != 1 {
			return nil, t.ErrAt(r, cols[3], "y = %s; want 1 (arm1 won), 0 (arm2 won) or 0.5 (tie)", t.Rows[r][cols[3]])
		}
		ans.Add(Answer{Context: c, Arm1: arm[0], Arm2: arm[1], Y: y})
	}
	return ans, nil
}

// WriteAnswers writes ans in the answers file format with the identifiers of
// pf; pf.ReadAnswers reads it back equal.
func WriteAnswers(w io.Writer, pf *PoolFile, ans *Answers) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"context", "arm1", "arm2", "y"}); err != nil {
		return err
	}
	K := pf.Pool.Arms
	for _, a := range ans.List {
		rec := []string{pf.Contexts[a.Context], pf.Arms[a.Context*K+a.Arm1], pf.Arms[a.Context*K+a.Arm2], formatFloat(a.Y)}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
