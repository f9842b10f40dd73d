// Package experiments is the experimenter's side of the paper's Section 4 and
// Appendix B: the synthetic problems (Square and Sine exactly as the paper,
// Cosine from the neural-bandit lineage, and a Linear sanity problem), the
// real-data problems, the Bradley–Terry oracle, the metrics, the run loop that
// drives a learner from package algorithms, and the figures.
//
// Files: problem.go (Oracle, Evaluator, Synthetic, Latent, BradleyTerry),
// problemspec.go (ProblemSpec: every problem by name), run.go (Spec, Run,
// checkpoints, CSV), cache.go and sweep.go (the run cache and parallel,
// resumable, shardable sweeps), figure.go and figures.go (figure specs, the
// paper's figures and their registry), fig_*.go (figures of ours), pool*.go
// (bring-your-own pool and recorded answers), cems*.go and shuttle.go (the
// shipped real-data benchmarks), lockon*.go (the lock-on study of issue 7).
//
// # Problems
//
// A Problem joins what the learner sees (algorithms.Pool) with what only the
// experimenter sees: an Oracle that answers duels and an Evaluator that knows
// the latent rewards. Both are interfaces, so recorded human answers and
// held-out evaluation plug in beside the simulators. Synthetic draws a fixed
// pool of Contexts contexts with K arms, x_{c,a} ~ U(−1,1)^d, and θ as
// Synthetic.Theta documents; rewards are f(x) = 10(xᵀθ)² (square),
// 2 sin(xᵀθ) (sine), cos(3xᵀθ) (cosine) or 5xᵀθ (linear, ours).
//
// # Metrics
//
// At every checkpoint (t = 0, every Spec.Every rounds, and T):
//
//	worst_gap          max_c [max_a f(c,a) − f(c,π(c))], eq. (1)
//	mean_gap           the same averaged over the whole pool ("MAE", pool reading)
//	queried_gap        Σ_{s≤t} gap(c_s)/t with the current π ("MAE" as printed,
//	                   over the rounds' contexts, with multiplicity)
//	avg_regret         R_t/t, R_t = Σ_s f(c_s,a*) − (f(c_s,a_s1) + f(c_s,a_s2))/2
//	distinct_contexts  contexts queried at least once
//	elapsed_s          seconds since the run started
//	top_context_share  share of rounds on the most-queried context (lock-on)
//
// queried_gap, avg_regret and top_context_share are NaN at t = 0.
//
// # Figures, cache and sweeps
//
// A Figure is data: rows of curves (a Spec each, run for seeds 1..Seeds) and
// the metrics to plot. Figures register themselves (RegisterFigure) and
// "nadb figures" runs the union of their runs through a Sweep: every run is
// cached under Cache.Dir by Spec.Key (a hash of the complete configuration
// and CacheVersion), written atomically, and skipped when present, so an
// interrupted sweep resumes and a cached figure re-plots in seconds. A Shard
// takes a deterministic part of the runs by key, for job arrays. Aggregate
// turns the runs into means with 95% Student-t intervals per checkpoint;
// Render writes PNG, SVG, PDF, the plotted numbers as CSV and a manifest.
// TestGoldenRuns pins a short run of every algorithm: a change that alters
// any number fails it until CacheVersion is bumped.
//
// # Randomness
//
// A Spec's seed s drives three independent PCG streams: (s, 101) draws the
// problem instance, (s, 102) the Bradley–Terry answers, and the learner's own
// streams (s, 1..99). Every algorithm run with the same seed therefore faces
// the same pool and θ, which makes comparisons across algorithms paired.
package experiments
