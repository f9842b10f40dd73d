// Package poolfile reads and writes the files of a pool of one's own, the
// format the experiments (experiments/pool: "nadb run -problem pool") and
// the labelling product (label: "nadb suggest", "export", "serve") share:
// the pool file (contexts × arms × features, optionally latent utilities;
// ReadPool, WritePool) and recorded answers (ReadAnswers, WriteAnswers;
// Answers indexes them by context and unordered arm pair). pool.go documents
// the formats. Errors in a user's file are InputErrors that name the file,
// line, column and column name.
//
// The package knows nothing of experiments: how recorded answers are
// replayed, held out or scored lives in experiments/pool.
//
// ReadPool streams the file into the feature matrix (the text is never held
// whole), so loading a pool takes about the memory of its numbers: for a
// pool of 10,000 contexts × 26 arms × 50 features with utilities written by
// WritePool (264 MB), "nadb run -problem pool -pool FILE -algo random -T 1"
// peaks at about 1.2 times the file's size (Maximum resident set size of
// /usr/bin/time -v); BenchmarkReadPoolLarge compares the allocations with
// reading the whole text first.
package poolfile
