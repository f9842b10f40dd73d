// Package pool runs the learners on a pool of one's own: the replaying
// oracle, the held-out evaluation and the problem "pool" of
// experiments.ProblemSpec (registered when this package is linked in). The
// files themselves (pool, answers) are read by internal/poolfile, which the
// labelling product shares.
//
// pool.go documents the replay rules and the metrics; replay.go the
// replaying oracle; problem.go NewProblem, the construction every data
// problem shares (this package's, and CEMSChoice and Shuttle of
// experiments/realdata): training and held-out contexts, the offer of
// recorded pairs, the held-out columns; metrics.go the pairwise scores of a
// model on recorded answers; references.go the reference levels of
// non-learners; split.go the split of a pool file; scale.go the scale check
// of the features.
package pool
