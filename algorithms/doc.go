// Package algorithms is Section 3 of the paper: Neural-ADB and every baseline,
// behind one small Learner interface and a registry of names.
//
// # What a learner sees
//
// A learner is built from an Env: the Pool (contexts, K arms each, feature
// vectors x_{c,a} ∈ R^d), a Config and a seed. It never sees latent rewards:
// it asks Queries (context, arm 1, arm 2) and receives Feedback bits. Oracles,
// rewards and metrics live in package experiments.
//
// Every round the experimenter's Offer says which contexts and arm pairs may
// be asked (the zero Offer: all of them); Offer's methods (RandomContext,
// RandomPair, MaskFirstArm, …) keep a rule within it. Observe accepts the
// answer to any valid query, chosen by the learner or not. Pender learners
// put asked-but-unanswered queries into V at once, so SelectBatch proposes k
// distinct queries exactly. Who chooses the duels is the experimenter's rule
// (Config.Collect, collect.go): the learner itself, uniformly at random (its
// passive twin: the same model trained on random duels), or a random context
// with the learner's pair; a Collector applies it around any learner. In the paper's other reading, fresh contexts
// every round, the pool's last Pool.Fresh() contexts are the round's
// candidates and the queried one is committed after the answer (Pool.SetFresh,
// Commit); learners keep what they know per row in step with
// Pool.Generation (rows.go).
//
// # The paper's equations in this package
//
//	(1) worst sub-optimality gap            experiments.Checkpoint.WorstGap
//	(2) Bradley–Terry loss + λ‖θ‖²          NeuralModel (internal/mlp)
//	(3) context rule, max-norm pair         MaxNormContext             neuraladb.go
//	(4) first arm, greedy in h              NeuralADB.ArmRule          neuraladb.go
//	(5) second arm, UCB                     NeuralADB.ArmRule          neuraladb.go
//	(6) σ², with V from the θ0 gradients    NeuralModel.Sigma2         neural.go (internal/gram)
//	(7) second arm, Thompson sampling       NeuralADB.ArmRule          neuraladb.go
//	(8) policy π(c) = argmax_a h            NeuralModel.Policy         neural.go
//
// V = (λ/κ)I + Σ ψψᵀ is kept exactly, never as a diagonal and never as a p×p
// matrix (the Confidence interface, confidence.go): on a fixed pool package
// internal/gram maintains the per-context K×K blocks of Φ V⁻¹ Φᵀ by the
// kernel route (closed-form gradient inner products; a context is brought up
// to date when it is read, and stale blocks bound the norms of eq. 3); in the
// fresh-context reading gram.Stream solves the round's fresh contexts' blocks
// from the Cholesky factor of the t×t dual matrix (confidence_stream.go); the
// linear baselines in that reading keep their d×d V⁻¹ (gram.Primal). The 1/w
// factor of the paper's V is applied once, to the features φ = g(x;θ0)/√w;
// Config.SigmaWidth selects whether σ² applies it again.
//
// # Large pools
//
// Up to lazyMinRows = 6,000 pool rows (Contexts·Arms; the paper's largest
// pool is 300 × 20) the neural learners keep gram.Confidence over the pool's
// gradient kernel, its entries computed on demand in blocks (exactKernel,
// neural.go; the rows updates name are kept once a context far behind is
// read, gram.Keeper), which brings a context's block up to date when it is
// read. Above it, NewNeuralModel keeps lazyConfidence (confidence_lazy.go):
// V as the Cholesky factor of the t×t dual matrix (gram.Stream), NTK
// signals only for the rows updates name, and a block computed exactly on
// demand, by forward substitution, for the
// contexts a rule reads; memory is O(t² + t·(d + Lw) + Contexts·Arms) instead
// of O(rows·t). Norms only shrink as V grows, so a block solved earlier bounds
// the norms above: the argmax rules (eq. 3 in MaxNormContext, APO's joint
// rule in apo and neural-adb-apo, AE-Borda's max U − max L in ae-borda-nn)
// solve only the contexts whose bound could still win (lazyargmax.go), and
// pick the same context as evaluating all of them. Random-context rules
// solve one context per round. Exact ties between contexts are broken
// uniformly at random among the tied maxima. The lookahead rule needs the
// dense kernel and refuses larger pools.
//
// A Pool's features stay in the precision and the place they came in
// (pool.go): float64 or float32, in memory or in a read-only mapped file,
// possibly a View of some contexts. Learners read them through RowsTo,
// FeatureTo, AppendRows and Blocks (converted a block of BlockRows rows at a
// time, aliased when already contiguous float64), so no learner holds a
// dense float64 copy of a large pool; NeuralModel's trainer keeps only the
// rows duels use, and its row scores are recomputed when next read after a
// retrain, not at every retrain. Replaying a log of answers coalesces the
// retraining (Replayer, replay.go), and Config.Consider offers a rule a
// random subset of the contexts per query (Subsample, subsample.go).
//
// # Registered algorithms
//
// Every algorithm registers itself under a name in an init function of its own
// file (see Names, Lookup and "nadb list"). As written in the paper:
// neural-adb-ucb and neural-adb-ts. Comparators of ours: neural-adb-ucb-randctx
// and neural-adb-ts-randctx (the same arm rule on uniformly random contexts).
//
// The baselines of Section 4, one file each, every one a Scorer too:
//
//	random          uniform context and arm pair; linear Bradley–Terry MLE    random.go
//	apo             Das et al. 2024: joint max-norm context and pair          apo.go
//	ae-borda        Mehta et al. 2023: Borda regression, max UCB − max LCB    aeborda.go
//	ae-dpo          OUR INTERPRETATION of Mehta et al.'s LLM rule (no         aedpo.go
//	                synthetic rule is published)
//	neural-adb-apo  "Neural-ADB (APO)": apo on the θ0 gradient features, MLP  neuraladbapo.go
//	ae-borda-nn     "AE-Borda (NN)": ae-borda with the MLP and θ0 features    aebordann.go
//	random-nn       ours: random selection with the MLP (rule vs network)     randomnn.go
//
// The linear ones share LinearBT (linear.go), the penalised Bradley–Terry MLE
// refitted by Newton's method; the neural ones share NeuralModel with
// Neural-ADB. Each file's doc comment states its source and every point where
// the text had to be interpreted.
//
// Repaired context rules of the lock-on study (ours; the mechanism is
// described in package experiments/lockon), each with the paper's arm rule
// unchanged:
//
//	neural-adb-lookahead-{ucb,ts}  pool-wide one-step σ² reduction     repair_lookahead.go
//	neural-adb-tsctx-{ucb,ts}      Thompson sampling of the largest    repair_tsctx.go
//	                               policy loss, calibrated last-layer
//	                               posterior (repair_lastlayer.go)
//
// A learner of ours that changes the model and the whole duel choice, not
// only the context rule:
//
//	neural-adb-plus  linear part + MLP over a λ grid averaged by       plus_doc.go
//	                 prequential likelihood, last-layer Laplace
//	                 posterior, knowledge-gradient duel choice;
//	                 Config.PlusAblate removes one ingredient
//
// # Choices the paper leaves open
//
// Every hyper-parameter is a Config field; Fields lists them with their
// defaults and whether each comes from the paper ("paper"), is our documented
// choice where the text is silent or inconsistent ("choice"), or is an
// engineering setting ("ours"). "nadb config" prints the list; the README
// carries it as a table.
//
// # Adding a baseline
//
// Write one file in this package that implements Learner and Scorer
// (Select among what the round's Offer allows, Observe of any valid
// query's answer, Policy over the committed contexts, Score of any feature
// row) and registers a name:
//
//	func init() {
//		Register("my-baseline", "one line for nadb list",
//			func(env Env) (Learner, error) { return newMine(env), nil })
//	}
//
// Score is required: the fresh-context reading scores its evaluation pool
// with it and the held-out metrics are NaN without it. In that reading the
// pool grows by a committed context every round (Pool.Rows,
// Pool.Generation), so per-row state must follow it. Take all randomness
// from NewStream(env.Seed, id) with id ≥ FirstExternalStream, in Select and
// Observe only (Policy and Score change nothing later choices read), and
// break exact ties with ArgmaxRand. NewLinearBT gives any learner a linear
// Bradley–Terry model, NeuralModel the paper's MLP, its training schedule
// and the exact confidence state. TestConformance runs the conformance
// suite (package experiments/conformance) on every registered name; a test
// of one's own goes in package algorithms_test:
// conformance.Run(t, "my-baseline", nil). Then pin the learner's results
// with go test ./experiments -run 'GoldenRuns/^my-baseline$' -update. A
// learner that reads only some Config fields (its other settings fixed, or
// no network) declares them beside its registration with DeclareReads, so
// that the nadb commands refuse a flag it would ignore; without a
// declaration every field counts as read. The README's "Adding a baseline" lists which figures pick the name up and
// where to add it to the others. ExampleRegister shows a complete learner.
//
// Programmer errors (invalid queries passed to Observe, shape mismatches)
// panic; unusable settings are reported as errors by New.
package algorithms
