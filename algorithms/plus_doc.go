package algorithms

// neural-adb-plus (ours, not in the paper): a neural active learner for the
// paper's problem built to repair what the reproduction found wrong with
// Neural-ADB as written: a context rule that locks on (package
// experiments/lockon), a network that overfits noisy answers, and a
// confidence width σ that does not cover the errors. Every switch is a field
// of PlusOptions; the registered learner uses DefaultPlusOptions on every
// problem, unchanged since the learner's first commit, which precedes the
// first results of its evaluation seeds 1–30 (experiments/sweep/plus.go).
// The development runs that chose it are not logged in the repository
// (neural-adb-target's are, in target_devlog.md), so the seeds they used
// cannot be checked; the first, 10-seed ablation ran on evaluation seeds
// 1–10. Nothing is tuned per problem: what must adapt is chosen during the
// run from the duels collected so far.
//
// # Reward model (plus_model.go, plus_fit.go)
//
// A family of models, one per λ of the grid Lambdas = {1, 10, 100, ∞}:
//
//	h_λ(x) = uᵀx + g(x;θ),   g the paper's MLP, mirrored θ0 (g(·;θ0) = 0)
//	L_λ(u, θ) = Σ_s −log μ(h(x_{s,win}) − h(x_{s,lose})) + (λu/2)‖u‖² + (λ/2)‖θ − θ0‖²
//
// that is eq. (2) with its (λ/2)‖θ − θ0‖² regulariser plus a linear part, so
// that near-linear rewards are learnt as well as by the linear baselines
// (λ = ∞ is the linear Bradley–Terry model alone). Every Config.RetrainEvery
// duels each member is refitted by block coordinate descent: damped Newton
// steps on u (convex, newtonU) and then warm-started full-batch Adam steps on
// θ, max(Steps, min(MaxSteps, StepBudget/n)) of them on n duels (more steps
// while the data are few, where they are cheap).
//
// Choice of λ: before a member is trained on a duel it predicts it; the
// member in use is the one with the largest discounted (half-life
// PreqHalfLife duels) prequential log-likelihood Σ_s log μ(τ m_s) after a
// fitted temperature τ (plusFitTemperature), m_s its margin h_win − h_lose.
// The temperature makes the criterion blind to the overall scale of h, which
// the policy argmax_a h ignores as well: without it, an overconfident but
// well-ranking member loses to one that predicts a coin everywhere. Only
// duels whose (context, pair) was not asked before are scored (a repeated
// question is no test of generalisation; on replayed data its answer is
// known). The members are then averaged rather than one picked: with
// weights w_λ ∝ exp(criterion_λ) (a prequential log-likelihood is a log
// marginal likelihood, so these are Bayesian model-averaging weights over the
// grid), h̄ = Σ_λ w_λ τ_λ h_λ / τ_best on the scale of the best member, which
// is what the policy, the arm rule and Score (calibrated: Σ_λ w_λ τ_λ h_λ)
// use. Where no member predicts better than the others (weak signal, as on
// Cosine) the average keeps the flexible members' ranking instead of
// switching at random between them.
//
// # Uncertainty (plus_posterior.go)
//
// The linearised Laplace posterior of the last layer β = [u; v] of the best
// member, h(x) = βᵀz(x), z(x) = [x; e(x)] with e the last hidden layer at θ_t:
//
//	P = diag(λu I_d, λ I_w) + Σ_s μ'(ĥ_win,s − ĥ_lose,s) ψ_s ψ_sᵀ,   ψ_s = z(x_win,s) − z(x_lose,s),
//
// the Gauss–Newton curvature of L_λ weighted by the Bradley–Terry Fisher
// information. Σ = P⁻¹ and every context's K×K block Z_c Σ Z_cᵀ are kept
// exactly (rank-one downdates between retrains, rebuilt at each retrain), so
// Var(h_a − h_b) = ν̂²(z_a − z_b)ᵀΣ(z_a − z_b) costs O(1). ν̂ is calibrated
// prequentially: (τ, ν̂) maximise the discounted likelihood of the scored
// duels under the probit approximation μ(τ m / √(1 + π τ² ν² v / 8)), each
// duel predicted with the mean m and variance v the learner had before it
// was answered (plusPosterior.fitNu).
//
// # Choice of the duel (plus_select.go, plus_kg.go)
//
// Each round, Candidates contexts are drawn uniformly; in each, the first
// arm is greedy, a1 = argmax_a h, and the second maximises the expected
// improvement E[(h̃_b − h̃_a1)⁺] under the posterior. Among these duels the
// learner asks the one with the largest pool-wide knowledge gradient
//
//	KG(c, a1, b) = Σ_{c'} E[max_a (h_{c',a} + β_{c',a} Z)] − max_a h_{c',a},
//	β_n = ν̂ z_nᵀΣψ / √(ψᵀΣψ + 1/μ'(h_a1 − h_b)),   ψ = z_{c,a1} − z_{c,b},
//
// the expected increase of the posterior-mean value of the greedy policy over
// the whole pool after the answer, read as a Gaussian observation of
// h_a1 − h_b with noise variance ν̂²/κ, κ = μ'(h_a1 − h_b) (the answer's
// Fisher information in the posterior's units, whose variances carry ν̂²; κ
// is taken at the current member's h, without its temperature τ): the
// one-step expected reduction of the pool-wide policy loss,
// the quantity the paper's mean gap measures. Each context's term is the
// exact integral over the upper envelope of K lines (plusKG); all β come from
// one matrix product. With probability Explore the duel is instead a uniformly
// random pair of a random candidate context, which keeps the data from
// becoming self-reinforcing (and keeps every pair type represented).
//
// Every rule keeps to the round's Offer: the candidates are drawn from the
// offered contexts, the arms from the allowed pairs (Offer.MaskFirstArm,
// MaskSecondArm), the random duel among the allowed pairs. Since P depends on
// which duel is asked but not on its answer, the learner is a Pender: a
// pending duel enters Σ and the blocks at once (and every rebuild until its
// answer arrives), so SelectBatch's k duels each account for what the
// earlier ones will teach.
//
// # The fresh-context reading (plus.go: sync)
//
// Everything kept per pool row (the members' g and h, the average, z and the
// blocks, the tie-break priorities) follows Pool.Generation: rows of newly
// committed contexts and the round's fresh rows are recomputed from the
// current parameters and Σ; committed rows never change. Score (Scorer) is
// the calibrated average Σ_λ w_λ τ_λ h_λ(x), what the evaluation pool of that
// reading is scored with.
//
// # Ablation (Config.PlusAblate, plusOptions)
//
//	fixed-lambda     the grid replaced by Config.Lambda (paper: 1)       Lambdas
//	raw-likelihood   members ranked without the temperature τ            Temperature
//	no-average       the best member instead of the average              Average
//	no-step-budget   Steps (25) Adam steps per retrain throughout        StepBudget
//	no-fisher        every duel's curvature weight 1/4                   Fisher
//	no-nu-fit        ν̂ = 1                                               FitNu
//	no-kg            the duel of the largest own expected improvement    KG
//	no-random-duels  no random duels                                     Explore
//
// Cost: the members' training dominates (three networks with Adam, the
// linear member without); the selection costs one (N × (d+w)) × Candidates
// product (internal/gemm), a cheap upper bound of each of the Candidates ×
// Contexts knowledge-gradient terms, and the envelope integrals of only the
// candidates whose bound reaches an earlier candidate's exact total
// (plus_kgprune.go) per round.
