// Package experiments is the experimenter's side of the paper's Section 4 and
// Appendix B at its core: what a problem is, the synthetic problems, the
// Bradley–Terry oracle, the metrics, and the one round loop that drives a
// learner of package algorithms. The rest of the experimenter's side lives in
// sub-packages, each on one topic:
//
//	experiments/pool         bring-your-own pool and recorded answers (replay, held-out scores; the files: internal/poolfile)
//	experiments/realdata     the shipped real-data benchmarks (CEMSChoice, Shuttle)
//	experiments/sweep        cached, resumable, shardable sweeps; the figures (specs, styles, rendering)
//	experiments/lockon       the lock-on study of the paper's context rule
//	experiments/conformance  the test suite every learner passes
//
// Dependencies point one way: conformance, pool → experiments; realdata →
// pool; sweep → realdata; lockon → sweep. Nothing here imports a
// sub-package.
//
// Files: problem.go (Oracle, Evaluator, Problem, Latent, BradleyTerry),
// synthetic.go (Synthetic: Square, Sine, Cosine, Linear), problemspec.go
// (ProblemSpec, the registry of problems by name), spec.go (Spec, its cache
// key), loop.go (Loop, the round loop), run.go (Run, checkpoints and
// metrics), csv.go (the result CSV), fresh.go (the fresh-context reading),
// holdout.go (the seeded split of a data problem's contexts into training
// and held-out ones, ProblemSpec.Holdout, and FieldError), memory.go (the
// memory estimate of a run), hashed.go (user files hashed while parsed).
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
// A ProblemSpec names a problem and its size; problems are registered by
// name (RegisterProblem): the synthetic ones here, "pool" by
// experiments/pool, "cems" and "shuttle" by experiments/realdata. Errors in
// a field's value are FieldErrors naming the field by its JSON name (which
// nadb run turns into its flag).
//
// # Memory
//
// EstimateMemory estimates a run's memory from sizes alone: the synthetic
// problem's data and the learner's allocations over T rounds
// (algorithms.EstimateMemory: network, per-row scores, training batches and
// the confidence state the learner will build). CheckMemory compares it with
// a limit (internal/memlimit: NADB_MAX_MEMORY, else MemAvailable) and returns
// a FieldError naming the size to reduce (K, d, contexts, candidates, T, a
// Config field, or the pool of a problem read from files: of the sizes the
// largest part grows with, the one furthest above its default), so that nadb
// run refuses sizes
// the machine cannot hold before allocating anything; algorithms.New refuses
// a learner whose construction alone would not fit.
//
// # The round loop
//
// Loop is the paper's interaction and the only place it is written: select,
// check the query against the pool, answer, observe, with optional hooks
// before the answer (Hooks.Selected) and after the observation
// (Hooks.Observed). Run and RunProblem take checkpoints with it; the lock-on
// mechanism, the conformance suite and the theory checks drive learners with
// it too.
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
// queried_gap, avg_regret and top_context_share are NaN at t = 0. Problems
// with an ExtraEvaluator add their own columns after these.
//
// A checkpoint only observes: it reads the learner's policy and model and
// changes nothing the learner does later, so a run's values at round t do not
// depend on Spec.Every, and a run with period e holds every checkpoint of the
// same run with period k·e (Thin, TrajectoryKey; TestThinIsTheRun checks every
// learner on every kind of problem).
//
// # Reproducibility
//
// A Spec's seed s drives independent PCG streams: (s, StreamProblem) draws
// the problem instance, (s, StreamFeedback) the answers, (s,
// algorithms.StreamCollect) the duels of a passive twin (Config.Collect), and
// the learner's own streams (algorithms.NewStream). Every algorithm run with the same seed
// therefore faces the same pool and θ, which makes comparisons across
// algorithms paired. Spec.Key hashes the complete Spec with CacheVersion;
// TestGoldenRuns pins a short run of every algorithm, so a change that alters
// any number fails until CacheVersion is bumped.
package experiments
