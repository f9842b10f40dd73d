// Package experiments is the experimenter's side of the paper's Section 4 and
// Appendix B: the synthetic problems (Square and Sine exactly as the paper,
// Cosine from the neural-bandit lineage, and a Linear sanity problem), the
// Bradley–Terry oracle, the metrics, and the run loop that drives a learner
// from package algorithms.
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
// # Randomness
//
// A Spec's seed s drives three independent PCG streams: (s, 101) draws the
// problem instance, (s, 102) the Bradley–Terry answers, and the learner's own
// streams (s, 1..99). Every algorithm run with the same seed therefore faces
// the same pool and θ, which makes comparisons across algorithms paired.
package experiments
