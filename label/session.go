package label

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neural-adb/nadb/algorithms"
)

type ticketState uint8

const (
	pending    ticketState = iota // shown to its labeller, not answered
	answered                      // answered (a duel's y, or a set's order), logged at seq
	skipped                       // skipped, logged at seq
	superseded                    // expired and shown to another labeller, or released by an undo
	undone                        // answered or skipped, then undone
)

// duel is a context and an unordered arm pair (a < b).
type duel struct{ c, a, b int }

func duelOf(c, a1, a2 int) duel { return duel{c, min(a1, a2), max(a1, a2)} }

// ticket is one query shown to one labeller: a duel, or several arms of one
// context (best of k, ranking).
type ticket struct {
	id       string
	labeller string
	c        int
	arms     []int // the arms shown, in order; two for a duel
	reason   Reason
	issued   time.Time // when issued or last shown again
	state    ticketState
	seq      int64 // answered, skipped, undone: the log line of the answer or skip

	// answered:
	y         float64 // a duel's answer
	bothBad   bool
	order     []int // a set's answer (positions in arms)
	recheck   int64 // a duel shown again as a consistency check of the answer at this line
	fed       int   // strict duel outcomes fed to the proposer (0: a tie, skip, recheck)
	rechecked bool  // a strict answer that a kept recheck repeated
	set       bool  // shown as a set (best of k, ranking), not a duel
}

// isSet reports whether t shows arms as a set (best of k, ranking) rather
// than a duel.
func (t *ticket) isSet() bool { return t.set }

// query returns a duel ticket's query.
func (t *ticket) query() algorithms.Query {
	return algorithms.Query{Context: t.c, Arm1: t.arms[0], Arm2: t.arms[1]}
}

// duels returns every unordered pair of t's arms.
func (t *ticket) duels() []duel {
	var ds []duel
	for i, a := range t.arms {
		for _, b := range t.arms[i+1:] {
			ds = append(ds, duelOf(t.c, a, b))
		}
	}
	return ds
}

// winner returns the arm a strict duel answer preferred, or −1.
func (t *ticket) winner() int {
	switch {
	case t.state != answered || t.isSet() || t.y == 0.5:
		return -1
	case t.y == 1:
		return t.arms[0]
	default:
		return t.arms[1]
	}
}

type labeller struct {
	holding  *ticket      // the pending ticket shown to the labeller, if any
	seen     map[duel]int // duels the labeller answered, ranked or skipped (kept): not proposed to them again
	history  []*ticket    // answered and skipped tickets not undone, in order
	redo     *ticket      // an undone ticket to show again
	answers  int          // kept answers (ties, rankings and rechecks included)
	rechecks int          // kept recheck answers
	agree    int          // of them, those that repeated the first answer's winner
	client   string       // the client address of the labeller's last request
	rng      *rand.Rand   // recheck choices: stream (Options.Seed, hash of the labeller id)
}

// session is the labelling state: the proposer, the tickets and the log.
// Every method takes the lock; appends to the log happen under it, so the
// log's order is the order the state changed in. The proposer is rebuilt
// outside the lock after an undo (rebuild.go).
type session struct {
	mu          sync.Mutex
	cat         Catalogue
	ix          *index
	newProposer func() (Proposer, error)
	prop        Proposer
	log         *Log
	logger      *slog.Logger
	now         func() time.Time
	opt         Options

	epoch, issuedN int
	tickets        map[string]*ticket
	bySeq          map[int64]*ticket
	labellers      map[string]*labeller
	clients        map[string]*client
	events         []Event
	kept, ties     int // answers not undone (ties, both bad, rankings, rechecks included); of them ties and both bad
	bothBad        int
	skips, undos   int // skips not undone; undo events
	rechecks       int // kept recheck answers
	recheckAgree   int

	// The proposer's answers (rebuild.go): fedPairs strict duel outcomes of
	// this session it has used, stale of them (counted by event) undone
	// since, which the next rebuild removes.
	fedPairs   int
	stale      int
	rebuilding bool
	rebuilds   int   // rebuilds swapped in
	rebuildErr error // the last failed rebuild, if any
	closing    atomic.Bool
	done       chan struct{} // closed when the server closes
	wg         sync.WaitGroup
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
		h := fnv.New64a()
		h.Write([]byte(id))
		l = &labeller{seen: map[duel]int{}, rng: rand.New(rand.NewPCG(s.opt.Seed, h.Sum64()))}
		s.labellers[id] = l
	}
	return l
}

// feedable reports whether the event e, kept, feeds the proposer: a strict
// duel answer that is no recheck, or a ranking with a best arm.
func feedable(e *Event) bool {
	switch e.Kind {
	case Answer:
		return e.Y != 0.5 && e.Recheck == 0
	case Rank:
		return !e.BothBad
	}
	return false
}

// feed gives the proposer p the strict duel outcomes of the kept event e
// and returns how many.
func feed(p Proposer, e *Event) int {
	switch {
	case !feedable(e):
		return 0
	case e.Kind == Answer:
		p.Observe(algorithms.Query{Context: e.C, Arm1: e.A1, Arm2: e.A2}, algorithms.Feedback(e.Y))
		return 1
	}
	pairs := e.ImpliedPairs()
	for _, pr := range pairs {
		p.Observe(algorithms.Query{Context: pr.C, Arm1: pr.Winner, Arm2: pr.Loser}, algorithms.Arm1Won)
	}
	return len(pairs)
}

// apply changes the state by a checked event; live says whether to feed the
// proposer (replay feeds the kept answers at the end).
func (s *session) apply(e Event, live bool) {
	s.events = append(s.events, e)
	switch e.Kind {
	case Start:
		s.epoch = e.Epoch
	case Answer, Skip, Rank:
		t := s.tickets[e.ID]
		if t == nil {
			t = &ticket{id: e.ID, labeller: e.Labeller, c: e.C, reason: NoReason}
			if e.Arms != nil { // a rank, or the skip of a set
				t.arms, t.set = e.AI, true
			} else {
				t.arms = []int{e.A1, e.A2}
			}
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
			s.see(l, t, 1)
			return
		}
		t.state, t.y, t.bothBad, t.recheck = answered, e.Y, e.BothBad, e.Recheck
		if e.Kind == Rank {
			t.order = e.Order
			if t.order == nil {
				t.order = []int{}
			}
		}
		s.kept++
		l.answers++
		if e.BothBad {
			s.bothBad++
		} else if e.Kind == Answer && e.Y == 0.5 {
			s.ties++
		}
		if e.Recheck != 0 {
			first := s.bySeq[e.Recheck]
			first.rechecked = true
			s.rechecks++
			l.rechecks++
			if t.winner() >= 0 && t.winner() == first.winner() {
				s.recheckAgree++
				l.agree++
			}
			return
		}
		s.see(l, t, 1)
		if live {
			t.fed = feed(s.prop, &e)
			s.fedPairs += t.fed
		} else if feedable(&e) {
			t.fed = 1 // counted again when the proposer is rebuilt
		}
	case Undo:
		t := s.bySeq[e.Undoes]
		l := s.labellers[e.Labeller]
		l.history = l.history[:len(l.history)-1]
		s.undos++
		switch {
		case t.state == skipped:
			s.skips--
			s.see(l, t, -1)
		case t.recheck != 0:
			s.kept--
			l.answers--
			first := s.bySeq[t.recheck]
			first.rechecked = false
			s.rechecks--
			l.rechecks--
			if t.winner() >= 0 && t.winner() == first.winner() {
				s.recheckAgree--
				l.agree--
			}
		default:
			s.kept--
			l.answers--
			s.see(l, t, -1)
		}
		if t.state == answered && !t.isSet() && t.y == 0.5 {
			if t.bothBad {
				s.bothBad--
			} else {
				s.ties--
			}
		}
		if t.state == answered && t.isSet() && t.bothBad {
			s.bothBad--
		}
		if t.fed > 0 && live {
			s.stale++
		}
		t.state = undone
		if h := l.holding; h != nil {
			h.state = superseded
			l.holding = nil
		}
		l.redo = t
	}
}

// see adds (d = 1) or removes (d = −1) the duels of t from those the
// labeller has seen.
func (s *session) see(l *labeller, t *ticket, d int) {
	for _, du := range t.duels() {
		if l.seen[du] += d; l.seen[du] <= 0 {
			delete(l.seen, du)
		}
	}
}

// active returns the pending tickets that have not expired.
func (s *session) active(now time.Time) []*ticket {
	var ts []*ticket
	for _, l := range s.labellers {
		if t := l.holding; t != nil && now.Sub(t.issued) < s.opt.LabellerTimeout {
			ts = append(ts, t)
		}
	}
	// Map order is random: sort so that the proposer sees a deterministic list.
	slices.SortFunc(ts, func(a, b *ticket) int { return cmp.Or(a.issued.Compare(b.issued), cmp.Compare(a.id, b.id)) })
	return ts
}

// prune forgets the labellers that never answered and whose query expired
// a timeout ago or more (with that query), so that made-up labeller ids do
// not accumulate.
func (s *session) prune(now time.Time) {
	for id, l := range s.labellers {
		t := l.holding
		if len(l.history) == 0 && len(l.seen) == 0 && l.redo == nil && (t == nil || now.Sub(t.issued) > 2*s.opt.LabellerTimeout) {
			if t != nil {
				t.state = superseded
				delete(s.tickets, t.id)
			}
			delete(s.labellers, id)
		}
	}
}

// next returns the ticket to show labeller id, asking from client, or nil
// when the session is done for them, with a message saying why.
func (s *session) next(id, client string) (*ticket, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if len(s.labellers) > 0 && s.issuedN%64 == 0 {
		s.prune(now)
	}
	if _, known := s.labellers[id]; !known {
		if err := s.admit(client, now); err != nil {
			return nil, "", err
		}
	}
	l := s.labeller(id)
	l.client = client
	if t := l.holding; t != nil {
		t.issued = now
		return snap(t), "", nil
	}
	if s.opt.Budget > 0 && s.kept >= s.opt.Budget {
		return nil, fmt.Sprintf("the budget of %d answers is reached", s.opt.Budget), nil
	}
	active := s.active(now)
	if s.opt.Budget > 0 && s.kept+len(active) >= s.opt.Budget {
		return nil, "", errorf(http.StatusServiceUnavailable, "", "the rest of the budget is shown to other labellers; try again later")
	}
	if err := s.reserve(client, active); err != nil {
		return nil, "", err
	}
	held := map[duel]bool{}
	for _, t := range active {
		for _, d := range t.duels() {
			held[d] = true
		}
	}
	inUse := func(t *ticket) bool {
		return slices.ContainsFunc(t.duels(), func(d duel) bool { return held[d] })
	}
	if r := l.redo; r != nil && !inUse(r) {
		l.redo = nil
		return snap(s.issue(id, l, &ticket{c: r.c, arms: slices.Clone(r.arms), set: r.set, recheck: r.recheck, reason: NoReason}, now)), "", nil
	}
	if t := s.recheckDue(l); t != nil && !inUse(t) {
		// The duel again, sides swapped, as a consistency check.
		return snap(s.issue(id, l, &ticket{c: t.c, arms: []int{t.arms[1], t.arms[0]}, recheck: t.seq, reason: NoReason}, now)), "", nil
	}
	exclude := make([]algorithms.Query, 0, len(held)+len(l.seen))
	for d := range held {
		exclude = append(exclude, algorithms.Query{Context: d.c, Arm1: d.a, Arm2: d.b})
	}
	for d := range l.seen {
		exclude = append(exclude, algorithms.Query{Context: d.c, Arm1: d.a, Arm2: d.b})
	}
	// Map order is random: sort so that the proposer sees a deterministic list.
	slices.SortFunc(exclude, func(p, q algorithms.Query) int {
		return cmp.Or(cmp.Compare(p.Context, q.Context), cmp.Compare(p.Arm1, q.Arm1), cmp.Compare(p.Arm2, q.Arm2))
	})
	var (
		c    int
		arms []int
		r    Reason
		ok   bool
	)
	if s.opt.Arms > 2 {
		c, arms, r, ok = s.prop.(SetProposer).ProposeSet(exclude, s.opt.Arms)
	} else {
		var q algorithms.Query
		q, r, ok = s.prop.Propose(exclude)
		c, arms = q.Context, []int{q.Arm1, q.Arm2}
	}
	if !ok {
		if len(active) > 0 {
			return nil, "", errorf(http.StatusServiceUnavailable, "", "every remaining query is shown to another labeller; try again later")
		}
		if len(l.seen) > 0 {
			return nil, "the proposer has no more queries that labeller " + id + " has not answered or skipped", nil
		}
		return nil, "the proposer has no more queries", nil
	}
	t := &ticket{c: c, arms: arms, set: s.opt.Arms > 2, reason: r}
	if err := validSet(s.cat, c, arms); err != nil {
		return nil, "", errorf(http.StatusInternalServerError, "", "label: the proposer proposed an invalid query: %v", err)
	}
	if inUse(t) || slices.ContainsFunc(t.duels(), func(d duel) bool { return l.seen[d] > 0 }) {
		return nil, "", errorf(http.StatusInternalServerError, "", "label: the proposer proposed an excluded query: context %d, arms %v", c, arms)
	}
	return snap(s.issue(id, l, t, now)), "", nil
}

// recheckDue returns the strict answer of labeller l to show again as a
// consistency check, when one is due (Options.Recheck), or nil.
func (s *session) recheckDue(l *labeller) *ticket {
	if s.opt.Recheck <= 0 || float64(l.rechecks+1) > s.opt.Recheck*float64(l.answers+1) {
		return nil
	}
	var cands []*ticket
	for _, t := range l.history {
		if t.state == answered && !t.isSet() && t.y != 0.5 && t.recheck == 0 && !t.rechecked {
			cands = append(cands, t)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	return cands[l.rng.IntN(len(cands))]
}

// snap returns a copy of t for use outside the lock.
func snap(t *ticket) *ticket { c := *t; c.arms = slices.Clone(t.arms); return &c }

// issue shows the new ticket t (its context, arms, kind and reason set) to
// labeller id, superseding expired tickets that share a duel with it.
func (s *session) issue(id string, l *labeller, t *ticket, now time.Time) *ticket {
	t.labeller, t.issued = id, now
	mine := map[duel]bool{}
	for _, d := range t.duels() {
		mine[d] = true
	}
	for _, o := range s.labellers {
		if h := o.holding; h != nil && slices.ContainsFunc(h.duels(), func(d duel) bool { return mine[d] }) {
			h.state = superseded
			o.holding = nil
		}
	}
	s.issuedN++
	t.id = strconv.Itoa(s.epoch) + "-" + strconv.Itoa(s.issuedN)
	s.tickets[t.id] = t
	l.holding = t
	return t
}
