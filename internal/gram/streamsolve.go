package gram

import (
	"math"

	"github.com/neural-adb/nadb/internal/gemm"
)

// Blocking of the forward substitution (forwardCols): solveBlock rows of L
// per product against all solved rows, solveSub rows per product inside such
// a block, then one row at a time. The blocking does not change any result.
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
			forwardSub(w[s0*m:s1*m], m, l[s0*ld+s0:], ld, s1-s0)
		}
	}
}

// forwardSub finishes the n ≤ solveSub rows of w (stride m) whose chains
// have run over every row before them but the rows of the sub-block, with
// L's diagonal block at l (stride ld): row i continues each chain with
// fma(L_ik, w_k, ·) for k = 0, …, i−1 of the sub-block (math.FMA, the
// single rounding of package gemm's fused multiply–adds) and divides by
// −L_ii, element by element, so that the divisions of a row do not wait on
// a product call per row.
func forwardSub(w []float64, m int, l []float64, ld, n int) {
	for i := range n {
		wi := w[i*m : (i+1)*m]
		d := -l[i*ld+i]
		switch i {
		case 0:
			for x, v := range wi {
				wi[x] = v / d
			}
		case 1:
			l0, w0 := l[i*ld], w[:m]
			for x, v := range wi {
				wi[x] = math.FMA(l0, w0[x], v) / d
			}
		case 2:
			l0, l1 := l[i*ld], l[i*ld+1]
			w0, w1 := w[:m], w[m:2*m]
			for x, v := range wi {
				v = math.FMA(l0, w0[x], v)
				wi[x] = math.FMA(l1, w1[x], v) / d
			}
		case 3:
			l0, l1, l2 := l[i*ld], l[i*ld+1], l[i*ld+2]
			w0, w1, w2 := w[:m], w[m:2*m], w[2*m:3*m]
			for x, v := range wi {
				v = math.FMA(l0, w0[x], v)
				v = math.FMA(l1, w1[x], v)
				wi[x] = math.FMA(l2, w2[x], v) / d
			}
		case 4:
			l0, l1, l2, l3 := l[i*ld], l[i*ld+1], l[i*ld+2], l[i*ld+3]
			w0, w1, w2, w3 := w[:m], w[m:2*m], w[2*m:3*m], w[3*m:4*m]
			for x, v := range wi {
				v = math.FMA(l0, w0[x], v)
				v = math.FMA(l1, w1[x], v)
				v = math.FMA(l2, w2[x], v)
				wi[x] = math.FMA(l3, w3[x], v) / d
			}
		case 5:
			l0, l1, l2, l3, l4 := l[i*ld], l[i*ld+1], l[i*ld+2], l[i*ld+3], l[i*ld+4]
			w0, w1, w2, w3, w4 := w[:m], w[m:2*m], w[2*m:3*m], w[3*m:4*m], w[4*m:5*m]
			for x, v := range wi {
				v = math.FMA(l0, w0[x], v)
				v = math.FMA(l1, w1[x], v)
				v = math.FMA(l2, w2[x], v)
				v = math.FMA(l3, w3[x], v)
				wi[x] = math.FMA(l4, w4[x], v) / d
			}
		default:
			li := l[i*ld : i*ld+i]
			for x, v := range wi {
				for k, lk := range li {
					v = math.FMA(lk, w[k*m+x], v)
				}
				wi[x] = v / d
			}
		}
	}
}
