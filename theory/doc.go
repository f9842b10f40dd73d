// Package theory checks the paper's Section 3.3 numerically: Theorem 1 (the
// bound on max_{z∈Z} ‖z‖_{V_T⁻¹}), the effective dimension d̃ of eq. (9), and
// the constant κ_μ of Assumption 1. It reports what holds and what fails,
// with numbers; it proves nothing by itself.
//
// # Theorem 1 as stated
//
// For an adapted sequence z_1..z_T ∈ R^d with Σ_s = E[z_s z_sᵀ] ⪯ Σ_max,
// ‖z‖ ≤ L on Z, ‖V_s − V_{s−1}‖² ≤ C_s and V_T = λI + Σ_s z_s z_sᵀ, the paper
// claims that with probability at least 1 − δ
//
//	max_{z∈Z} ‖z‖_{V_T⁻¹} ≤ L/G_T,   G_T² = T·λ_min(Σ_max) − √(8·Σ_s C_s·log(d/δ)).
//
// Tracker computes every term exactly for a given sequence (Quantities):
// V_T, λ_min(V_T), the maximum over Z (Support: Ball, Ellipsoid or a Finite
// set such as the pool's feature differences), C_s = ‖z_s z_sᵀ‖² = ‖z_s‖⁴,
// λ_min of Σ_max and Σ_min, and the bound of every Claim. A non-positive
// radicand gives an undefined Bound (the statement then asserts nothing),
// never a NaN.
//
// # Claims
//
// Literal is the statement with the generator's least valid Σ_max and the
// a-priori C_s = L⁴; LiteralRealisedC uses the least admissible C_s, the
// realised ‖z_s‖⁴; LiteralScalar uses Σ_max = L²·I, valid for every sequence
// with ‖z‖ ≤ L; LiteralUnconditional reads Σ_s as the unconditional moment
// E[z_s z_sᵀ] instead of E[z_s z_sᵀ | F_{s−1}] (the two differ only for rules
// that are deterministic given the past but random overall, such as greedy
// over random candidates). Repaired is the corrected statement below. A claim is
// violated by a sequence when the measured maximum over Z exceeds its bound;
// CheckTheorem1 counts violations over seeds and calls a claim failed when the
// violation frequency exceeds δ with 95% confidence (Clopper–Pearson).
//
// # Where the proof breaks, and the repaired statement
//
// The proof (appendix, "Proof of Theorem 1") lower-bounds λ_min(V_T) by
// λ_min(E[V_T]) − τ and then replaces λ_min(E[V_T]) by T·λ_min(Σ_max). But
// Σ_s Σ_s ⪯ T·Σ_max gives λ_min(E[V_T]) ≤ λ + T·λ_min(Σ_max): an upper bound,
// where a lower bound is needed. A larger (looser, still valid) Σ_max would
// make the claimed bound tighter. Moreover, for an adapted sequence Σ_s is a
// conditional moment E[z_s z_sᵀ | F_{s−1}], and the matrix Azuma inequality
// (Tropp 2012, Thm 7.1) concerns the martingale Σ_s (Σ_s − z_s z_sᵀ), not
// V_T − E[V_T]; its variance proxy must be a deterministic bound, so a
// realised C_s does not qualify.
//
// Repaired statement (checked beside the literal one). Let z_s be adapted
// to F_s, ‖z_s‖ ≤ L almost surely, Σ_s = E[z_s z_sᵀ | F_{s−1}] ⪰ Σ_min almost
// surely for every s, with Σ_min deterministic. Then with probability at
// least 1 − δ
//
//	λ_min(V_T) ≥ G'², G'² = λ + T·λ_min(Σ_min) − √(8·T·L⁴·log(d/δ)),
//
// and, when G'² > 0, max_{‖z‖≤L} ‖z‖_{V_T⁻¹} ≤ L/G'. Proof: X_s = Σ_s − z_s z_sᵀ
// is a martingale difference sequence of self-adjoint matrices; as both terms
// are positive semi-definite with norm ≤ L², −z_s z_sᵀ ⪯ X_s ⪯ Σ_s gives
// X_s² ⪯ L⁴·I. Matrix Azuma with A_s = L²·I, σ² = ‖Σ_s A_s²‖ = T·L⁴ gives
// P(λ_max(Σ_s X_s) ≥ τ) ≤ d·exp(−τ²/(8σ²)), i.e. τ = √(8·T·L⁴·log(d/δ)). On
// the complement, V_T = λI + Σ_s Σ_s − Σ_s X_s and Weyl's inequality give
// λ_min(V_T) ≥ λ + λ_min(Σ_s Σ_s) − τ ≥ λ + T·λ_min(Σ_min) − τ, and
// ‖z‖²_{V⁻¹} ≤ ‖z‖²/λ_min(V) (Fact 4) ends the proof. When Σ_max = Σ_min
// (i.i.d. data) the two statements agree up to the λ term. For any rule that
// is deterministic given the past (greedy, UCB, Neural-ADB's rules) Σ_s is
// rank one, Σ_min = 0, and the repaired statement is vacuous: it says nothing
// about the sequences the paper applies Theorem 1 to.
//
// # Generators and how Σ_s, Σ_max, Σ_min and Z are obtained
//
//   - IIDIsotropic: z = L·u, u uniform on the sphere. Σ_s = (L²/d)·I exactly;
//     Σ_max = Σ_min = Σ_s. Z: the sphere (maximum L/√λ_min(V_T)).
//   - IIDAnisotropic: z = A·u, A = diag(a), a_i = L·r^{i/(d−1)}. Σ_s = A²/d;
//     Σ_max = Σ_min = Σ_s. Z: the ellipsoid {Au}, max² = λ_max(A V⁻¹ A).
//   - Greedy: z_s = argmax over N random candidates (drawn once, on the
//     sphere of radius L) of ‖c‖_{V_{s−1}⁻¹}, the rule of APO and of
//     Neural-ADB's context rule (eq. 3). Deterministic given F_{s−1}:
//     Σ_s = z_s z_sᵀ. Σ_max = L²·I, the least valid upper bound (a candidate
//     lies near any direction with positive probability); Σ_min = 0. Z: the
//     sphere.
//   - EpsGreedy: with probability ε a fresh uniform point of the sphere, else
//     the greedy candidate g_s. Σ_s = ε(L²/d)·I + (1−ε)·g_s g_sᵀ exactly;
//     Σ_max = (ε/d + 1 − ε)·L²·I (least), Σ_min = ε(L²/d)·I. Z: the sphere.
//   - AdvSubspace (deterministic): z_s = L·e_s for s ≤ d, then z_s cycles
//     through the first K axes (K = 0: z_s = 0). The Σ_s = z_s z_sᵀ are
//     diagonal and commute; Σ_max is their least diagonal upper bound L²·I and
//     Σ_min their greatest diagonal lower bound. Any valid Σ_max, diagonal or
//     not, has λ_min ≥ L²/d (test u = 1/√d), so the failure does not depend
//     on this choice. Z = {±L·e_j}.
//   - AdvRandomSubspace: the same warm-up, then ±L·e_J with J uniform on the
//     first K axes; Σ_s diagonal and exact; least diagonal Σ_max = L²·I.
//   - SpikeThenConstant (deterministic, d = 1): z_1 = L, then z_s = C·L
//     (C = 1/√2 in the checks). Σ_1 = L², Σ_s = C²L²; Σ_max = L² (in d = 1
//     every valid Σ_max is at least Σ_1), Σ_min = C²L². No step vanishes.
//   - SpikeThenUniform (d = 1): z_1 = L, then z_s i.i.d. uniform on (−L, L).
//     Σ_s = L²/3 for s ≥ 2 (independent of the past); Σ_max = L²,
//     Σ_min = L²/3. Continuous, so no reading of degenerate duels applies.
//   - NeuralSequence: the pairs a registered Neural-ADB learner queries on a
//     synthetic problem, z_s = φ(c_s, win) − φ(c_s, lose) with
//     φ = g(·;θ0)/√w as explicit p-vectors (mlp.Features.GradientTo), at the
//     reduced scale of DefaultNeuralSequence (Square, d = 5, K = 5,
//     30 contexts, width 8, p = 112). With F_{s−1} holding the past answers
//     and the learner's selection draws of round s, the pair is fixed and the
//     answer's sign does not change zzᵀ: Σ_s = z_s z_sᵀ. Σ_max = L²·I (least
//     scalar bound over Z); Σ_min = 0. Z = the pool's pair differences (the Z
//     of Theorems 2 and 3). The theorem's λ is the learner's λ/κ. Under the
//     mirrored θ0 the features span a proper subspace S of R^p (gradients of
//     mirrored halves are ± copies), so λ_min(V_T) = λ/κ at every T and L²·P_S
//     is also a valid Σ_max, with λ_min = 0: with it the statement is vacuous.
//
// # Smallest counterexample
//
// SmallestCounterexample searches the deterministic adversaries by (d, T).
// With λ = L = 1, δ = 0.05 it finds d = 1, T = 28 for Literal: z_1 = 1 and
// z_2 = … = z_28 = 0, so Σ_max = max_s Σ_s = 1 (in d = 1 every valid Σ_max is
// at least this), V_28 = 2 and max_{|z|≤1} |z|/√V_28 = 1/√2 = 0.7071, while
// G² = 28 − √(224·ln 20) = 2.0955 and L/G = 0.6908. The failure has
// probability 1 > δ. It is the smallest in d = 1 among all deterministic
// sequences: violation needs T·m − √(8·T·log 20) > λ + Σ_s z_s² ≥ 1 + m with
// m = max_s z_s² ≤ 1, first true at T = 28. With the realised C_s the
// condition becomes T − √(8·ln 20) > 2, first true at T = 7.
//
// # Counterexamples that rest on no degenerate sequence
//
// The smallest counterexample repeats z = 0, which can be dismissed as an arm
// dueling itself. Three more cannot (Results.writeRobust, in
// counterexample.txt and summary.md):
//
//   - SpikeThenConstant with C = 1/√2: V_T = (T + 3)/2, and violation needs
//     T − 3 > 2·√(8·T·ln 20), first true at T = 102 (FirstViolation).
//   - SpikeThenUniform: V_T ≈ 2 + (T − 1)/3 against G² = T − √(8·T·ln 20);
//     every one of 1000 sequences violates the statement for T ≥ 100
//     (ContinuousOptions).
//   - Monotonicity: Σ_max = M·I is admissible for every M ≥ L², yet the bound
//     L/√(T·M − τ) tends to 0 as M grows, while every sequence has
//     max_{‖z‖≤L} ‖z‖_{V_T⁻¹} ≥ L/√(λ + T·L²). Beyond UniversalSigmaMax
//     (≈ 1.19 at T = 1000, d = 4) every sequence violates the statement
//     (MonotoneTable). A true statement cannot get stronger as its
//     hypothesis weakens.
//
// The failures of greedy and ε-greedy depend on reading Σ_s as the
// conditional moment, which the proof's matrix martingale requires: their
// rule is a function of the past, so Σ_s = z_s z_sᵀ and the least valid
// Σ_max is L²·I. Read unconditionally, E[z_s z_sᵀ] = (L²/d)·I by rotation
// invariance, and they satisfy the statement (LiteralUnconditional). The
// adversaries and the two spike sequences violate it under both readings.
//
// # Effective dimension (eq. 9)
//
// d̃ = log det(I_p + (κ/λ)·𝕍), 𝕍 = Σ_{s≤T} Σ_{a<b} z_{a,b}(s) z_{a,b}(s)ᵀ with
// z_{a,b}(s) = φ(c_s, a) − φ(c_s, b) over unordered pairs (the text's
// C_2^{|A|}; its A×A would double 𝕍) and φ = g/√w (the 1/w of 𝕍 absorbed,
// as in package gram). Per context Σ_{a<b}(φ_a − φ_b)(φ_a − φ_b)ᵀ =
// K·Φ_cᵀΦ_c − (Φ_cᵀ1)(Φ_cᵀ1)ᵀ = K·Φ_cᵀ U Uᵀ Φ_c with U the Helmert basis of
// the zero-sum subspace. EffectiveDimensionPrimal factorises the p×p matrix;
// EffectiveDimensionDual the ((K−1)·#contexts)-square matrix
// I + α·B Bᵀ built from the closed-form kernel (mlp.Features.Entry), equal by
// Sylvester's determinant identity; EffectiveDimension picks the smaller.
// Both are Cholesky log-determinants; when α·tr(𝕍) < 1e-6 the two-term
// series α·tr𝕍 − α²·tr(𝕍²)/2 is used instead (1 + x would round x away).
// The tests compare both routes with a brute-force determinant.
//
// BriefBound p·log(1 + αTL²/p) is the determinant–trace bound for one rank-one
// term per round; 𝕍 has K(K−1)/2 terms per round, so it does not bound d̃
// (PairsBound does, and EffDim.TraceBound is the tighter r·log(1 + α·tr𝕍/r)).
// PaperScale runs Neural-ADB as written and with random contexts at the
// paper's scale (Square, d = 20, K = 10, 300 contexts, width 50, p = 3,550,
// T ≤ 1000) and reports d̃, the bounds, log–log slopes, and Theorem 1 on the
// pool's pair differences, read from the learner's own exact confidence
// state (max_c of gram.Confidence.MaxPair), with λ_min(V_T) = λ/κ exact
// because T < p.
//
// # κ_μ
//
// KappaTable computes κ_μ = min μ'(f(c,a) − f(c,b)) = μ'(largest
// within-context gap) by experiments.Latent.KappaMu, with
// μ'(x) = e^{−|x|}/(1 + e^{−|x|})², which does not cancel where σ(1 − σ)
// would (κ_μ ≈ e^{−36} on Square), and the lower bound
// √(2·log(1/δ)/(κ_μ·λ)) on the ν_T that Theorems 2 and 3 prescribe.
//
// # API for package verify
//
//	rep, err := theory.CheckTheorem1(ctx, theory.DefaultTheorem1Options(false))
//	cs, _ := rep.Verdict("adversarial-subspace-k0", theory.Literal) // cs.Verdict == theory.Fails
//	ps, err := theory.PaperScale(ctx, theory.DefaultPaperScaleOptions(false))
//	ps.Summaries[i].DTildeSlope // log–log slope of d̃ with its CI
//	ce, err := theory.SmallestCounterexample(theory.Literal, 3, 200, 1, 1, 0.05)
//
// Run does all of it and Results.Write writes the tables (CSV, Markdown) and
// figures that `nadb theory` puts under figures/theory; Redraw draws the
// figures again from the tables. The figures name generators and claims for
// a reader (GeneratorTitle: "adversarial: each axis once, then 0" for
// adversarial-subspace-k0); the tables keep the names above.
//
// # Dependencies
//
// theory sits beside experiments under verify: it uses experiments to build
// the paper's problems and to run Neural-ADB for the sequences it checks, and
// experiments never imports theory, so the dependence stays one-directional.
//
// # Randomness and determinism
//
// Generators draw from PCG streams (seed, 200+k); Neural-ADB runs use the
// experiments' and learners' own streams of the same seed. Parallel runs
// write into per-seed slots, so results and output bytes do not depend on
// Workers or GOMAXPROCS. Shape errors and impossible arguments to Tracker
// panic; bad options return errors.
package theory
