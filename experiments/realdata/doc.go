// Package realdata holds the shipped real-data benchmarks of ours (the paper
// has none): CEMSChoice, real human pairwise preferences between schools,
// replayed (cems.go), and Statlog Shuttle as a dueling bandit (shuttle.go).
// Both register themselves as problems "cems" and "shuttle" of
// experiments.ProblemSpec and read the copy shipped in the binary (package
// realdata/data, with provenance and licences) or a folder of the same
// layout.
//
// Both are built by pool.NewProblem, the construction a pool of one's own
// uses too, so they share its rules: a seeded split of the contexts
// (students, samples) into the learner's pool and held-out contexts
// (experiments.SplitSizes and Split; ProblemSpec.Holdout is a count or a
// fraction), replayed answers offered only where recorded (the
// missing-answer rule "mask", by default; cems also takes "coin" and
// "error"), the held-out columns computed from the learner's model
// (algorithms.Scorer), and the reference rows of the summaries
// (pool.References: a passive linear model, the global ranking of the arms,
// the majority arm, a constant model). What is specific stays here: the
// feature maps, CEMS's Copeland scores as the target of its held-out gap
// (test_copeland_gap, the column name kept from the earlier runs), and
// Shuttle's classification columns (test_accuracy, test_balanced_accuracy).
//
// CEMSFiles (cems_files.go) writes CEMSChoice as the pool, answers and
// display files of a pool of your own ("nadb data cems"), the data of the
// README's labelling walkthrough.
package realdata
