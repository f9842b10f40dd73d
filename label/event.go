package label

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"
	"time"
)

// FormatVersion is the version of the answer log's line format, written in
// every line as "v". Version 2 added both_bad, recheck and the kind rank; a
// reader of version 2 reads version 1 logs (a subset) too.
const FormatVersion = 2

// Kind is the kind of a log event.
type Kind string

// Event kinds.
const (
	Start  Kind = "start"  // the server started; Epoch numbers the starts
	Answer Kind = "answer" // a labeller answered query ID with Y
	Skip   Kind = "skip"   // a labeller skipped query ID
	Undo   Kind = "undo"   // a labeller undid the answer, ranking or skip of line Undoes
	Rank   Kind = "rank"   // a labeller chose the best of several arms, or ranked them
)

// Event is one line of the answer log.
type Event struct {
	Seq  int64 // line number, from 1
	Kind Kind
	Time time.Time

	Epoch int // Start: 1 for the first start of the log, then 2, …

	ID       string // Answer, Skip, Rank: the query's identifier
	Labeller string // Answer, Skip, Rank, Undo
	// Answer, Skip: the duel, by identifier and by index; Rank and the Skip
	// of a set: the context (Context, C).
	Context, Arm1, Arm2 string
	C, A1, A2           int
	Y                   float64 // Answer: 1 when Arm1 won, 0 when Arm2 won, ½ for a tie or both bad
	// BothBad marks an Answer with Y = ½ for which the labeller found both
	// arms bad, and a Rank for which they found every arm bad (Order empty).
	BothBad bool
	// Recheck is, for an Answer to a duel the labeller had answered before
	// (a consistency check, Options.Recheck), the Seq of that first answer.
	Recheck int64

	// Rank and the Skip of a set: the arms shown, by identifier and by
	// index, in the order shown; Rank: Order, the positions in Arms of the
	// best arm (one entry: best of k) or of every arm from best to worst (a
	// ranking).
	Arms  []string
	AI    []int
	Order []int

	Undoes int64 // Undo: the Seq of the undone Answer, Rank or Skip
}

// wire is an Event as written; absent fields are omitted.
type wire struct {
	V        int      `json:"v"`
	Seq      int64    `json:"seq"`
	Kind     Kind     `json:"kind"`
	Time     string   `json:"time"`
	Epoch    int      `json:"epoch,omitempty"`
	ID       string   `json:"id,omitempty"`
	Labeller string   `json:"labeller,omitempty"`
	Context  string   `json:"context,omitempty"`
	Arm1     string   `json:"arm1,omitempty"`
	Arm2     string   `json:"arm2,omitempty"`
	C        *int     `json:"c,omitempty"`
	A1       *int     `json:"a1,omitempty"`
	A2       *int     `json:"a2,omitempty"`
	Y        *float64 `json:"y,omitempty"`
	BothBad  bool     `json:"both_bad,omitempty"`
	Recheck  int64    `json:"recheck,omitempty"`
	Arms     []string `json:"arms,omitempty"`
	AI       []int    `json:"ai,omitempty"`
	Order    *[]int   `json:"order,omitempty"`
	Undoes   int64    `json:"undoes,omitempty"`
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// crcSuffix is the end of every line, `,"crc":"xxxxxxxx"}`, without the
// newline; len(`,"crc":"`) + 8 + len(`"}`).
const crcSuffixLen = 8 + 8 + 2

// marshal returns e as one log line, newline included: the JSON object of
// its fields with a last field crc, the CRC-32C (Castagnoli) in hexadecimal
// of the line's bytes up to that field with a closing brace in its place.
func (e *Event) marshal() []byte {
	w := wire{V: FormatVersion, Seq: e.Seq, Kind: e.Kind, Time: e.Time.UTC().Format(time.RFC3339Nano),
		Epoch: e.Epoch, ID: e.ID, Labeller: e.Labeller, Undoes: e.Undoes}
	switch {
	case e.Kind == Skip && e.Arms != nil:
		c := e.C
		w.Context, w.C, w.Arms, w.AI = e.Context, &c, e.Arms, e.AI
	case e.Kind == Answer || e.Kind == Skip:
		c, a1, a2 := e.C, e.A1, e.A2
		w.Context, w.Arm1, w.Arm2, w.C, w.A1, w.A2 = e.Context, e.Arm1, e.Arm2, &c, &a1, &a2
	}
	if e.Kind == Answer {
		y := e.Y
		w.Y = &y
		w.Recheck = e.Recheck
	}
	if e.Kind == Answer || e.Kind == Rank {
		w.BothBad = e.BothBad
	}
	if e.Kind == Rank {
		c := e.C
		order := e.Order
		if order == nil {
			order = []int{}
		}
		w.Context, w.C, w.Arms, w.AI, w.Order = e.Context, &c, e.Arms, e.AI, &order
	}
	body, err := json.Marshal(w)
	if err != nil {
		panic(err) // only strings, numbers and finite floats
	}
	sum := crc32.Checksum(body, castagnoli)
	line := append(body[:len(body)-1], `,"crc":"`...)
	line = fmt.Appendf(line, "%08x\"}\n", sum)
	return line
}

// unmarshal parses one log line without its newline.
func unmarshal(line []byte) (Event, error) {
	n := len(line)
	if n < crcSuffixLen+2 || !bytes.HasPrefix(line[n-crcSuffixLen:], []byte(`,"crc":"`)) || !bytes.HasSuffix(line, []byte(`"}`)) {
		return Event{}, errors.New("no checksum field at the end of the line")
	}
	want, err := strconv.ParseUint(string(line[n-10:n-2]), 16, 32)
	if err != nil {
		return Event{}, errors.New("checksum is not 8 hexadecimal digits")
	}
	body := append(line[:n-crcSuffixLen:n-crcSuffixLen], '}')
	if got := crc32.Checksum(body, castagnoli); got != uint32(want) {
		return Event{}, fmt.Errorf("checksum mismatch (line says %08x, content gives %08x)", want, got)
	}
	var w wire
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return Event{}, fmt.Errorf("invalid JSON: %v", err)
	}
	if w.V != FormatVersion && w.V != 1 {
		return Event{}, fmt.Errorf("format version %d; this program reads versions 1 and %d", w.V, FormatVersion)
	}
	t, err := time.Parse(time.RFC3339Nano, w.Time)
	if err != nil {
		return Event{}, fmt.Errorf("time %q: %v", w.Time, err)
	}
	e := Event{Seq: w.Seq, Kind: w.Kind, Time: t, Epoch: w.Epoch, ID: w.ID, Labeller: w.Labeller,
		Context: w.Context, Arm1: w.Arm1, Arm2: w.Arm2, Undoes: w.Undoes, BothBad: w.BothBad, Recheck: w.Recheck}
	if w.Kind != Rank && w.Kind != Skip && (w.Arms != nil || w.AI != nil) || w.Kind != Rank && w.Order != nil {
		return Event{}, fmt.Errorf("%s with arms, ai or order (only a rank, and the skip of a set, has them)", w.Kind)
	}
	switch w.Kind {
	case Start:
		if w.Epoch < 1 {
			return Event{}, errors.New("start without an epoch ≥ 1")
		}
	case Skip, Answer:
		if w.Kind == Skip && w.Arms != nil {
			if w.ID == "" || w.Labeller == "" || w.Context == "" || w.C == nil || len(w.Arms) < 2 || len(w.Arms) != len(w.AI) || w.BothBad || w.Recheck != 0 {
				return Event{}, errors.New("skip of a set without id, labeller, context, c, or two or more arms with their indices ai")
			}
			e.C, e.Arms, e.AI = *w.C, w.Arms, w.AI
			break
		}
		if w.ID == "" || w.Labeller == "" || w.Context == "" || w.Arm1 == "" || w.Arm2 == "" ||
			w.C == nil || w.A1 == nil || w.A2 == nil {
			return Event{}, fmt.Errorf("%s without id, labeller, context, arm1, arm2, c, a1 or a2", w.Kind)
		}
		e.C, e.A1, e.A2 = *w.C, *w.A1, *w.A2
		if w.Kind == Answer {
			if w.Y == nil || (*w.Y != 0 && *w.Y != 0.5 && *w.Y != 1) {
				return Event{}, errors.New("answer without y ∈ {0, 0.5, 1}")
			}
			e.Y = *w.Y
			if e.BothBad && e.Y != 0.5 {
				return Event{}, errors.New("answer both_bad with y ≠ 0.5")
			}
		} else if w.BothBad || w.Recheck != 0 {
			return Event{}, errors.New("skip with both_bad or recheck")
		}
		if w.Recheck < 0 || w.Recheck >= w.Seq && w.Recheck != 0 {
			return Event{}, fmt.Errorf("recheck of line %d, not an earlier line", w.Recheck)
		}
	case Rank:
		if w.ID == "" || w.Labeller == "" || w.Context == "" || w.C == nil || w.Order == nil ||
			len(w.Arms) < 2 || len(w.Arms) != len(w.AI) || w.Recheck != 0 {
			return Event{}, errors.New("rank without id, labeller, context, c, order, or two or more arms with their indices ai")
		}
		e.C, e.Arms, e.AI, e.Order = *w.C, w.Arms, w.AI, *w.Order
		if err := checkOrder(e.Order, len(e.Arms), e.BothBad); err != nil {
			return Event{}, fmt.Errorf("rank: %v", err)
		}
	case Undo:
		if w.Labeller == "" || w.Undoes < 1 {
			return Event{}, errors.New("undo without labeller or undoes")
		}
	default:
		return Event{}, fmt.Errorf("unknown kind %q", w.Kind)
	}
	return e, nil
}

// checkOrder reports whether order is a valid answer for k arms shown: the
// position of the best arm, or every position from best to worst (k − 1
// entries name the last implicitly); empty exactly when every arm is bad.
func checkOrder(order []int, k int, bothBad bool) error {
	switch {
	case bothBad && len(order) != 0:
		return errors.New("order must be empty when every arm is bad")
	case bothBad:
		return nil
	case len(order) != 1 && len(order) != k-1 && len(order) != k:
		return fmt.Errorf("order has %d positions; want 1 (the best of %d), or %d or %d (a ranking, best first; the last position may be left out)", len(order), k, k-1, k)
	}
	seen := make([]bool, k)
	for _, p := range order {
		if p < 0 || p >= k || seen[p] {
			return fmt.Errorf("order %v: positions must be distinct, in 0 … %d", order, k-1)
		}
		seen[p] = true
	}
	return nil
}

// fullOrder returns the ranking of a Rank event with its implied last
// position appended (a ranking of k − 1 positions).
func fullOrder(order []int, k int) []int {
	if len(order) != k-1 || k == 2 {
		return order
	}
	seen := make([]bool, k)
	for _, p := range order {
		seen[p] = true
	}
	out := append([]int(nil), order...)
	for p, ok := range seen {
		if !ok {
			out = append(out, p)
		}
	}
	return out
}

// Pair is one duel outcome: Arm1 beat Arm2 in context C.
type Pair struct{ C, Winner, Loser int }

// ImpliedPairs returns the strict duel outcomes a Rank event implies, in a
// fixed order: for the best of k, the best arm beat each other arm (k − 1
// pairs, in the order shown); for a ranking, each arm beat every arm ranked
// below it (k(k − 1)/2 pairs, best first). Every arm bad implies none.
func (e *Event) ImpliedPairs() []Pair {
	if e.Kind != Rank || e.BothBad {
		return nil
	}
	k := len(e.AI)
	order := fullOrder(e.Order, k)
	var out []Pair
	if len(order) == 1 {
		w := order[0]
		for p := range k {
			if p != w {
				out = append(out, Pair{e.C, e.AI[w], e.AI[p]})
			}
		}
		return out
	}
	for i, pi := range order {
		for _, pj := range order[i+1:] {
			out = append(out, Pair{e.C, e.AI[pi], e.AI[pj]})
		}
	}
	return out
}
