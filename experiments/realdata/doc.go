// Package realdata holds the shipped real-data benchmarks of ours (the paper
// has none): CEMSChoice, real human pairwise preferences between schools,
// replayed (cems.go), and Statlog Shuttle as a dueling bandit (shuttle.go).
// Both register themselves as problems "cems" and "shuttle" of
// experiments.ProblemSpec, read the copy shipped in the binary (package
// realdata/data, with provenance and licences) or a folder of the same
// layout, and score the learner's model (algorithms.Scorer) on held-out
// users or samples in extra columns. References gives the levels of
// non-learners (a passive linear model, a constant model, the majority class)
// on the same seeds. CEMSFiles (cems_files.go) writes CEMSChoice as the pool,
// answers and display files of a pool of your own ("nadb data cems"), the
// data of the README's labelling walkthrough.
package realdata
