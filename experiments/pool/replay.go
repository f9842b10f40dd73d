package pool

import (
	"math"
	"math/rand/v2"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/poolfile"
)

// Replay is an Oracle that answers duels with recorded answers (rules in
// pool.go): the records of a pair are used in turn, in an order drawn once
// per pair from Rng, cycling; ties and pairs without a record are answered
// by a fair coin from Rng, and counted.
type Replay struct {
	Answers *poolfile.Answers
	Rng     *rand.Rand

	Asked      int // queries answered
	Ties       int // answered by a coin because the record used was a tie
	Unrecorded int // answered by a coin because the pair has no record

	order map[int][]int32 // Answers.PairKey → indices into Answers.List, in the order used
	next  map[int]int     // Answers.PairKey → records of the pair used so far
}

// NewReplay returns a replaying oracle. rng first draws, for every pair with
// several records (in context, then arm order), the order in which they are
// used, and then decides ties and unrecorded pairs. A pair with one record
// draws nothing, so the coins of a data set with one record per pair do not
// depend on the orders. The k-th answer to a pair is thus fixed by the seed,
// whatever the learner asked before.
func NewReplay(ans *poolfile.Answers, rng *rand.Rand) *Replay {
	keys := ans.PairKeys()
	r := &Replay{Answers: ans, Rng: rng, order: make(map[int][]int32, len(keys)), next: map[int]int{}}
	for _, k := range keys {
		idx := ans.Indices(k)
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		r.order[k] = idx
	}
	return r
}

// Answer implements Oracle.
func (r *Replay) Answer(q algorithms.Query) algorithms.Feedback {
	r.Asked++
	k := r.Answers.PairKey(q.Context, q.Arm1, q.Arm2)
	idx := r.order[k]
	if len(idx) == 0 {
		r.Unrecorded++
		return r.coin()
	}
	rec := r.Answers.List[idx[r.next[k]%len(idx)]]
	r.next[k]++
	switch {
	case rec.Y == 0.5:
		r.Ties++
		return r.coin()
	case (rec.Y == 1) == (rec.Arm1 == q.Arm1):
		return algorithms.Arm1Won
	default:
		return algorithms.Arm2Won
	}
}

func (r *Replay) coin() algorithms.Feedback {
	if r.Rng.IntN(2) == 1 {
		return algorithms.Arm1Won
	}
	return algorithms.Arm2Won
}

// Shares returns the shares of answers decided by a coin because of a tie and
// because of a missing record (NaN before the first query).
func (r *Replay) Shares() (tie, unrecorded float64) {
	if r.Asked == 0 {
		return math.NaN(), math.NaN()
	}
	n := float64(r.Asked)
	return float64(r.Ties) / n, float64(r.Unrecorded) / n
}
