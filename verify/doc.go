// Package verify states the paper's checkable claims as statistical tests and
// decides each one from fresh runs: `go test ./verify` is what a reviewer runs
// to learn which claims hold.
//
// The claims table (Table, in table.go) has one entry per claim with its
// source in the paper, the statistic, the test, and the verdict we expect with
// a one-line justification. Verdicts are never typed in: Evaluate computes
// them from runs (through the experiments cache, so paper-scale verification
// reuses the figures' runs), and TestClaims fails when a computed verdict
// differs from the expected one, so the table cannot drift from the code.
// A claim that does not reproduce is recorded as such, with its numbers.
//
// # Statistics
//
// Runs with the same seed face the same problem instance, so comparisons are
// paired across seeds: one-sided paired t-tests, Holm-corrected within each
// claim's family at level 0.05 (internal/stats). Rates are least-squares
// slopes of log metric on log T, one per seed, summarised by a 95% t-interval.
// Trends over ablation grids are regression slopes with seeds as replicates;
// differences across network sizes are one-way ANOVAs. Each row reports the
// effect its test could detect with 80% power where that applies.
//
// # Scales
//
// Reduced (go test ./verify, part of make test): d = 10, K = 5, 100 contexts,
// width 32, T = 500, 10 seeds — about a minute on two cores. Paper (make
// verify, nadb verify -scale paper): the paper's setting, the same specs as
// the figures, so a filled figure cache makes it a matter of minutes.
package verify
