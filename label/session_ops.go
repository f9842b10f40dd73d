package label

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// reply is a labeller's answer to a ticket: a skip, a duel's y (with
// bothBad for "both bad", y = ½), or a set's order (or bothBad: every arm
// bad).
type reply struct {
	labeller string // who answers, when the request says so; else anyone
	skip     bool
	y        float64
	bothBad  bool
	order    []int
}

// same reports whether the answered or skipped ticket t recorded r.
func (t *ticket) same(r reply) bool {
	if t.state == skipped || r.skip {
		return t.state == skipped && r.skip
	}
	if t.isSet() {
		return t.bothBad == r.bothBad && slices.Equal(t.order, fullOrder(r.order, len(t.arms)))
	}
	return t.y == r.y && t.bothBad == r.bothBad
}

// answer records r to ticket id. It appends the event to the log (synced)
// before changing the state. A repeat of the recorded answer changes
// nothing and reports repeated.
func (s *session) answer(id string, r reply) (seq int64, repeated bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tickets[id]
	if t == nil {
		if s.issuedBefore(id) {
			return 0, false, errorf(http.StatusConflict, "id", "query %s is no longer pending (it expired and was forgotten, or the server restarted); ask for the next query", id)
		}
		return 0, false, errorf(http.StatusNotFound, "id", "no query has id %q", id)
	}
	if r.labeller != "" && r.labeller != t.labeller {
		return 0, false, errorf(http.StatusConflict, "labeller", "query %s was shown to another labeller, not %s; ask for your next query", id, r.labeller)
	}
	switch t.state {
	case answered, skipped:
		if t.same(r) {
			return t.seq, true, nil
		}
		return 0, false, errorf(http.StatusConflict, "id", "query %s was already %s differently", id, map[ticketState]string{answered: "answered", skipped: "skipped"}[t.state])
	case superseded:
		return 0, false, errorf(http.StatusConflict, "id", "query %s expired or was replaced; ask for the next query", id)
	case undone:
		return 0, false, errorf(http.StatusConflict, "id", "the answer to query %s was undone; ask for the next query", id)
	}
	if err := checkReply(t, r, s.opt.Rank); err != nil {
		return 0, false, err
	}
	arms := s.cat.Arms(t.c)
	e := Event{Kind: Answer, Time: s.now(), ID: id, Labeller: t.labeller, Context: s.cat.Context(t.c), C: t.c}
	switch {
	case r.skip && t.isSet():
		e.Kind = Skip
		e.Arms, e.AI = armIDs(arms, t.arms), slices.Clone(t.arms)
	case r.skip:
		e.Kind = Skip
		e.Arm1, e.Arm2, e.A1, e.A2 = arms[t.arms[0]], arms[t.arms[1]], t.arms[0], t.arms[1]
	case t.isSet():
		e.Kind = Rank
		e.Arms, e.AI, e.Order, e.BothBad = armIDs(arms, t.arms), slices.Clone(t.arms), fullOrder(r.order, len(t.arms)), r.bothBad
	default:
		e.Arm1, e.Arm2, e.A1, e.A2 = arms[t.arms[0]], arms[t.arms[1]], t.arms[0], t.arms[1]
		e.Y, e.BothBad, e.Recheck = r.y, r.bothBad, t.recheck
	}
	if err := s.log.append(&e); err != nil {
		return 0, false, errorf(http.StatusInternalServerError, "", "%v", err)
	}
	s.apply(e, true)
	return e.Seq, false, nil
}

// issuedBefore reports whether id ("epoch-n") names a query issued by an
// earlier start of the log, or by this one: a query that was pending when
// the server stopped, or forgotten with its labeller (prune).
func (s *session) issuedBefore(id string) bool {
	es, ns, ok := strings.Cut(id, "-")
	e, err1 := strconv.Atoi(es)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || e < 1 || n < 1 {
		return false
	}
	return e < s.epoch || e == s.epoch && n <= s.issuedN
}

// checkReply reports a reply that does not fit the ticket's kind; rank
// (Options.Rank) asks for a ranking of a set, not only its best arm.
func checkReply(t *ticket, r reply, rank bool) error {
	switch {
	case r.skip:
		return nil
	case t.isSet() && r.order == nil && !r.bothBad:
		return errorf(http.StatusBadRequest, "order", "query %s shows %d arms: answer with \"order\" (the position of the best arm, or every position from best to worst) or \"both_bad\": true", t.id, len(t.arms))
	case t.isSet():
		if err := checkOrder(r.order, len(t.arms), r.bothBad); err != nil {
			return errorf(http.StatusBadRequest, "order", "%v", err)
		}
		if k := len(t.arms); rank && !r.bothBad && len(r.order) == 1 {
			return errorf(http.StatusBadRequest, "order", "this session ranks every arm shown (Options.Rank): \"order\" must have %d or %d positions, best first, not only the best", k-1, k)
		}
	case r.order != nil:
		return errorf(http.StatusBadRequest, "order", "query %s is a duel: answer with \"y\", not \"order\"", t.id)
	case r.bothBad && r.y != 0.5:
		return errorf(http.StatusBadRequest, "both_bad", "\"both_bad\": true needs \"y\": 0.5 (neither arm is preferred)")
	}
	return nil
}

func armIDs(arms []string, idx []int) []string {
	out := make([]string, len(idx))
	for i, a := range idx {
		out[i] = arms[a]
	}
	return out
}

// skip records a skip of ticket id by labeller (any labeller when empty;
// see answer).
func (s *session) skip(id, labeller string) (int64, bool, error) {
	return s.answer(id, reply{labeller: labeller, skip: true})
}

// undoneJSON describes an undone answer or skip.
type undoneJSON struct {
	ID      string   `json:"id"`
	Context string   `json:"context"`
	Arm1    string   `json:"arm1"`
	Arm2    string   `json:"arm2"`
	Arms    []string `json:"arms"`
	Y       *float64 `json:"y"` // null for a skip or a set
	Order   []int    `json:"order,omitempty"`
	BothBad bool     `json:"both_bad"`
	Seq     int64    `json:"seq"`
}

// undo undoes the last answer or skip of labeller id that is not undone
// yet; the query is shown to the labeller again next. It takes constant
// time: a proposer that used the undone answer keeps it until the rebuild
// that starts in the background replaces it (rebuild.go).
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
	arms := s.cat.Arms(t.c)
	u := undoneJSON{ID: t.id, Context: s.cat.Context(t.c), Seq: t.seq, Arms: armIDs(arms, t.arms),
		Arm1: arms[t.arms[0]], Arm2: arms[t.arms[1]], BothBad: t.bothBad, Order: t.order}
	if t.state == answered && !t.isSet() {
		y := t.y
		u.Y = &y
	}
	s.apply(e, true)
	s.kickRebuild()
	return u, nil
}

type progressJSON struct {
	Answered     int  `json:"answered"` // answers not undone, ties, both bad, rankings and rechecks included
	Ties         int  `json:"ties"`
	BothBad      int  `json:"both_bad"`
	Skipped      int  `json:"skipped"`
	Undone       int  `json:"undone"`
	Pending      int  `json:"pending"` // queries shown and not expired
	Budget       int  `json:"budget"`  // 0 without a budget
	Remaining    *int `json:"remaining"`
	Mine         int  `json:"mine"` // the labeller's answers not undone
	MineSkipped  int  `json:"mine_skipped"`
	Rechecks     int  `json:"rechecks"` // consistency checks answered (kept)
	RecheckAgree int  `json:"recheck_agree"`
}

func (s *session) progress(id string) progressJSON {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := progressJSON{Answered: s.kept, Ties: s.ties, BothBad: s.bothBad, Skipped: s.skips, Undone: s.undos,
		Pending: len(s.active(s.now())), Budget: s.opt.Budget, Rechecks: s.rechecks, RecheckAgree: s.recheckAgree}
	if s.opt.Budget > 0 {
		r := max(s.opt.Budget-s.kept, 0)
		p.Remaining = &r
	}
	if l := s.labellers[id]; l != nil {
		p.Mine = l.answers
		for _, t := range l.history {
			if t.state == skipped {
				p.MineSkipped++
			}
		}
	}
	return p
}

func formatY(y float64) string { return strconv.FormatFloat(y, 'g', -1, 64) }
