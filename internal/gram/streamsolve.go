package gram

import "github.com/neural-adb/nadb/internal/gemm"

// Blocking of the forward substitution (forwardCols): solveBlock rows of L
// per product against all solved rows, solveSub rows per product inside such
// a block, then the rows of the sub-block among themselves (gemm.ForwardSub:
// the chains over the sub-block and the divisions in one pass). The
// blocking does not change any result.
const (
	solveBlock = 48
	solveSub   = 6
)

// forwardCols solves L y = b for every column b of the t×m matrix w (stride
// m), with L the leading t×t block of the lower-triangular l (stride ld), and
// leaves −y in w: unsolved entries are kept as they are and solved ones
// negated, so that every update is a product added with package gemm,
//
//	w_i ← fma-chain over k = 0, 1, …, i−1 of L_ik · w_k, starting from b_i,
//	w_i ← w_i / (−L_ii),
//
// which is b_i − Σ_k L_ik y_k rounded after each term, and then −y_i. The
// chain runs over k in increasing order whatever the blocking, so each
// column's result depends only on that column and on L: not on m, on the
// other columns, or on the gemm path.
func forwardCols(w []float64, t, m int, l []float64, ld int) {
	forwardColsRange(w, 0, t, m, l, ld)
}

// forwardColsRange is forwardCols for the rows [from, to) of w only, whose
// rows before from are solved already (from a multiple of solveBlock): it
// continues each chain where forwardCols would, so solving the rows in
// several ranges gives the bits of one call.
func forwardColsRange(w []float64, from, to, m int, l []float64, ld int) {
	for i0 := from; i0 < to; i0 += solveBlock {
		i1 := min(i0+solveBlock, to)
		gemm.AddMulStridedTo(w[i0*m:], m, l[i0*ld:], ld, w, m, i1-i0, i0, m)
		for s0 := i0; s0 < i1; s0 += solveSub {
			s1 := min(s0+solveSub, i1)
			gemm.AddMulStridedTo(w[s0*m:], m, l[s0*ld+i0:], ld, w[i0*m:], m, s1-s0, s0-i0, m)
			gemm.ForwardSub(w[s0*m:s1*m], m, l[s0*ld+s0:], ld, s1-s0)
		}
	}
}
