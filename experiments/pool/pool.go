package pool

// Bring your own pool: the problem "pool" of "nadb run -problem pool". The
// pool and answers files are read by internal/poolfile (formats in its
// pool.go); this package decides how they become an experiment.
//
// # Simulated answers
//
// utility (optional in the pool file) is the latent utility f(c,a) of the
// row. It is never shown to the learner. Without an answers file, duels are
// answered by Bradley–Terry draws, P(a1 beats a2) = μ(f(c,a1) − f(c,a2))
// from the stream (seed, 102), and the gaps and regret of the standard
// columns are computed from it. Only the reference rows of a held-out
// evaluation compare arms of different contexts by identifier.
//
// # Replayed answers
//
// Recorded answers (an answers file: context,arm1,arm2,y) are replayed by
// the oracle instead of simulating. A query (c, a, b) is answered from the
// records of the unordered pair {a, b} in context c, oriented to the query:
//
//   - by default (-missing mask) learners are offered only the pairs with at
//     least one record, in the contexts that have one (experiments.Problem's
//     Offer; every learner honours it), so no answer is invented. A context
//     without any record is never asked about, but stays in the pool and in
//     the policy's metrics;
//   - -missing coin offers every pair and answers a pair with no record by a
//     fair coin; -missing error requires a record for every arm pair of every
//     context and reports the first gap when the problem is built;
//   - several records of a pair are used in turn, in an order drawn once per
//     pair from the feedback stream (seed, 102), cycling when they run out:
//     the k-th answer to a pair is fixed by the seed whatever was asked
//     before, and a pair answered once always gets the same answer;
//   - a tie is answered by a fair coin from the feedback stream.
//
// Invented answers are never silent: the columns tie_share and
// unrecorded_share report the share of rounds answered by a coin for each
// reason (unrecorded_share is 0 under the default rule).
//
// # Held-out contexts
//
// -holdout F holds contexts out of the learner's pool: F in (0, 1) is a
// fraction of the contexts (rounded to the nearest count), a whole F ≥ 1 a
// count. The seed draws which ones (stream (seed, 101)), so seeds 1, 2, …
// are independent splits; the learner never sees the held-out contexts'
// features, and their answers are never replayed. Their rows are scored with
// the learner's model (algorithms.Scorer) after every checkpoint.
//
// # Metrics
//
// With a utility column the standard columns (worst_gap, mean_gap, …) use the
// utilities of the training contexts. Without one, they use each context's
// empirical Copeland score from the recorded answers (poolfile.Answers'
// Copeland): an arm scores 1 for every other arm it beat in the majority of
// their recorded duels (ties counted ½) and ½ for every arm it ties with or
// was never recorded against, so that f(c,a) ∈ [0, K−1]. The extra columns
// (NaN for learners without a Scorer) are, where they apply:
//
//	answer_accuracy, answer_logloss  in-sample, on the recorded strict answers
//	                  of the training contexts (the learner may have been
//	                  shown them): the share whose winner the model scores
//	                  higher (an exact tie counts ½), and the mean
//	                  Bradley–Terry negative log-likelihood −log μ(h(winner) −
//	                  h(loser))
//	test_accuracy, test_logloss      the same on the held-out contexts' answers
//	test_choice_accuracy             with utilities: the share of held-out
//	                  contexts whose chosen arm (the model's highest score,
//	                  exact ties averaged) is a best arm (ChoiceAccuracy); it
//	                  keeps resolving where the worst gap saturates
//	test_mean_gap, test_worst_gap    with utilities: mean and max over the
//	                  held-out contexts of max_a f(c,a) − f(c,â), â the arm the
//	                  model scores highest (exact ties: averaged over the tied
//	                  arms, experiments.TiedGaps)
//	test_copeland_gap                without utilities: the mean gap against the
//	                  held-out contexts' Copeland scores, over those with a record
//	tie_share, unrecorded_share      the coins above
//
// nadb run prints (unless -q), or writes as CSV (-references FILE), after a
// run with held-out contexts, the same held-out columns for four references
// fitted to the training contexts only; they are computed only then
// (references.go): a linear Bradley–Terry model fitted to every training
// answer at once, the best single global ranking of arm identifiers, the
// majority arm, and a constant model (every pair 50/50, log-loss ln 2). The
// two identifier references are meaningful when arm identifiers name the
// same item across contexts (schools, products); otherwise they score like
// the constant model.
