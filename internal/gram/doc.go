// Package gram keeps the exact confidence algebra of Neural-ADB (paper
// Section 3.2): for a pool of N contexts × K arms with feature rows φ_n and the
// Gram matrix
//
//	V_t = a·I_p + Σ_{s≤t} ψ_s ψ_sᵀ,   ψ_s = φ_{i_s} − φ_{j_s},   a = λ/κ_μ,
//
// it maintains, for every context c, the K×K block Q_c = Φ_c V_t⁻¹ Φ_cᵀ, so
// that every pair norm ‖φ_{c,a} − φ_{c,b}‖²_{V⁻¹} = Q_aa + Q_bb − 2Q_ab is
// available each round in O(1).
//
// # Convention for the 1/w factor
//
// The paper writes V_{t} = (λ/κ)I + Σ z_s z_sᵀ/w with z_s a difference of raw
// gradients g(·;θ0). This package works with the scaled features
// φ = g(·;θ0)/√w throughout, so ψ_s = z_s/√w and the 1/w of V is absorbed into
// the features exactly once. The caller supplies the kernel of those scaled
// features (mlp.Features with Scale = 1/w). Whether σ² then carries a second
// 1/w is the caller's choice (algorithms.Config.SigmaWidth).
//
// # The kernel route
//
// Nothing of size p is formed. With K0 = ΦΦᵀ (the kernel of the features, in
// closed form from package mlp) the Sherman–Morrison update of V⁻¹ becomes an
// update of its N×N image M_t = Φ V_t⁻¹ Φᵀ:
//
//	r_t = M_{t−1} ψ-column = (K0[:,i] − K0[:,j])/a − Σ_{s<t} r̃_s (r̃_s[i] − r̃_s[j]),
//	γ_t = 1 + r_t[i] − r_t[j] = 1 + ψ_tᵀ V_{t−1}⁻¹ ψ_t,   r̃_t = r_t/√γ_t,
//	M_t = M_{t−1} − r̃_t r̃_tᵀ,
//
// at most O(N·t) per round for r_t plus O(N·K) to update every block — and
// less in practice: an update computes r̃_t only for the contexts of its two
// rows, and any other context catches up (with exactly the same arithmetic)
// when it is next read, so rows nobody reads cost nothing, and a stale block
// bounds the current norms from above (MaxPairBound). The vectors r̃_s
// are the columns of (1/√a)·B L⁻ᵀ where B = ΦΨ and L Lᵀ = a·I_t + ΨᵀΨ: the
// recursion is a left-looking Cholesky factorisation of the t×t dual Gram
// matrix, one column per round, so its rounding errors are those of a
// backward-stable Cholesky. Refresh recomputes all r̃_s and blocks from
// scratch by a blocked Cholesky of that t×t matrix (O(t³ + N·t²)); a refresh
// every RefreshEvery updates bounds any accumulated drift.
//
// # Single-vector updates
//
// AddRow applies ψ = φ_i instead of a difference (the design V = a·I + Σ φφᵀ
// of learners that regress on one feature vector per query, such as
// AE-Borda); the recursion is the same with r_t = M_{t−1}[:,i] and
// γ_t = 1 + r_t[i]. RowNorm2 reads ‖φ_{c,a}‖²_{V⁻¹}, the diagonal of Q_c.
//
// Norms only shrink as V grows, so stale norms are upper bounds.
//
// # Fresh contexts (Stream)
//
// In the other reading of the paper's protocol the experimenter draws M new
// contexts every round; the learner sees them only during that round, and
// only the queried context is kept ("committed"). Every update is then made
// of committed rows, ψ_s = Φ_comᵀu_s with u_s = e_i − e_j (or e_i), and norms
// are needed only for the round's fresh rows, which are new each round.
// Stream keeps the t×t dual factor instead of r̃ over a pool:
//
//	C = a·I_t + ΨᵀΨ,   C_{ss′} = u_sᵀ K_com u_{s′},   L Lᵀ = C,
//	V⁻¹ = (1/a)(I_p − Ψ C⁻¹ Ψᵀ)                        (Woodbury)
//
// and, for a fresh row x with b_x = Ψᵀφ_x (b_x[s] = K(x, i_s) − K(x, j_s)),
//
//	r̃[x] = (1/√a) L⁻¹ b_x,   φ_xᵀ V⁻¹ φ_y = K(x, y)/a − r̃[x]·r̃[y],
//	Q_c = K_c/a − R_c R_cᵀ    (R_c: the K rows r̃[x] of context c),
//
// the same r̃_s[x] that Confidence keeps for pool rows. Add appends row t of
// L: ℓ = L⁻¹ Ψᵀψ_t by forward substitution and L_tt = √(a + ψ_tᵀψ_t − ℓᵀℓ)
// (L_tt² = a·γ_t of the pool recursion). That is one row of the bordered
// (up-looking) Cholesky algorithm, so after t updates L is what that
// algorithm computes for C from scratch: no error accumulates beyond that of
// a backward-stable factorisation. Refresh rebuilds C from kernel entries and
// factorises it with the blocked algorithm (LAPACK dpotrf), as Confidence's
// Refresh does for r̃.
//
// Costs, with κ the cost of one kernel entry and |refs| ≤ 2t the committed
// rows named by updates: Add O(t² + |refs|·κ); a fresh row O(t²/2 + |refs|·κ);
// Refresh O(t³/3 + t·|refs|·κ). Memory is L (t² values), r̃ of the fresh rows
// (fresh rows × t, and a row-major copy once FreshR is called) and the
// blocks; the kernel keeps the features of the committed rows and a gathered
// copy of those in refs. Nothing grows with (rows ever committed) × t.
//
// Fresh rows are solved on first use in a round, in batches of contexts: the
// first context a rule asks for alone (a rule may read only that one), later
// ones together with the contexts not computed yet that follow them
// (doubling, from a batch of about a hundred rows), and SolveAll every context
// at once. The b_x of a batch are the columns of a t × m matrix, solved by
// blocks of rows of L: the update of a block by all the rows solved before
// it is a matrix product (package gemm), which reads each part of L once per
// batch instead of once per fresh row. The kernel entries of a batch are
// products of signal matrices too (mlp.StreamKernel), computed block by
// block of updates as the solve reaches them.
//
// A rule that takes the argmax of the largest pair norm over the fresh
// contexts (eq. 3 in the fresh-context reading) calls PrepareArgmax first:
// the contexts are solved in panels of whole contexts of at most 128 fresh
// rows (panelRows; one context if it has more), one block of rows of L at a
// time, and after each block every context's norm is bounded
// from above by its partial solve (every further row of L only removes a
// square, and boundTol covers the rounding); a context whose bound falls
// below the largest exact norm before it in the rule's walk is dropped,
// since the walk would skip it without changing its result or its random
// draws (MaxPairBound). The context with the largest bound after the first
// block is solved through first, so that the bounds have an exact norm to
// fall below; then the panels, in the walk's order, each solved through (or
// dropped) before the next, so that its partial solve stays in cache; the
// first panels hold 1, 2, 4, … contexts, so that the first contexts of the
// walk soon have exact norms for those after them. With 300 candidates most
// contexts are dropped after a fraction of the rows of L, and their kernel
// entries for the later rows are never computed.
//
// The fresh rows and Add are fixed chains of fused multiply–adds: r̃_i[x] is
// b_x[i]/√a − Σ_{k<i} L_ik r̃_k[x], rounded after each term in increasing k,
// divided by L_ii; ℓ of Add likewise, and ℓᵀℓ and each entry of R_c R_cᵀ one
// chain over s. The results are therefore the same bits on every gemm path
// and whatever the batching: a block does not depend on the order in which
// a rule asks for blocks.
//
// StreamKernel is the kernel interface Stream consumes: committed × committed,
// fresh × committed and fresh × fresh entries. LinearStream implements it for
// raw feature rows; mlp.StreamKernel for the gradient features (closed-form
// NTK entries across two row sets of one network at θ0).
package gram
