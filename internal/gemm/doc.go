// Package gemm holds the dense products of the reward network (package mlp):
//
//	MulTo             C = A·B      A m×k, B k×n   (back-propagation through W_l)
//	MulTransTo        C = A·Bᵀ     A m×k, B n×k   (forward pass, Gram tiles of the NTK)
//	AddTransMulTo     C += Aᵀ·B    A k×m, B k×n   (weight gradients, k = batch rows)
//	MulVecTo          y = A·x      A m×k          (output layer, NTK columns)
//	AddTransMulVecTo  y += Aᵀ·x    A m×k, x m     (output-weight gradient)
//
// the same products on blocks of larger matrices (rows at a stride), for the
// blocked Cholesky factorisation and triangular solve of package gram,
//
//	AddMulStridedTo       C += A·B
//	AddTransMulStridedTo  C += Aᵀ·B
//
// products fused with the element-wise step that follows them in a
// training step, the same bits as the separate passes (the kernels apply the
// step to a tile in registers before they store it): MulStridedReLUTo
// (MulStridedTo, then ReLU: a hidden layer of the forward pass),
// MulMaskTo (MulTo, then Mask: a signal of the backward pass), and
// OuterMaskTo (MulMaskTo of an outer product and AddTransMulVecTo by the
// same rows in one pass: the output signal and output-weight gradient),
//
// two element-wise steps decided on bits alone: ReLU (x ← +0 where the
// sign bit is set) and Mask (d ← +0 where h is +0, the ReLU derivative),
// AdamStep, the Adam update of every parameter as a fixed sequence of
// correctly rounded operations (product, sum, quotient, square root),
// AdamStepScale (the same, then g ← θ·s in the same pass: the next
// training step's gradient of λ‖θ‖²), and
// the element-wise steps of the closed-form kernel entries of package mlp,
// ScaleShift (x ← a·x + b), AddProduct (acc ← acc + (a·d)·(b·h + c)) and
// ScaleTo (dst ← x·s), each operation rounded on its own, and AxpyRows
// (y ← y + a_t·x_{idx_t} over the rows idx of x in turn, each product rounded
// before its sum: the sparse first layer of a network, y kept in registers
// from the first row to the last), Log1p (math.Log1p's bits, the
// arguments it reduces nothing for in vectors), and NormalLoss (the standard
// normal loss φ(c) − c(1 − Φ(c)) with math.Erfc's and math.Exp's bits, 8
// values at a time on the AVX-512 path), SigmoidTo (package logistic's
// Sigmoid with math.Exp's bits, 8 values at a time on the AVX-512 path: the
// duel terms of a training step), SlopeKeys (integer sort keys of
// up to 16 lines' slopes, the lines that fail a test of their means and
// slopes keyed last), and Transpose (a matrix's transpose, in blocks of
// 8 × 8 transposed in registers on the AVX-512 path: the W_lᵀ of a forward
// pass).
//
// Beside the network, the same care for other hot loops, each operation
// rounded on its own and every path giving the same bits: for Neural-ADB+'s
// pruned knowledge gradient (package algorithms), MarkAbove (the 8σ filter
// of all candidates at once) and MarkAboveRows (it for every arm of a
// context), ScaleColsRange (a context's block of slopes
// scaled column by column in place, with each column's range),
// ScaleColsMark (both in one pass over the block) and ChordBounds (the
// pruning's chord bound of many line sets, 8 at a time with gathers on the
// AVX-512 path); DotUpper (the upper triangle of a Gram matrix of rows with
// gonum floats.Dot's bits, in the order of its amd64 assembly: package mlp's
// fresh-context kernel entries); and ForwardSub (rows of package gram's
// blocked forward substitution: a fused multiply–add chain, then a division,
// on 8 or 4 columns at a time).
//
// Matrices are row-major with rows stored contiguously (stride = columns).
// Destinations must not overlap the operands. Slices shorter than their
// shape, or negative dimensions, are programmer errors and panic.
//
// # Reproducibility
//
// Every output element is one chain of fused multiply–adds over the inner
// index t = 0, 1, …, k−1 in increasing order,
//
//	s ← fma(a_t, b_t, s),
//
// starting from +0 (C =, y =) or from the destination's value (C +=, y +=).
// Because a fused multiply–add is correctly rounded and the chain is the same
// whatever the blocking, the result is fully determined by the inputs: it
// does not depend on the instruction set, the vector width, the tiling or
// GOMAXPROCS (the kernels are serial). The three implementations (Path) give
// the same bits:
//
//   - PureGo: loops over math.FMA, which is correctly rounded on every
//     architecture (a hardware instruction where the processor has one,
//     software otherwise). It is the twin of the assembly and the only path
//     off amd64.
//   - AVX2: micro-kernels of up to 4 rows × 3 vectors of 4 lanes, or 8
//     rows × 1 vector (VFMADD231PD on YMM registers), for amd64 with AVX2
//     and FMA. A product of one column (the network's output layer) then
//     keeps 8 chains in flight instead of 4.
//   - AVX512: micro-kernels of up to 8 rows × 3 vectors or 6 rows × 4
//     vectors of 8 lanes on ZMM registers, for amd64 with AVX-512F.
//
// The widest available path is chosen at start-up with golang.org/x/sys/cpu;
// NADB_PUREGO=1 in the environment forces PureGo, and Use switches paths in a
// running process (for tests and benchmarks that compare them). The test
// TestPathsBitIdentical requires bit-identical results from every path of the
// machine and from a plain reference loop over many shapes;
// TestStridedBitIdentical and TestAdamStepBitIdentical do the same for the
// strided products and the Adam step, and TestAxpyRowsBitIdentical requires
// AxpyRows' bits from one Axpy per row in turn, TestLog1pBitIdentical
// math.Log1p's from Log1p, TestNormalLossBitIdentical the expression's
// from NormalLoss, TestSigmoidToBitIdentical logistic.Sigmoid's from
// SigmoidTo, TestOuterMaskBitIdentical MulMaskTo's and AddTransMulVecTo's
// from OuterMaskTo, TestSlopeKeys the pure-Go keys from every path,
// TestTranspose every moved value's bits, TestRemColsBitIdentical the plain
// chains from the remainder-column kernels, TestChordBounds,
// TestScaleColsRange and TestScaleColsMark the pure-Go bits from every
// path, TestDotUpperBitIdentical floats.Dot's and
// TestForwardSubBitIdentical math.FMA's and the division's.
//
// # Kernels
//
// Each operation is an instance of one strided product
//
//	c[i·ldc + j] ← fma-chain over t of a[i·ars + t·aks] · b[t·bks + j].
//
// A micro-kernel computes an mr × nv-vector tile of c: per t it loads nv
// vectors of b, broadcasts mr elements of a and issues mr·nv fused
// multiply–adds into accumulators that stay in registers; the last vector of
// a ragged tile is masked (VMASKMOVPD for AVX2, opmask registers for
// AVX-512), so nothing is read or written past a row. The vectors of a row
// are split into the fewest panels the tiles allow, as evenly as possible
// (50 columns of 8 lanes: 4 + 3 vectors). On the AVX-512 path rows of 50
// and 20 columns (the network's width and input) go instead through
// kernels of 3 rows × (6 vectors + 2 columns) and 6 rows × (2 vectors + 4
// columns) that hold the last columns of several rows in one vector (the
// blend of the rows' broadcasts times those columns repeated): 150 useful
// lanes of 152 instead of 168, and 120 of 120 instead of 144; the rows
// left over take the same kernels with fewer rows (remcols_amd64.go).
// MulTransTo first copies Bᵀ into a scratch buffer. Long inner dimensions are cut into passes of 64
// terms between which the tile is stored and reloaded, and the rows of c
// into blocks of 64 that a pass computes panel by panel, so that the panel
// of b and the rows of a being read stay in the first-level cache (the
// weight gradients of a training step, whose inner dimension is the batch,
// ran at about half the speed with passes of 256 terms); storing and
// reloading leaves every value unchanged. A product of one panel (a few
// columns: a triangular solve on one context's columns) takes its inner
// dimension in one pass, so that the rows of a stream through the cache
// from start to end. One call of a looping
// kernel computes all the full-height tiles of a panel in a block, which
// saves a call per tile where the inner dimension is short (the 20 and 50
// terms of a forward pass). A product of one or two rows by more columns
// than a register tile holds (a row of a triangular solve, the kernel
// entries of one named row against a block of rows) runs one-row kernels of
// up to 12 vectors whose fused multiply–adds read b from memory, so that 12
// chains are in flight instead of 3 (on AVX2; the AVX-512 one-row kernels
// made no difference to a training step on an AMD EPYC with AVX-512 in the
// general products, so there only AddTransMulVecTo uses them: the output
// weights' gradient, 50 columns by the rows of a block, then keeps all 7
// vectors' chains in flight in one call instead of 4 and then 3).
//
// MulVecTo on the AVX-512 path holds 8 rows of A in the lanes of a vector
// (avx512DotRows): it loads blocks of 8 rows × 8 terms, transposes them in
// registers and continues each row's chain with one term per fused
// multiply–add, instead of computing one useful lane of eight per
// instruction, two groups of 8 rows side by side so that two chains per
// lane are in flight; the rows that do not fill a group of 8 take the tile
// kernels. On the AVX-512 path ReLU before a store is one signed 64-bit
// maximum with 0 per vector (VPMAXSQ: the values with the sign bit set are
// the negative integers), the bits of clearing by the sign.
//
// With NADB_GEMM_FLOPS=1 the package counts the floating-point operations of
// its products (Flops), and BenchmarkPeak measures the core's fp64 peak on
// registers: make speed divides the one by the other for a run's floor.
//
// BenchmarkOps times every operation on the shapes of a training step on
// every path of the machine:
//
//	GOMAXPROCS=1 go test -run '^$' -bench Ops -count 6 ./internal/gemm
//
// and reports GFLOP/s by the wall clock and by processor time (cpu-GFLOP/s,
// the steadier figure on a shared machine).
//
// # Pure Go and processors without FMA
//
// The pure-Go path runs at a few GFLOP/s where math.FMA is an instruction
// (amd64 with FMA, arm64, ppc64le, s390x, riscv64). On amd64 processors
// without FMA (before Haswell or Piledriver, some Atom-class parts, virtual
// machines that hide it) math.FMA falls back to software and the products
// are about forty times slower, with the same bits;
// GODEBUG=cpu.fma=off,cpu.avx2=off,cpu.avx512f=off shows the effect on any
// amd64 machine (such a processor has neither AVX2 nor AVX-512; with only
// cpu.fma=off the AVX-512 path stays on, a combination no processor has, and
// four of this package's tests fail). The element-wise kernels'
// exponentials (SigmoidTo, NormalLoss) keep the same bits there too: their
// Go twins call package xmath, not math.Exp, whose amd64 assembly rounds
// differently without FMA.
//
// The assembly (kernel_amd64.s, its declarations kernel_amd64.go and the
// dispatch tables table_amd64.go) is generated with avo by the program in
// _asm, a separate module that the main module's build, vet and tests ignore:
//
//	cd internal/gemm/_asm && go run . -out ../kernel_amd64.s -stubs ../kernel_amd64.go -table ../table_amd64.go -pkg gemm
package gemm
