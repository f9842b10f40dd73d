// Package mlp is the reward model of Neural-ADB (paper Section 3.1): a fully
// connected ReLU network h(x;θ) with hand-written batch back-propagation, the
// Bradley–Terry training loss of eq. (2), plain gradient descent and Adam, and
// the gradient features g(x;θ0) at the initial parameters together with their
// closed-form inner products (the empirical neural tangent kernel).
//
// # Network
//
// With L = Arch.Depth hidden layers of width w = Arch.Width,
//
//	h_0 = x,  h_l = ReLU(W_l h_{l-1} [+ b_l]),  h(x;θ) = vᵀ h_L [+ b_out],
//
// W_1 ∈ R^{w×d}, W_l ∈ R^{w×w}. Without biases (the default, matching the paper's
// count) the number of parameters is p = dw + (L−1)w² + w; for d = 20, w = 50,
// L = 2 that is 3,550. θ is stored flat in the order W_1, [b_1], …, W_L, [b_L],
// v, [b_out], each matrix row-major.
//
// # Gradient features and their kernel
//
// Back-propagating a unit output gradient gives per-layer signals
// δ_L = v ∘ 1[h_L > 0] and δ_l = (W_{l+1}ᵀ δ_{l+1}) ∘ 1[h_l > 0]. The gradient
// with respect to W_l is δ_l h_{l-1}ᵀ, so the inner product of two gradients is
//
//	⟨g(x;θ), g(x';θ)⟩ = h_L·h_L' + Σ_l (δ_l·δ_l')(h_{l-1}·h_{l-1}')  [+ Σ_l δ_l·δ_l' + 1 with biases],
//
// computed in O(d + Lw) per pair without forming the p-vectors. Features
// computes these signals once for every pool vector; Entry, ColumnTo and GramTo
// evaluate the inner products of φ = g(x;θ0)/√w.
//
// # Initialisation
//
// InitMirrored (default) is the mirrored Gaussian initialisation of Zhang et
// al. (2021, Algorithm 1) adapted to non-mirrored inputs: W_1 = [A; A],
// W_l = diag(B, B), v = [u; −u] with A, B ~ N(0, 4/w) and u ~ N(0, 2/w), so that
// h(x;θ0) = 0 for every x. The network records that it sits at such a θ0 and
// returns exactly 0 there instead of the ~1e-16 floating-point residue, so that
// greedy choices at θ0 are decided by the caller's seeded tie-breaking and not by
// rounding. Alternatives: InitHe (N(0, 2/fan_in)), InitGaussian (N(0, s²), the
// scale of the closest public relative when s = 1), InitUniform (PyTorch's
// default U(−1/√fan_in, 1/√fan_in)).
//
// # Loss
//
// The training loss is L(θ) = S · Σ_s −log μ(h(x_{s,w}) − h(x_{s,l})) + R(θ) with
// μ the logistic function, S = 1 ("sum", default), 1/n ("mean") or 1/w ("width",
// eq. 2 as printed), and R(θ) = λ‖θ‖² (the practical regulariser of Appendix B,
// default) or (λ/2)‖θ − θ0‖² (eq. 2). Repeated pool vectors are forwarded once
// per step; the result is the same sum evaluated in a different order.
// Regression targets (Trainer.AddTarget, used by the AE-Borda (NN) baseline)
// add S · Σ_r (h(x_r) − y_r)² to the same loss, so that with R = λ‖θ‖² a
// linear h would give ridge regression; with "mean" S counts pairs and targets.
//
// # Products
//
// The matrix products of Forward, Backward, ColumnTo and GramTo, the ReLU and
// the ReLU masks of the signals go through package gemm: every entry is one
// chain of fused multiply–adds in a fixed order, so the results are the same
// bits with its pure-Go loops and with its AVX2 or AVX-512 kernels, whatever
// the processor (TestKernelPathsAgree). Forward and Backward take a batch
// through every layer in blocks of rows (blockRows), so that a block's
// activations and signals are still in cache when the next product reads
// them; the chains of the weight gradients run over the rows in increasing
// order, continued from block to block, so the blocking changes no bit
// (TestBlocksFollowReferenceChains checks both against plain loops). Without
// biases, a hidden layer's ReLU and a signal's mask are applied by the
// product's kernels before they store a tile (gemm.MulStridedReLUTo,
// gemm.MulMaskTo), not in a further pass over the block. A
// Trainer copies the inputs of its rows into the batch once, not at every
// step, and leaves out the loss value (softplus) where Train needs only the
// gradient. StreamKernel computes its entries
// against the committed rows the same way: per tile of rows × gathered
// columns, one product per signal matrix, then the closed form element-wise,
// so an entry does not depend on the other rows or columns of the call
// either (TestStreamKernelBits). At a mirrored θ0 every hidden signal is two
// equal (δ: opposite) halves; when all rows of both feature sets are (checked
// exactly as the signals are computed), StreamKernel takes those inner
// products over the first halves and doubles them, almost halving its work.
//
// Shape mismatches and invalid arguments are programmer errors and panic.
package mlp
