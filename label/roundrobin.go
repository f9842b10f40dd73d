package label

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/neural-adb/nadb/algorithms"
)

// RoundRobin is a simple deterministic Proposer for tests and examples. It
// cycles through every (context, unordered arm pair) of a catalogue in an
// order shuffled once by the PCG stream (seed, 1), each pair oriented by a
// draw of the same stream, and skips excluded pairs. It scores an arm by its
// net wins (wins − losses) and its uncertainty by 1/√(1+n), n the arm's
// duels; the reason of a query is the net-wins gap of its arms and the larger
// of their uncertainties. It is no learner: it ignores the answers when it
// chooses.
type RoundRobin struct {
	duels    []algorithms.Query
	next     int
	net, n   [][]int // per context and arm
	queries  []int   // per context
	observed int
}

// NewRoundRobin returns a RoundRobin proposer over cat.
func NewRoundRobin(cat Catalogue, seed uint64) *RoundRobin {
	rng := rand.New(rand.NewPCG(seed, 1))
	r := &RoundRobin{
		net:     make([][]int, cat.Contexts()),
		n:       make([][]int, cat.Contexts()),
		queries: make([]int, cat.Contexts()),
	}
	for c := range cat.Contexts() {
		k := len(cat.Arms(c))
		r.net[c] = make([]int, k)
		r.n[c] = make([]int, k)
		for a := range k {
			for b := a + 1; b < k; b++ {
				r.duels = append(r.duels, algorithms.Query{Context: c, Arm1: a, Arm2: b})
			}
		}
	}
	rng.Shuffle(len(r.duels), func(i, j int) { r.duels[i], r.duels[j] = r.duels[j], r.duels[i] })
	for i := range r.duels {
		if rng.IntN(2) == 1 {
			r.duels[i].Arm1, r.duels[i].Arm2 = r.duels[i].Arm2, r.duels[i].Arm1
		}
	}
	return r
}

// Propose implements Proposer.
func (r *RoundRobin) Propose(exclude []algorithms.Query) (algorithms.Query, Reason, bool) {
	for i := range r.duels {
		j := (r.next + i) % len(r.duels)
		q := r.duels[j]
		if slices.ContainsFunc(exclude, func(p algorithms.Query) bool { return sameDuel(p, q) }) {
			continue
		}
		r.next = (j + 1) % len(r.duels)
		n := min(r.n[q.Context][q.Arm1], r.n[q.Context][q.Arm2])
		return q, Reason{
			Score: float64(r.net[q.Context][q.Arm1] - r.net[q.Context][q.Arm2]),
			Sigma: 1 / math.Sqrt(1+float64(n)),
		}, true
	}
	return algorithms.Query{}, NoReason, false
}

// ProposeSet implements SetProposer: the next duel as Propose, completed
// with the lowest-numbered arms that form no excluded duel with those shown.
func (r *RoundRobin) ProposeSet(exclude []algorithms.Query, k int) (int, []int, Reason, bool) {
	q, reason, ok := r.Propose(exclude)
	if !ok {
		return 0, nil, reason, false
	}
	arms := []int{q.Arm1, q.Arm2}
	for a := range len(r.net[q.Context]) {
		if len(arms) == k {
			break
		}
		if slices.Contains(arms, a) || slices.ContainsFunc(arms, func(b int) bool {
			return slices.ContainsFunc(exclude, func(p algorithms.Query) bool {
				return sameDuel(p, algorithms.Query{Context: q.Context, Arm1: a, Arm2: b})
			})
		}) {
			continue
		}
		arms = append(arms, a)
	}
	return q.Context, arms, reason, true
}

// Observed implements Counter.
func (r *RoundRobin) Observed() int { return r.observed }

// Observe implements Proposer.
func (r *RoundRobin) Observe(q algorithms.Query, y algorithms.Feedback) {
	r.observed++
	win, lose := q.WinnerLoser(y)
	r.net[q.Context][win]++
	r.net[q.Context][lose]--
	r.n[q.Context][win]++
	r.n[q.Context][lose]++
	r.queries[q.Context]++
}

// Summary implements Proposer: the policy's arm is the one with the most net
// wins (the lowest index among equals), -1 in a context never queried.
func (r *RoundRobin) Summary() Summary {
	s := Summary{Contexts: make([]ContextSummary, len(r.net))}
	for c, net := range r.net {
		cs := ContextSummary{Arm: -1, Queries: r.queries[c],
			Scores: make([]float64, len(net)), Sigmas: make([]float64, len(net))}
		for a, v := range net {
			cs.Scores[a] = float64(v)
			cs.Sigmas[a] = 1 / math.Sqrt(1+float64(r.n[c][a]))
		}
		if cs.Queries > 0 {
			cs.Arm = slices.Index(net, slices.Max(net))
		}
		s.Contexts[c] = cs
	}
	return s
}
