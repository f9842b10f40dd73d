package label

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Record is one row of an answers file (internal/poolfile's format, with
// its optional columns): the duel by identifier, y = 1 when Arm1 won, 0 when
// Arm2 won, ½ for a tie or both bad, who answered, and whether y = ½ means
// "both bad" and whether the answer was a consistency check.
type Record struct {
	Context, Arm1, Arm2 string
	Y                   float64
	Labeller            string
	BothBad, Recheck    bool
}

// keptAnswers returns the Answer and Rank events of events that no Undo
// event undoes, in log order.
func keptAnswers(events []Event) []Event {
	undone := map[int64]bool{}
	for _, e := range events {
		if e.Kind == Undo {
			undone[e.Undoes] = true
		}
	}
	var kept []Event
	for _, e := range events {
		if (e.Kind == Answer || e.Kind == Rank) && !undone[e.Seq] {
			kept = append(kept, e)
		}
	}
	return kept
}

// Records returns the kept answers of a log's events as answers-file rows,
// in log order: an answer is one row; a choice of the best of k arms, or a
// ranking, is the duels it implies (Event.ImpliedPairs), the winner as
// arm1; every arm of a set found bad is every pair of it with y = ½ and
// both_bad. Skips and undone answers are left out.
func Records(events []Event) []Record {
	var out []Record
	for _, e := range keptAnswers(events) {
		if e.Kind == Answer {
			out = append(out, Record{Context: e.Context, Arm1: e.Arm1, Arm2: e.Arm2, Y: e.Y, Labeller: e.Labeller, BothBad: e.BothBad, Recheck: e.Recheck != 0})
			continue
		}
		pos := map[int]int{}
		for i, a := range e.AI {
			pos[a] = i
		}
		if e.BothBad {
			for i := range e.Arms {
				for j := i + 1; j < len(e.Arms); j++ {
					out = append(out, Record{Context: e.Context, Arm1: e.Arms[i], Arm2: e.Arms[j], Y: 0.5, Labeller: e.Labeller, BothBad: true})
				}
			}
			continue
		}
		for _, p := range e.ImpliedPairs() {
			out = append(out, Record{Context: e.Context, Arm1: e.Arms[pos[p.Winner]], Arm2: e.Arms[pos[p.Loser]], Y: 1, Labeller: e.Labeller})
		}
	}
	return out
}

// WriteRecords writes recs as an answers CSV with the optional columns,
//
//	context,arm1,arm2,y,labeller,both_bad,recheck
//
// the format the -answers option of the other commands reads.
func WriteRecords(w io.Writer, recs []Record) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"context", "arm1", "arm2", "y", "labeller", "both_bad", "recheck"})
	for _, r := range recs {
		y := "0.5"
		switch r.Y {
		case 0:
			y = "0"
		case 1:
			y = "1"
		}
		cw.Write([]string{r.Context, r.Arm1, r.Arm2, y, r.Labeller, flag(r.BothBad), flag(r.Recheck)})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("label: writing answers: %v", err)
	}
	return nil
}

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// WriteAnswers writes the kept answers of a log's events (Records) as an
// answers CSV (WriteRecords).
func WriteAnswers(w io.Writer, events []Event) error { return WriteRecords(w, Records(events)) }

// ExportLog reads the answer log in dir without changing it and writes its
// kept answers to w as WriteAnswers does, after the prior answers (those the
// proposer was given before the session; nil for none). A torn last line is
// left out and reported by the returned Repair. Unlike New, which starts a
// session in a new folder, it refuses a folder without a log; with cat not
// nil it refuses, as New does, a log whose contexts and arms are not those
// of cat (another catalogue's log), naming the line.
func ExportLog(dir string, cat Catalogue, prior []Record, w io.Writer) (*Repair, error) {
	path := filepath.Join(dir, LogName)
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("label: %s has no answer log %s: name the folder of nadb serve -log", dir, LogName)
		}
		return nil, fmt.Errorf("label: %v", err)
	}
	events, rep, err := ReadLog(dir)
	if err != nil {
		return nil, err
	}
	if cat != nil {
		ix, err := newIndex(cat)
		if err != nil {
			return nil, err
		}
		for _, e := range events {
			if e.Kind != Answer && e.Kind != Rank && e.Kind != Skip {
				continue
			}
			if err := ix.checkIDs(e); err != nil {
				return nil, fmt.Errorf("label: %s line %d: %v", path, e.Seq, err)
			}
		}
	}
	return rep, WriteRecords(w, append(append([]Record(nil), prior...), Records(events)...))
}
