package label

import (
	"fmt"

	"github.com/neural-adb/nadb/algorithms"
)

// replay applies the events read from the log, checking them against the
// catalogue, then feeds the kept answers to a new proposer.
func (s *session) replay(path string, events []Event) error {
	for _, e := range events {
		if err := s.check(e); err != nil {
			return fmt.Errorf("label: %s line %d: %v", path, e.Seq, err)
		}
		s.apply(e, false)
	}
	return s.rebuild()
}

// check validates a logged event against the catalogue and the state.
func (s *session) check(e Event) error {
	switch e.Kind {
	case Start:
		if e.Epoch <= s.epoch {
			return fmt.Errorf("start epoch %d after epoch %d", e.Epoch, s.epoch)
		}
	case Answer:
		return s.checkDuel(e)
	case Rank, Skip:
		if e.Arms == nil {
			return s.checkDuel(e)
		}
		if err := s.ix.checkIDs(e); err != nil {
			return err
		}
		if err := validSet(s.cat, e.C, e.AI); err != nil {
			return err
		}
		if _, dup := s.tickets[e.ID]; dup {
			return fmt.Errorf("query id %q answered twice", e.ID)
		}
	case Undo:
		t := s.bySeq[e.Undoes]
		l := s.labellers[e.Labeller]
		if t == nil || l == nil || len(l.history) == 0 || l.history[len(l.history)-1] != t {
			return fmt.Errorf("undo of line %d, which is not the last answer or skip of labeller %q", e.Undoes, e.Labeller)
		}
	}
	return nil
}

// checkDuel validates the Answer or Skip of a duel against the catalogue
// and the state.
func (s *session) checkDuel(e Event) error {
	if err := s.ix.checkDuelIDs(e); err != nil {
		return err
	}
	q := algorithms.Query{Context: e.C, Arm1: e.A1, Arm2: e.A2}
	if q.Arm1 == q.Arm2 {
		return fmt.Errorf("duel of arm %q with itself", e.Arm1)
	}
	if _, dup := s.tickets[e.ID]; dup {
		return fmt.Errorf("query id %q answered twice", e.ID)
	}
	if e.Recheck != 0 {
		t := s.bySeq[e.Recheck]
		if t == nil || t.state != answered || t.isSet() || t.y == 0.5 || t.recheck != 0 || t.rechecked || t.labeller != e.Labeller ||
			duelOf(t.c, t.arms[0], t.arms[1]) != duelOf(e.C, e.A1, e.A2) {
			return fmt.Errorf("recheck of line %d, which is no kept strict answer of labeller %q to the same duel", e.Recheck, e.Labeller)
		}
	}
	return nil
}

// rebuild makes a new proposer and feeds it the kept answers in log order
// (when the server starts; after an undo, rebuild.go does it in the
// background).
func (s *session) rebuild() error {
	p, err := s.newProposer()
	if err != nil {
		return fmt.Errorf("label: making the proposer: %v", err)
	}
	r := &replayer{p: p}
	r.feed(s.events, 0, nil)
	s.prop, s.fedPairs, s.stale = p, r.pairs, r.stale
	s.feedQ, s.fedSeq = nil, int64(len(s.events))
	return nil
}

// start logs the Start event of this run.
func (s *session) start() error {
	e := Event{Kind: Start, Time: s.now(), Epoch: s.epoch + 1}
	if err := s.log.append(&e); err != nil {
		return err
	}
	s.apply(e, true)
	return nil
}

// checkIDs checks that a logged answer, ranking or skip names contexts and
// arms of the catalogue, with the indices the log gives them: a log of
// another catalogue fails.
func (ix *index) checkIDs(e Event) error {
	if e.Kind == Answer || e.Arms == nil {
		return ix.checkDuelIDs(e)
	}
	c, ok := ix.context[e.Context]
	if !ok || c != e.C {
		return fmt.Errorf("context %q is not context %d of the catalogue: the log belongs to another catalogue", e.Context, e.C)
	}
	for i, id := range e.Arms {
		if a, ok := ix.arm[c][id]; !ok || a != e.AI[i] {
			return fmt.Errorf("arm %q is not arm %d of context %q in the catalogue: the log belongs to another catalogue", id, e.AI[i], e.Context)
		}
	}
	return nil
}

// checkDuelIDs checks checkIDs's condition for the duel of an answer or a
// skip.
func (ix *index) checkDuelIDs(e Event) error {
	q, err := ix.duel(e.Context, e.Arm1, e.Arm2)
	if err != nil {
		return fmt.Errorf("%v: the log belongs to another catalogue", err)
	}
	if q != (algorithms.Query{Context: e.C, Arm1: e.A1, Arm2: e.A2}) {
		return fmt.Errorf("duel (%q, %q, %q) has indices (%d, %d, %d) in the catalogue but (%d, %d, %d) in the log: the log belongs to another catalogue",
			e.Context, e.Arm1, e.Arm2, q.Context, q.Arm1, q.Arm2, e.C, e.A1, e.A2)
	}
	return nil
}
