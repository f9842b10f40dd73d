package label

import (
	"net/http"
	"strconv"
)

// answer records the answer y, or a skip, to ticket id. It appends the event
// to the log (synced) before changing the state. A repeat of the recorded
// answer changes nothing and reports repeated.
func (s *session) answer(id string, y float64, skip bool) (seq int64, repeated bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tickets[id]
	if t == nil {
		return 0, false, errorf(http.StatusNotFound, "id", "no query has id %q", id)
	}
	switch t.state {
	case answered:
		if !skip && y == t.y {
			return t.seq, true, nil
		}
		return 0, false, errorf(http.StatusConflict, "id", "query %s was already answered with y = %s", id, formatY(t.y))
	case skipped:
		if skip {
			return t.seq, true, nil
		}
		return 0, false, errorf(http.StatusConflict, "id", "query %s was already skipped", id)
	case superseded:
		return 0, false, errorf(http.StatusConflict, "id", "query %s expired or was replaced; ask for the next query", id)
	case undone:
		return 0, false, errorf(http.StatusConflict, "id", "the answer to query %s was undone; ask for the next query", id)
	}
	c, a1, a2 := t.q.Context, t.q.Arm1, t.q.Arm2
	arms := s.cat.Arms(c)
	e := Event{Kind: Answer, Time: s.now(), ID: id, Labeller: t.labeller,
		Context: s.cat.Context(c), Arm1: arms[a1], Arm2: arms[a2], C: c, A1: a1, A2: a2, Y: y}
	if skip {
		e.Kind, e.Y = Skip, 0
	}
	if err := s.log.append(&e); err != nil {
		return 0, false, errorf(http.StatusInternalServerError, "", "%v", err)
	}
	s.apply(e, true)
	return e.Seq, false, nil
}

// undone describes an undone answer or skip.
type undoneJSON struct {
	ID      string   `json:"id"`
	Context string   `json:"context"`
	Arm1    string   `json:"arm1"`
	Arm2    string   `json:"arm2"`
	Y       *float64 `json:"y"` // null for a skip
	Seq     int64    `json:"seq"`
}

// undo undoes the last answer or skip of labeller id that is not undone
// yet; the duel is shown to the labeller again next.
func (s *session) undo(id string) (undoneJSON, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.labellers[id]
	if l == nil || len(l.history) == 0 {
		return undoneJSON{}, errorf(http.StatusConflict, "labeller", "labeller %q has nothing to undo", id)
	}
	t := l.history[len(l.history)-1]
	e := Event{Kind: Undo, Time: s.now(), Labeller: id, Undoes: t.seq}
	if err := s.log.append(&e); err != nil {
		return undoneJSON{}, errorf(http.StatusInternalServerError, "", "%v", err)
	}
	strict := t.state == answered && t.y != 0.5
	u := undoneJSON{ID: t.id, Context: s.cat.Context(t.q.Context), Seq: t.seq,
		Arm1: s.cat.Arms(t.q.Context)[t.q.Arm1], Arm2: s.cat.Arms(t.q.Context)[t.q.Arm2]}
	if t.state == answered {
		y := t.y
		u.Y = &y
	}
	s.apply(e, true)
	if strict {
		if err := s.rebuild(); err != nil {
			return u, errorf(http.StatusInternalServerError, "", "undo logged, but %v", err)
		}
	}
	return u, nil
}

type progressJSON struct {
	Answered  int  `json:"answered"` // answers not undone, ties included
	Ties      int  `json:"ties"`
	Skipped   int  `json:"skipped"`
	Undone    int  `json:"undone"`
	Pending   int  `json:"pending"` // queries shown and not expired
	Budget    int  `json:"budget"`  // 0 without a budget
	Remaining *int `json:"remaining"`
	Mine      int  `json:"mine"` // the labeller's answers not undone
}

func (s *session) progress(id string) progressJSON {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := progressJSON{Answered: s.kept, Ties: s.ties, Skipped: s.skips, Undone: s.undos,
		Pending: len(s.active(s.now())), Budget: s.budget}
	if s.budget > 0 {
		r := max(s.budget-s.kept, 0)
		p.Remaining = &r
	}
	if l := s.labellers[id]; l != nil {
		p.Mine = l.answers
	}
	return p
}

func formatY(y float64) string { return strconv.FormatFloat(y, 'g', -1, 64) }
