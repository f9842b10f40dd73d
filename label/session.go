package label

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/neural-adb/nadb/algorithms"
)

type ticketState uint8

const (
	pending    ticketState = iota // shown to its labeller, not answered
	answered                      // answered (Y), logged at seq
	skipped                       // skipped, logged at seq
	superseded                    // expired and shown to another labeller, or released by an undo
	undone                        // answered or skipped, then undone
)

// ticket is one query shown to one labeller.
type ticket struct {
	id       string
	labeller string
	q        algorithms.Query
	reason   Reason
	issued   time.Time // when issued or last shown again
	state    ticketState
	seq      int64   // answered, skipped, undone: the log line of the answer or skip
	y        float64 // answered: the answer
}

type labeller struct {
	holding *ticket            // the pending ticket shown to the labeller, if any
	judged  []algorithms.Query // tied or skipped duels, never proposed to the labeller again
	history []*ticket          // answered and skipped tickets not undone, in order
	redo    *algorithms.Query  // an undone duel to show again
	answers int                // kept answers (ties included)
}

// session is the labelling state: the proposer, the tickets and the log.
// Every method takes the lock; appends to the log happen under it, so the
// log's order is the order the state changed in.
type session struct {
	mu          sync.Mutex
	cat         Catalogue
	ix          *index
	newProposer func() (Proposer, error)
	prop        Proposer
	log         *Log
	now         func() time.Time
	timeout     time.Duration
	budget      int

	epoch, issuedN int
	tickets        map[string]*ticket
	bySeq          map[int64]*ticket
	labellers      map[string]*labeller
	events         []Event
	kept, ties     int // answers not undone; of them ties
	skips, undos   int // skips not undone; undo events
}

// apiError is an error with its HTTP status and, for bad input, the field.
type apiError struct {
	status int
	field  string
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func errorf(status int, field, format string, args ...any) *apiError {
	return &apiError{status: status, field: field, msg: fmt.Sprintf(format, args...)}
}

func (s *session) labeller(id string) *labeller {
	l := s.labellers[id]
	if l == nil {
		l = &labeller{}
		s.labellers[id] = l
	}
	return l
}

// apply changes the state by a checked event; feed says whether to feed a
// strict answer to the proposer (replay feeds them all at the end).
func (s *session) apply(e Event, feed bool) {
	s.events = append(s.events, e)
	switch e.Kind {
	case Start:
		s.epoch = e.Epoch
	case Answer, Skip:
		t := s.tickets[e.ID]
		if t == nil {
			t = &ticket{id: e.ID, labeller: e.Labeller, q: algorithms.Query{Context: e.C, Arm1: e.A1, Arm2: e.A2}, reason: NoReason}
			s.tickets[e.ID] = t
		}
		t.seq = e.Seq
		s.bySeq[e.Seq] = t
		l := s.labeller(e.Labeller)
		if l.holding == t {
			l.holding = nil
		}
		l.history = append(l.history, t)
		l.redo = nil
		if e.Kind == Skip {
			t.state = skipped
			s.skips++
			l.judged = append(l.judged, t.q)
			return
		}
		t.state, t.y = answered, e.Y
		s.kept++
		l.answers++
		if e.Y == 0.5 {
			s.ties++
			l.judged = append(l.judged, t.q)
		} else if feed {
			s.prop.Observe(t.q, algorithms.Feedback(e.Y))
		}
	case Undo:
		t := s.bySeq[e.Undoes]
		l := s.labellers[e.Labeller]
		l.history = l.history[:len(l.history)-1]
		s.undos++
		if t.state == skipped {
			s.skips--
		} else {
			s.kept--
			l.answers--
		}
		if t.state == skipped || t.y == 0.5 {
			if t.state == answered {
				s.ties--
			}
			i := slices.IndexFunc(l.judged, func(q algorithms.Query) bool { return q == t.q })
			l.judged = slices.Delete(l.judged, i, i+1)
		}
		t.state = undone
		if h := l.holding; h != nil {
			h.state = superseded
			l.holding = nil
		}
		q := t.q
		l.redo = &q
	}
}

// active returns the pending tickets that have not expired.
func (s *session) active(now time.Time) []*ticket {
	var ts []*ticket
	for _, l := range s.labellers {
		if t := l.holding; t != nil && now.Sub(t.issued) < s.timeout {
			ts = append(ts, t)
		}
	}
	// Map order is random: sort so that the proposer sees a deterministic list.
	slices.SortFunc(ts, func(a, b *ticket) int { return cmp.Or(a.issued.Compare(b.issued), cmp.Compare(a.id, b.id)) })
	return ts
}

// next returns the ticket to show labeller id, or nil when the session is
// done, with a message saying why.
func (s *session) next(id string) (*ticket, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	l := s.labeller(id)
	if t := l.holding; t != nil {
		t.issued = now
		return snap(t), "", nil
	}
	if s.budget > 0 && s.kept >= s.budget {
		return nil, fmt.Sprintf("the budget of %d answers is reached", s.budget), nil
	}
	active := s.active(now)
	if s.budget > 0 && s.kept+len(active) >= s.budget {
		return nil, "", errorf(http.StatusServiceUnavailable, "", "the rest of the budget is shown to other labellers; try again later")
	}
	exclude := make([]algorithms.Query, 0, len(active)+len(l.judged))
	for _, t := range active {
		exclude = append(exclude, t.q)
	}
	inUse := func(q algorithms.Query) bool {
		return slices.ContainsFunc(exclude, func(p algorithms.Query) bool { return sameDuel(p, q) })
	}
	if l.redo != nil && !inUse(*l.redo) {
		q := *l.redo
		l.redo = nil
		return snap(s.issue(id, l, q, NoReason, now)), "", nil
	}
	exclude = append(exclude, l.judged...)
	q, r, ok := s.prop.Propose(exclude)
	if !ok {
		if len(active) > 0 {
			return nil, "", errorf(http.StatusServiceUnavailable, "", "every remaining query is shown to another labeller; try again later")
		}
		if len(l.judged) > 0 {
			return nil, "the proposer has no more queries that labeller " + id + " did not tie or skip", nil
		}
		return nil, "the proposer has no more queries", nil
	}
	if err := validQuery(s.cat, q); err != nil {
		return nil, "", errorf(http.StatusInternalServerError, "", "label: the proposer proposed an invalid query: %v", err)
	}
	if inUse(q) {
		return nil, "", errorf(http.StatusInternalServerError, "", "label: the proposer proposed an excluded query %+v", q)
	}
	return snap(s.issue(id, l, q, r, now)), "", nil
}

// snap returns a copy of t for use outside the lock.
func snap(t *ticket) *ticket { c := *t; return &c }

// issue shows q to labeller id, superseding expired tickets of the same duel.
func (s *session) issue(id string, l *labeller, q algorithms.Query, r Reason, now time.Time) *ticket {
	for _, o := range s.labellers {
		if h := o.holding; h != nil && sameDuel(h.q, q) {
			h.state = superseded
			o.holding = nil
		}
	}
	s.issuedN++
	t := &ticket{id: strconv.Itoa(s.epoch) + "-" + strconv.Itoa(s.issuedN), labeller: id, q: q, reason: r, issued: now}
	s.tickets[t.id] = t
	l.holding = t
	return t
}
