// Package pool runs the learners on a pool of one's own: the file formats of
// a pool (contexts × arms × features, optionally latent utilities) and of
// recorded answers, the replaying oracle, and the problem "pool" of
// experiments.ProblemSpec (registered when this package is linked in).
// pool.go documents the formats, the replay rules and the metrics;
// replay.go the replaying oracle; problem.go NewProblem, the construction
// every data problem shares (this package's, and CEMSChoice and Shuttle of
// experiments/realdata): training and held-out contexts, the offer of
// recorded pairs, the held-out columns; references.go the reference levels
// of non-learners; split.go the split of a pool file; read.go ReadPool.
// Errors in a user's file are InputErrors that name the file, line, column
// and column name.
//
// ReadPool streams the file into the feature matrix (the text is never held
// whole), so loading a pool takes about the memory of its numbers: for a
// pool of 10,000 contexts × 26 arms × 50 features with utilities written by
// WritePool (264 MB), "nadb run -problem pool -pool FILE -algo random -T 1"
// peaks at about 1.2 times the file's size (Maximum resident set size of
// /usr/bin/time -v); BenchmarkReadPoolLarge compares the allocations with
// reading the whole text first.
package pool
