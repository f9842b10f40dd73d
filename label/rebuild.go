package label

import (
	"fmt"
	"time"
)

// Undo without stalling the session. A proposer cannot forget an answer, so
// an undone answer it has used can only leave it by rebuilding: a new
// proposer (the constructor given to New) fed every kept answer in log
// order, as a restart does. That takes as long as replaying every answer
// (seconds with a neural learner after a few thousand), so it never runs
// under the session's lock: undo logs its event and updates the counts in
// constant time, counts the undone answer as stale, and starts the rebuild
// in the background if none runs. A rebuild never holds the session's
// locks but to take a snapshot and to swap the proposer in.
//
// The rebuild takes a snapshot of the log's events (the slice is only ever
// appended to, so its first n events never change), feeds the kept answers
// to a new proposer outside the lock, then catches up with the events that
// arrived meanwhile, in chunks outside the lock until fewer than catchUp
// remain, which it feeds under the lock before swapping the new proposer
// in. Until then the session keeps answering with the old proposer, which
// also receives every new answer. A rebuild that follows another waits as
// long as the previous one took. An undo that arrives while the rebuild
// runs, of an answer the new proposer has already used, leaves that
// proposer stale by one answer when it is swapped in, and the next rebuild
// starts at once: the model is eventually exactly the kept answers, and
// /api/summary says how many undone answers it still holds.

// catchUp is the number of events a rebuild feeds under the lock before it
// swaps the new proposer in.
const catchUp = 8

// A rebuild that follows another waits as long as the previous one took
// (but at most maxPause), so that under a steady stream of undos rebuilding
// takes at most half of one core from the labellers' requests.
const maxPause = 30 * time.Second

// kickRebuild starts the background rebuild when the proposer holds undone
// answers and no rebuild runs. The caller holds s.mu.
func (s *session) kickRebuild() {
	if s.stale == 0 || s.rebuilding || s.closing.Load() {
		return
	}
	s.rebuilding = true
	s.wg.Add(1)
	go s.rebuildLoop()
}

// rebuildLoop rebuilds until the proposer holds no undone answer.
func (s *session) rebuildLoop() {
	defer s.wg.Done()
	var took time.Duration
	for {
		if took > 0 && !s.pause(min(took, maxPause)) {
			s.mu.Lock()
			s.rebuilding = false
			s.mu.Unlock()
			return
		}
		s.mu.Lock()
		if s.stale == 0 || s.closing.Load() {
			s.rebuilding = false
			s.mu.Unlock()
			return
		}
		events := s.events[:len(s.events):len(s.events)]
		s.mu.Unlock()

		start := time.Now()
		err := s.rebuildOnce(events)
		took = time.Since(start)

		if err != nil {
			s.mu.Lock()
			s.rebuilding, s.rebuildErr = false, err
			s.mu.Unlock()
			s.logger.Error(err.Error())
			return
		}
	}
}

// pause waits d, or until the session closes (false).
func (s *session) pause(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-s.done:
		return false
	}
}

// rebuildOnce builds a proposer from events (a snapshot of s.events),
// catches up with the events logged since and swaps it in.
func (s *session) rebuildOnce(events []Event) error {
	p, err := s.newProposer()
	if err != nil {
		return fmt.Errorf("label: rebuilding the proposer after an undo: %v", err)
	}
	r := &replayer{p: p}
	if !r.feed(events, 0, &s.closing) {
		return nil
	}
	for {
		if s.closing.Load() {
			return nil
		}
		s.mu.Lock()
		events = s.events[:len(s.events):len(s.events)]
		s.mu.Unlock()
		if len(events)-r.next <= catchUp && s.swap(r) {
			return nil
		}
		if !r.feed(events, r.next, &s.closing) {
			return nil
		}
	}
}

// swap feeds r's proposer the last few events and makes it the session's,
// unless more than catchUp events are left to feed (false).
func (s *session) swap(r *replayer) bool {
	s.pmu.Lock()
	defer s.pmu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.events)-r.next > catchUp {
		return false
	}
	r.feed(s.events[:len(s.events)], r.next, nil)
	s.prop, s.fedPairs, s.stale = r.p, r.pairs, r.stale
	s.feedQ, s.fedSeq = nil, int64(len(s.events))
	s.rebuilds++
	s.rebuildErr = nil
	return true
}

// replayer feeds a proposer the kept answers of a log's events.
type replayer struct {
	p     Proposer
	next  int            // events[:next] are fed
	fed   map[int64]bool // the events fed (by Seq), for undos that come later
	pairs int            // strict duel outcomes fed
	stale int            // fed events undone by an undo fed after them
}

// feed feeds the kept answers of events[from:], an answer being kept when
// no undo in events undoes it. It returns false when stop was set.
func (r *replayer) feed(events []Event, from int, stop interface{ Load() bool }) bool {
	if r.fed == nil {
		r.fed = map[int64]bool{}
	}
	undone := map[int64]bool{}
	for _, e := range events[from:] {
		if e.Kind == Undo {
			undone[e.Undoes] = true
		}
	}
	for i := from; i < len(events); i++ {
		if stop != nil && i%64 == 0 && stop.Load() {
			return false
		}
		e := &events[i]
		switch {
		case e.Kind == Undo && r.fed[e.Undoes]:
			r.stale++ // an answer fed before this undo arrived
		case undone[e.Seq]:
		case feedable(e):
			r.pairs += feed(r.p, e)
			r.fed[e.Seq] = true
		}
	}
	r.next = len(events)
	return true
}
