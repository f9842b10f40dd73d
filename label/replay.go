package label

import (
	"fmt"

	"github.com/neural-adb/nadb/algorithms"
)

// replay applies the events read from the log, checking them against the
// catalogue, then feeds the kept strict answers to a new proposer.
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
	case Answer, Skip:
		q, err := s.ix.duel(e.Context, e.Arm1, e.Arm2)
		if err != nil {
			return fmt.Errorf("%v: the log belongs to another catalogue", err)
		}
		if q != (algorithms.Query{Context: e.C, Arm1: e.A1, Arm2: e.A2}) {
			return fmt.Errorf("duel (%q, %q, %q) has indices (%d, %d, %d) in the catalogue but (%d, %d, %d) in the log: the log belongs to another catalogue",
				e.Context, e.Arm1, e.Arm2, q.Context, q.Arm1, q.Arm2, e.C, e.A1, e.A2)
		}
		if q.Arm1 == q.Arm2 {
			return fmt.Errorf("duel of arm %q with itself", e.Arm1)
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

// rebuild makes a new proposer and feeds it the kept strict answers in log
// order.
func (s *session) rebuild() error {
	p, err := s.newProposer()
	if err != nil {
		return fmt.Errorf("label: making the proposer: %v", err)
	}
	for _, e := range keptAnswers(s.events) {
		if e.Y != 0.5 {
			p.Observe(algorithms.Query{Context: e.C, Arm1: e.A1, Arm2: e.A2}, algorithms.Feedback(e.Y))
		}
	}
	s.prop = p
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
