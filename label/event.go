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
// every line as "v".
const FormatVersion = 1

// Kind is the kind of a log event.
type Kind string

// Event kinds.
const (
	Start  Kind = "start"  // the server started; Epoch numbers the starts
	Answer Kind = "answer" // a labeller answered query ID with Y
	Skip   Kind = "skip"   // a labeller skipped query ID
	Undo   Kind = "undo"   // a labeller undid the answer or skip of line Undoes
)

// Event is one line of the answer log.
type Event struct {
	Seq  int64 // line number, from 1
	Kind Kind
	Time time.Time

	Epoch int // Start: 1 for the first start of the log, then 2, …

	ID       string // Answer, Skip: the query's identifier
	Labeller string // Answer, Skip, Undo
	// Answer, Skip: the duel, by identifier and by index.
	Context, Arm1, Arm2 string
	C, A1, A2           int
	Y                   float64 // Answer: 1 when Arm1 won, 0 when Arm2 won, ½ for a tie

	Undoes int64 // Undo: the Seq of the undone Answer or Skip
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
	if e.Kind == Answer || e.Kind == Skip {
		c, a1, a2 := e.C, e.A1, e.A2
		w.Context, w.Arm1, w.Arm2, w.C, w.A1, w.A2 = e.Context, e.Arm1, e.Arm2, &c, &a1, &a2
	}
	if e.Kind == Answer {
		y := e.Y
		w.Y = &y
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
	if w.V != FormatVersion {
		return Event{}, fmt.Errorf("format version %d; this program reads version %d", w.V, FormatVersion)
	}
	t, err := time.Parse(time.RFC3339Nano, w.Time)
	if err != nil {
		return Event{}, fmt.Errorf("time %q: %v", w.Time, err)
	}
	e := Event{Seq: w.Seq, Kind: w.Kind, Time: t, Epoch: w.Epoch, ID: w.ID, Labeller: w.Labeller,
		Context: w.Context, Arm1: w.Arm1, Arm2: w.Arm2, Undoes: w.Undoes}
	switch w.Kind {
	case Start:
		if w.Epoch < 1 {
			return Event{}, errors.New("start without an epoch ≥ 1")
		}
	case Answer, Skip:
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
