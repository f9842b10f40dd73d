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
	// Info holds the optional columns of every answer of List (nil when the
	// file has none of them, or the answers were added by Add only).
	Info []Info

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
	if s.Info != nil {
		s.Info = append(s.Info, Info{})
	}
}

// AddInfo records a duel with what the optional columns say about it. The
// first call gives every answer added before an empty Info.
func (s *Answers) AddInfo(a Answer, in Info) {
	if s.Info == nil {
		s.Info = make([]Info, len(s.List), len(s.List)+1)
	}
	s.Add(a)
	s.Info[len(s.Info)-1] = in
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

// Subset returns the records of the contexts ctxs (with their Info),
// renumbered so that ctxs[i] becomes context i, in the order added.
func (s *Answers) Subset(ctxs []int) *Answers {
	index := make(map[int]int, len(ctxs))
	for i, c := range ctxs {
		index[c] = i
	}
	out := NewAnswers(len(ctxs), s.Arms)
	for k, a := range s.List {
		if i, ok := index[a.Context]; ok {
			a.Context = i
			if s.Info != nil {
				out.AddInfo(a, s.Info[k])
			} else {
				out.Add(a)
			}
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

// Info is what an answers file may say about an answer beside the duel and
// y (the optional columns of the format in pool.go): who gave it, whether a
// y of 0.5 means "both bad" rather than "equally good", and whether it was a
// consistency check, a duel the same labeller had answered before.
type Info struct {
	Labeller string
	BothBad  bool
	Recheck  bool
}

// infoColumns are the optional columns of an answers file, in the order
// WriteAnswers writes them.
var infoColumns = []string{"labeller", "both_bad", "recheck"}

// ReadAnswers parses an answers file for the pool pf (format in pool.go).
// Errors are *csvtab.Error values naming the file, line and column. When
// the file has any of the optional columns, ans.Info holds them per answer.
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
	opt := [3]int{t.Column("labeller"), t.Column("both_bad"), t.Column("recheck")}
	for i, h := range t.Header {
		if !slices.Contains(cols, i) && !slices.Contains(opt[:], i) {
			return nil, &csvtab.Error{File: file, Line: t.HeaderLine, Column: i + 1, Name: h,
				Msg: "unknown column: an answers file has the columns context,arm1,arm2,y and optionally labeller, both_bad and recheck"}
		}
	}
	if len(t.Rows) == 0 {
		return nil, &csvtab.Error{File: file, Msg: "no answers after the header"}
	}
	ctxOf := pf.ContextIndex()
	ans := NewAnswers(pf.Pool.Contexts, pf.Pool.Arms)
	if opt != [3]int{-1, -1, -1} {
		ans.Info = make([]Info, 0, len(t.Rows))
	}
	for r := range t.Rows {
		cid, err := t.ID(r, cols[0])
		if err != nil {
			return nil, err
		}
		c, ok := ctxOf[cid]
		if !ok {
			return nil, t.ErrAt(r, cols[0], "unknown context %s (not in the pool file)", csvtab.Quote(cid))
		}
		var arm [2]int
		for k := range arm {
			id, err := t.ID(r, cols[1+k])
			if err != nil {
				return nil, err
			}
			if arm[k] = pf.ArmIndex(c, id); arm[k] < 0 {
				return nil, t.ErrAt(r, cols[1+k], "context %s has no arm %s in the pool file", csvtab.Quote(cid), csvtab.Quote(id))
			}
		}
		if arm[0] == arm[1] {
			return nil, t.ErrAt(r, cols[2], "arm2 is arm1 (%s): a duel needs two different arms", csvtab.Quote(t.Rows[r][cols[1]]))
		}
		y, err := t.Float(r, cols[3])
		if err != nil {
			return nil, err
		}
		if y != 0 && y != 0.5 && y != 1 {
			return nil, t.ErrAt(r, cols[3], "y = %s; want 1 (arm1 won), 0 (arm2 won) or 0.5 (tie)", csvtab.Quote(t.Rows[r][cols[3]]))
		}
		a := Answer{Context: c, Arm1: arm[0], Arm2: arm[1], Y: y}
		if ans.Info == nil {
			ans.Add(a)
			continue
		}
		var in Info
		if opt[0] >= 0 && t.Rows[r][opt[0]] != "" {
			if in.Labeller, err = t.ID(r, opt[0]); err != nil {
				return nil, err
			}
		}
		for k, dst := range []*bool{&in.BothBad, &in.Recheck} {
			col := opt[1+k]
			if col < 0 {
				continue
			}
			switch v := t.Rows[r][col]; v {
			case "", "0":
			case "1":
				*dst = true
			default:
				return nil, t.ErrAt(r, col, "%s = %s; want 1, 0 or empty", t.Header[col], csvtab.Quote(v))
			}
		}
		if in.BothBad && y != 0.5 {
			return nil, t.ErrAt(r, opt[1], "both_bad = 1 with y = %s; an answer \"both bad\" has y = 0.5", t.Rows[r][cols[3]])
		}
		ans.AddInfo(a, in)
	}
	return ans, nil
}

// WriteAnswers writes ans in the answers file format with the identifiers of
// pf, with the optional columns when ans.Info is not nil; pf.ReadAnswers
// reads it back equal.
func WriteAnswers(w io.Writer, pf *PoolFile, ans *Answers) error {
	cw := csv.NewWriter(w)
	head := []string{"context", "arm1", "arm2", "y"}
	if ans.Info != nil {
		head = append(head, infoColumns...)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	K := pf.Pool.Arms
	for i, a := range ans.List {
		rec := []string{pf.Contexts[a.Context], pf.Arms[a.Context*K+a.Arm1], pf.Arms[a.Context*K+a.Arm2], formatFloat(a.Y)}
		if ans.Info != nil {
			in := ans.Info[i]
			rec = append(rec, in.Labeller, flag(in.BothBad), flag(in.Recheck))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}
