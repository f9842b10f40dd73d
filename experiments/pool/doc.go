// Package pool runs the learners on a pool of one's own: the file formats of
// a pool (contexts × arms × features, optionally latent utilities) and of
// recorded answers, the replaying oracle, and the problem "pool" of
// experiments.ProblemSpec (registered when this package is linked in).
// pool.go documents the formats; replay.go the rules by which recorded
// answers answer the learners' queries. Errors in a user's file are
// InputErrors that name the file, line, column and column name.
package pool
