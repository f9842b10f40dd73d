// Package pool runs the learners on a pool of one's own: the file formats of
// a pool (contexts × arms × features, optionally latent utilities) and of
// recorded answers, the replaying oracle, and the problem "pool" of
// experiments.ProblemSpec (registered when this package is linked in).
// pool.go documents the formats, the replay rules and the metrics;
// replay.go the replaying oracle; problem.go NewProblem, the construction
// every data problem shares (this package's, and CEMSChoice and Shuttle of
// experiments/realdata): training and held-out contexts, the offer of
// recorded pairs, the held-out columns; references.go the reference levels
// of non-learners; split.go the split of a pool file. Errors in a user's file
// are InputErrors that name the file, line, column and column name.
package pool
