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
//
// Two locks. mu guards the state and the log: every method takes it,
// appends to the log happen under it (so the log's order is the order the
// state changed in), and nothing slow happens under it but the log's fsync.
// pmu guards the proposer, whose calls may be slow (a retrain, a refresh of
// its confidence state): next holds it to feed the proposer the answers
// logged since (feedQ) and ask it for a query, and the summary to read it;
// it is taken before mu and never while mu is held. So answers, skips,
// undos and the progress never wait for the learner; a labeller who asks
// for a new query waits for the learner's choice. The proposer is rebuilt
// outside both locks after an undo (rebuild.go).
type session struct {
	mu          sync.Mutex
	pmu         sync.Mutex
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
	// this session it has used or has queued in feedQ (kept answers by Seq,
	// in log order; the events up to fedSeq have left the queue), stale of
	// them (counted by event) undone after it used them, which the next
	// rebuild removes.
	fedPairs   int
	feedQ      []int64
	fedSeq     int64
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

// pairs returns the number of strict duel outcomes the feedable event e
// gives the proposer.
func pairs(e *Event) int {
	if e.Kind == Answer {
		return 1
	}
	return len(e.ImpliedPairs())
}

// takeFeed returns the kept answers the proposer has yet to be fed, in log
// order, and empties the queue. The caller holds pmu and mu, and feeds them
// before it releases pmu.
func (s *session) takeFeed() []Event {
	var out []Event
	for _, seq := range s.feedQ {
		if t := s.bySeq[seq]; t != nil && t.state == answered {
			out = append(out, s.events[seq-1])
		}
	}
	if n := len(s.feedQ); n > 0 {
		s.fedSeq = s.feedQ[n-1]
	}
	s.feedQ = nil
	return out
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
		if feedable(&e) {
			t.fed = pairs(&e)
			if live {
				s.fedPairs += t.fed
				s.feedQ = append(s.feedQ, e.Seq)
			}
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
		switch {
		case t.fed == 0 || !live:
		case t.seq > s.fedSeq: // still queued: it will not be fed (takeFeed)
			s.fedPairs -= t.fed
		default:
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

// plan is what next needs to ask the proposer for a labeller's query.
type plan struct {
	exclude []algorithms.Query
	active  int // queries held by labellers
	seen    int // duels the labeller has answered or skipped
}

// next returns the ticket to show labeller id, asking from client, or nil
// when the session is done for them, with a message saying why. Only when
// the proposer must choose does it take pmu, and it asks the proposer
// outside mu.
func (s *session) next(id, client string) (*ticket, string, error) {
	s.mu.Lock()
	t, msg, err, p := s.prepare(id, client)
	s.mu.Unlock()
	if p == nil {
		return t, msg, err
	}
	s.pmu.Lock()
	defer s.pmu.Unlock()
	s.mu.Lock()
	t, msg, err, p = s.prepare(id, client) // the state may have changed meanwhile
	if p == nil {
		s.mu.Unlock()
		return t, msg, err
	}
	prop, todo := s.prop, s.takeFeed()
	s.mu.Unlock()

	for i := range todo {
		feed(prop, &todo[i])
	}
	var (
		c    int
		arms []int
		r    Reason
		ok   bool
	)
	if s.opt.Arms > 2 {
		c, arms, r, ok = prop.(SetProposer).ProposeSet(p.exclude, s.opt.Arms)
	} else {
		var q algorithms.Query
		q, r, ok = prop.Propose(p.exclude)
		c, arms = q.Context, []int{q.Arm1, q.Arm2}
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if !ok {
		if p.active > 0 {
			return nil, "", errorf(http.StatusServiceUnavailable, "", "every remaining query is shown to another labeller; try again later")
		}
		if p.seen > 0 {
			return nil, "the proposer has no more queries that labeller " + id + " has not answered or skipped", nil
		}
		return nil, "the proposer has no more queries", nil
	}
	nt := &ticket{c: c, arms: arms, set: s.opt.Arms > 2, reason: r}
	if err := validSet(s.cat, c, arms); err != nil {
		return nil, "", errorf(http.StatusInternalServerError, "", "label: the proposer proposed an invalid query: %v", err)
	}
	excluded := map[duel]bool{}
	for _, q := range p.exclude {
		excluded[duelOf(q.Context, q.Arm1, q.Arm2)] = true
	}
	if slices.ContainsFunc(nt.duels(), func(d duel) bool { return excluded[d] }) {
		return nil, "", errorf(http.StatusInternalServerError, "", "label: the proposer proposed an excluded query: context %d, arms %v", c, arms)
	}
	// While the proposer chose, another labeller may have been shown a duel
	// again (an undo) or a consistency check; the budget may be spent.
	now := s.now()
	if held := s.held(s.active(now)); slices.ContainsFunc(nt.duels(), func(d duel) bool { return held[d] }) {
		return nil, "", errorf(http.StatusServiceUnavailable, "", "the query chosen for you was just shown to another labeller; try again")
	}
	if s.opt.Budget > 0 && s.kept >= s.opt.Budget {
		return nil, fmt.Sprintf("the budget of %d answers is reached", s.opt.Budget), nil
	}
	l := s.labellers[id]
	if l == nil { // a new labeller (or one forgotten meanwhile)
		if err := s.admit(client, now, true); err != nil {
			return nil, "", err
		}
		l = s.labeller(id)
	}
	l.client = client
	if l.holding != nil {
		return snap(l.holding), "", nil
	}
	return snap(s.issue(id, l, nt, now)), "", nil
}

// held returns the duels of the tickets ts.
func (s *session) held(ts []*ticket) map[duel]bool {
	held := map[duel]bool{}
	for _, t := range ts {
		for _, d := range t.duels() {
			held[d] = true
		}
	}
	return held
}

// prepare does what next can do under mu alone: a pending query shown
// again, the end of the budget, an undone query or a consistency check shown
// (issued), or an error; otherwise it returns the plan for the proposer.
func (s *session) prepare(id, client string) (*ticket, string, error, *plan) {
	now := s.now()
	if len(s.labellers) > 0 && s.issuedN%64 == 0 {
		s.prune(now)
	}
	// A new labeller id is admitted here but made (and counted against its
	// client's new ids) only once it is shown a query (next), so a request
	// refused below uses no slot.
	l := s.labellers[id]
	if l == nil {
		if err := s.admit(client, now, false); err != nil {
			return nil, "", err, nil
		}
	} else {
		l.client = client
		if t := l.holding; t != nil {
			t.issued = now
			return snap(t), "", nil, nil
		}
	}
	if s.opt.Budget > 0 && s.kept >= s.opt.Budget {
		return nil, fmt.Sprintf("the budget of %d answers is reached", s.opt.Budget), nil, nil
	}
	active := s.active(now)
	if s.opt.Budget > 0 && s.kept+len(active) >= s.opt.Budget {
		return nil, "", errorf(http.StatusServiceUnavailable, "", "the rest of the budget is shown to other labellers; try again later"), nil
	}
	if err := s.reserve(client, active); err != nil {
		return nil, "", err, nil
	}
	held := s.held(active)
	inUse := func(t *ticket) bool {
		return slices.ContainsFunc(t.duels(), func(d duel) bool { return held[d] })
	}
	p := &plan{active: len(active)}
	if l != nil { // a new labeller has nothing to redo or recheck, and has seen nothing
		if r := l.redo; r != nil && !inUse(r) {
			l.redo = nil
			return snap(s.issue(id, l, &ticket{c: r.c, arms: slices.Clone(r.arms), set: r.set, recheck: r.recheck, reason: NoReason}, now)), "", nil, nil
		}
		if t := s.recheckDue(l); t != nil && !inUse(t) {
			// The duel again, sides swapped, as a consistency check.
			return snap(s.issue(id, l, &ticket{c: t.c, arms: []int{t.arms[1], t.arms[0]}, recheck: t.seq, reason: NoReason}, now)), "", nil, nil
		}
		p.seen = len(l.seen)
	}
	p.exclude = make([]algorithms.Query, 0, len(held)+p.seen)
	for d := range held {
		p.exclude = append(p.exclude, algorithms.Query{Context: d.c, Arm1: d.a, Arm2: d.b})
	}
	if l != nil {
		for d := range l.seen {
			p.exclude = append(p.exclude, algorithms.Query{Context: d.c, Arm1: d.a, Arm2: d.b})
		}
	}
	// Map order is random: sort so that the proposer sees a deterministic list.
	slices.SortFunc(p.exclude, func(p, q algorithms.Query) int {
		return cmp.Or(cmp.Compare(p.Context, q.Context), cmp.Compare(p.Arm1, q.Arm1), cmp.Compare(p.Arm2, q.Arm2))
	})
	return nil, "", nil, p
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
