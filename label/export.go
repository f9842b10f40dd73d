package label

import (
	"encoding/csv"
	"fmt"
	"io"
)

// keptAnswers returns the Answer events of events that no Undo event
// undoes, in log order.
func keptAnswers(events []Event) []Event {
	undone := map[int64]bool{}
	for _, e := range events {
		if e.Kind == Undo {
			undone[e.Undoes] = true
		}
	}
	var kept []Event
	for _, e := range events {
		if e.Kind == Answer && !undone[e.Seq] {
			kept = append(kept, e)
		}
	}
	return kept
}

// WriteAnswers writes the kept answers of a log's events (ties included;
// skips and undone answers left out) in log order as an answers CSV,
//
//	context,arm1,arm2,y
//
// with y = 1 when arm1 won, 0 when arm2 won and 0.5 for a tie, the format
// the -answers option of the other commands reads.
func WriteAnswers(w io.Writer, events []Event) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"context", "arm1", "arm2", "y"})
	for _, e := range keptAnswers(events) {
		y := "0.5"
		switch e.Y {
		case 0:
			y = "0"
		case 1:
			y = "1"
		}
		cw.Write([]string{e.Context, e.Arm1, e.Arm2, y})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("label: writing answers: %v", err)
	}
	return nil
}

// ExportLog reads the answer log in dir without changing it and writes its
// kept answers to w as WriteAnswers does. A torn last line is left out and
// reported by the returned Repair.
func ExportLog(dir string, w io.Writer) (*Repair, error) {
	events, rep, err := ReadLog(dir)
	if err != nil {
		return nil, err
	}
	return rep, WriteAnswers(w, events)
}
