package algorithms

// neural-adb-target (ours, not in the paper): neural-adb-plus's reward model
// with duels chosen for what the user will score, at a cost that follows the
// answers rather than the pool. One configuration (DefaultTargetOptions) runs
// on every problem and reading; Config.Objective names the scored loss.
//
// # Why
//
// With the same model, neural-adb-plus's own duels beat uniformly random ones
// on Square and Cosine but lose on held-out CEMSChoice students: its
// knowledge gradient optimises the policy on the training pool, while the
// held-out score weighs every pair of new students alike. The duel a learner
// should ask depends on what will be scored, so the rule here is one
// principle — the expected one-step reduction of the scored loss on target
// contexts drawn from the context distribution — with the loss as a typed
// field:
//
//	objective  scored loss                           rule
//	predict    answers of new contexts' duels        expected predictive information gain (EPIG)
//	           (held-out log-loss; labelling)         about target duels' answers
//	policy     which arm is best in each context     knowledge gradient of the policy on the
//	           (the pool's mean gap)                  target contexts (neural-adb-plus's rule)
//
// predict is the zero value (the labelling commands' default: one labels
// one's own data to predict the answers of people not yet asked). The
// experiments set the objective from the metric a figure scores, declared
// with the evaluation (experiments/sweep/target.go): policy where the score
// is a policy's gap or accuracy (the synthetic problems in both readings,
// Shuttle's held-out accuracy), predict where it is the prediction of
// answers (CEMSChoice's held-out log-loss and accuracy).
//
// # Model (target_model.go, target_net.go)
//
// neural-adb-plus's family (plus_doc.go): members h_λ(x) = uᵀx + g(x;θ),
// λ ∈ {1, 10, 100, ∞}, Newton steps in u and Adam steps on θ every
// Config.RetrainEvery duels, ranked by temperature-calibrated discounted
// prequential likelihood on first-time duels and averaged with weights
// w_λ ∝ exp(criterion_λ) (members of weight below 1e-9 are not evaluated).
// What differs is where the work is done. Training touches only the rows of
// the duels, copied on first use; the first layer runs through the rows'
// non-zeros when fewer than a quarter are non-zero (pools written as
// [covariates, arm one-hot] or disjoint encodings), else dense; the Newton
// direction in u is solved by conjugate gradients on Σ_s w_s z_s z_sᵀ + λu I
// applied through the sparse differences z_s = x_win − x_lose (never a d×d
// matrix per duel); above MaxBatch duels each Adam step uses a mini-batch of
// MaxBatch duels (never at paper scale, T ≤ 1000).
//
// # Posterior (target_post.go)
//
// neural-adb-plus's last-layer Laplace posterior of the member in use,
// h(x) = βᵀz(x), z = [x; e(x)], P = diag(λu I_d, λ I_w) + Σ_s μ'(m_s) ψ_s ψ_sᵀ,
// kept as Σ = P⁻¹ only (m × m, m = d + w): rebuilt at each retrain (one
// product ΨᵀDΨ), rank-one downdated between retrains and for pending duels
// (Pender). ν̂² and the temperature τ̂ are fitted prequentially as in
// neural-adb-plus.
//
// Per-context state exists only for the target sample T (TargetContexts
// contexts drawn uniformly from the pool — all of them on pools of at most
// TargetContexts contexts — or, in the fresh-context reading, from a uniform
// reservoir of the fresh contexts seen, since the committed ones were chosen
// by the learner; redrawn at every retrain) and for the round's candidate
// contexts outside it: their z, h̄ (policy only: predict reads the member in
// use's scores), the blocks Q_c = Z_c Σ Z_cᵀ and, for T, S = Σ Z_Tᵀ (under
// predict only the columns of the rows a target duel touches, the only ones
// read). A duel's downdate Σ ← Σ − f u uᵀ (u = Σψ, f = κ/(1 + κψᵀu))
// updates them through r = Z_T u: O(|T|·K·m) per duel, whatever the pool.
//
// # Choice of the duel (target_select.go)
//
// Candidates offered contexts are drawn uniformly, from T where T's contexts
// are on offer (topped up with other offered contexts, whose state is
// computed for the round); with probability Explore the duel is a uniformly
// random allowed pair of a random candidate (as neural-adb-plus). Otherwise:
//
// policy: in each candidate the greedy first arm and the second arm of
// largest expected improvement (neural-adb-plus's plusArms); among these,
// the duel of largest knowledge gradient on T,
//
//	KG(ψ) = Σ_{c∈T} E[max_a (h̄_{c,a} + β_{c,a} Z)] − max_a h̄_{c,a},
//	β_n = ν̂² z_nᵀΣψ / √(ν̂² ψᵀΣψ + 1/κ),   κ = μ'(h_a − h_b),
//
// the exact Gaussian update of the posterior ν̂²Σ by an answer read as an
// observation of h_a − h_b of noise 1/κ (neural-adb-plus reads the noise as
// ν̂²/κ; PlusNoise restores that reading). On a pool of at most
// TargetContexts contexts this is neural-adb-plus's pool-wide knowledge
// gradient; on larger pools an unbiased estimate of it up to the factor
// |pool|/|T|, which the argmax ignores.
//
// predict: in each candidate the PairsPerContext allowed pairs not asked
// before (asked ones only when none is left) of largest own information
// ½ log(1 + ν̂² κ ψᵀΣψ); among these, the duel of largest expected
// predictive information gain about the answers y* of TargetPairs target
// duels (c*, a*, b*) drawn uniformly from T (Bickford Smith et al., 2023),
// in the linear-Gaussian reading of the Bradley–Terry answers (an answer
// observes h_a − h_b with noise 1/κ):
//
//	EPIG(ψ) = mean_p −½ log(1 − ρ_p²),
//	ρ_p² = (ν̂² ψ*_pᵀΣψ)² / ((ν̂² ψᵀΣψ + 1/κ)(ν̂² ψ*_pᵀΣψ*_p + 1/κ_p)),
//
// the mutual information between the candidate's answer and a target's.
// It prefers duels near a tie (1/κ smallest) whose uncertainty is shared
// with many targets (ψ*ᵀΣψ large), and among those the ones that inform the
// targets rather than themselves — what separates it from uncertainty
// sampling. Both rules take the answer's β or ρ for all candidates from one
// product of their ψ with S (internal/gemm).
//
// Batches (Pender, SelectBatch): a pending duel joins Σ, the blocks and S at
// once, so the next duel of a batch is chosen knowing what the earlier ones
// will teach: a second duel that informs the same targets loses its value,
// which keeps batches diverse without a separate diversity term.
//
// # Cost that follows the answers
//
// Per round: Candidates contexts' state (free when drawn from T), one
// (candidates × m) by (m × |T|·K) product and the rule's sums over T. Per
// answer: one downdate of Σ and T's state. Per retrain: the members' training
// on the duels' rows, Σ from the duels, T's state. Nothing passes over every
// pool row except Policy (the argmax over the committed contexts, computed in
// blocks when asked and kept until the model changes) and Score. When more
// than DeferAfter (MaxIdle) answers arrive without a Select, Pend, Policy or
// Score in between (answers replayed in bulk), retraining waits for the next
// such call: one retrain instead of one per Config.RetrainEvery answers (the
// prequential records of those answers use the model before it); between
// BeginReplay and EndReplay (Replayer, replay.go) it retrains at
// RetrainEvery·2^k answers and once at EndReplay. Experiment runs never
// replay, and they wait only as a passive twin checked less often than every
// MaxIdle answers (a checkpoint calls Policy; the learner's own choice calls
// Select every round): every figure's run retrains every RetrainEvery
// answers.
//
// Development runs (seeds ≥ 101 and splits ≥ 101 only) are logged in
// target_devlog.md; the evaluation is pre-registered in verify/prereg/target.json.
