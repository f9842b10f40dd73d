package algorithms

import (
	"fmt"
	"math/rand/v2"
)

// Random streams of a learner, all derived from Env.Seed so that a learner's
// choices never depend on anything but its seed and the answers it gets.
const (
	streamInit   = 1 // θ0 and any other model initialisation
	streamSelect = 2 // selection: tie-breaks, Thompson samples, random choices
	streamTrain  = 3 // mini-batch sampling
	streamPolicy = 4 // fixed tie-break priorities of the returned policy
	// 5 is unused.
	streamSubsample = 6 // candidate contexts (Subsample)
)

// Stream ids [ReservedStreams, FirstExternalStream) belong to the
// experimenter's side (package experiments draws problem instances from 101
// and Bradley–Terry answers from 102, a Collector its random duels from 103;
// package theory uses 200 and up). A learner drawing from one of them could reproduce the problem or predict the
// oracle, so NewStream refuses them.
const (
	ReservedStreams     = 100
	FirstExternalStream = 1000
)

// NewStream returns the PCG stream id of a learner seeded with seed: ids below
// ReservedStreams are this package's, learners added elsewhere use ids
// ≥ FirstExternalStream. It panics on a reserved id.
func NewStream(seed, id uint64) *rand.Rand {
	if id >= ReservedStreams && id < FirstExternalStream {
		panic(fmt.Sprintf("algorithms: stream id %d is reserved for the experimenter's side; learners use ids < %d (this package) or ≥ %d", id, ReservedStreams, FirstExternalStream))
	}
	return rand.New(rand.NewPCG(seed, id))
}

// ArgmaxRand returns the index of the largest of vals, skipping index skip
// (pass −1 to skip nothing), and chooses uniformly among exact ties using rng.
// rng is consumed only when there is a tie.
func ArgmaxRand(vals []float64, skip int, rng *rand.Rand) int {
	best, ties := -1, 0
	for i, v := range vals {
		if i == skip {
			continue
		}
		switch {
		case best < 0 || v > vals[best]:
			best, ties = i, 1
		case v == vals[best]:
			ties++
			if rng.IntN(ties) == 0 {
				best = i
			}
		}
	}
	return best
}

// tiePriority draws a random priority for every pool row; a policy breaks exact
// ties in its scores by it, so that π does not depend on when it is evaluated.
func tiePriority(rows int, rng *rand.Rand) []int32 {
	p := make([]int32, rows)
	for i, v := range rng.Perm(rows) {
		p[i] = int32(v)
	}
	return p
}

// PolicyFromScores writes argmax_a score(c,a) for every context into dst,
// breaking exact ties by prio (higher wins). scores and prio have one entry per
// pool row.
func PolicyFromScores(dst []int, contexts, arms int, scores []float64, prio []int32) []int {
	if cap(dst) < contexts {
		dst = make([]int, contexts)
	}
	dst = dst[:contexts]
	for c := range contexts {
		s := scores[c*arms : (c+1)*arms]
		best := 0
		for a := 1; a < arms; a++ {
			if s[a] > s[best] || (s[a] == s[best] && prio[c*arms+a] > prio[c*arms+best]) {
				best = a
			}
		}
		dst[c] = best
	}
	return dst
}
