// Package poolfile reads and writes the files of a pool of one's own, the
// format the experiments (experiments/pool: "nadb run -problem pool") and
// the labelling product (label: "nadb suggest", "export", "serve") share:
// the pool file (contexts × arms × features, optionally latent utilities;
// ReadPool, WritePool), the pool directory of the same content for pools
// as large as embeddings (features.npy from NumPy, mapped rather than read;
// OpenDir, WriteDir, dir.go; Open reads either) and recorded answers (ReadAnswers, WriteAnswers;
// Answers indexes them by context and unordered arm pair). pool.go documents
// the formats. Errors in a user's file are InputErrors that name the file,
// line, column and column name.
//
// The package knows nothing of experiments: how recorded answers are
// replayed, held out or scored lives in experiments/pool.
//
// ReadPool streams the file into the feature matrix (the text is never held
// whole), so loading a pool takes about the memory of its numbers: 8·d
// bytes per row held (a file's lines are counted first, the rows parsed
// into the matrix and moved into context order in place; 16·d at the peak
// when the input is a pipe, the rows then held in file order first), and
// about 100 bytes per row of identifiers and indices;
// BenchmarkReadPoolLarge compares the allocations with reading the whole
// text first. OpenDir maps features.npy instead: the features cost
// page cache, not memory of the program's own, and each row about 40 bytes
// (its arm identifier and utility).
package poolfile
