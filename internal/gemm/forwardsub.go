package gemm

import "math"

// ForwardSub finishes n rows of a forward substitution with the negated
// solution (package gram's blocked triangular solve): for i = 0, 1, …, n−1
// in turn and every column x < m,
//
//	w[i·m+x] ← fma-chain over k = 0, 1, …, i−1 of l[i·ld+k]·w[k·m+x],
//	           starting from w[i·m+x],
//	w[i·m+x] ← w[i·m+x] / (−l[i·ld+i]),
//
// each fused multiply–add and the division correctly rounded (math.FMA and
// one division per element on the PureGo path, the same operations on 4
// columns at a time on the AVX2 path and 8 on the AVX512 path, the columns
// left over by math.FMA), so every path gives the same bits. It panics if n, m or ld
// is negative or w or l is too short.
func ForwardSub(w []float64, m int, l []float64, ld, n int) {
	if n < 0 || m < 0 || ld < 0 || len(w) < n*m || (n > 0 && len(l) < (n-1)*ld+n) {
		panic("gemm: ForwardSub with a negative size or stride, or w or l too short")
	}
	if n == 0 || m == 0 {
		return
	}
	x0 := 0
	if active == AVX2 || active == AVX512 {
		x0 = forwardSubAsm(w, m, l, ld, n)
	}
	if x0 < m {
		forwardSubGo(w, m, l, ld, n, x0)
	}
}

// forwardSubGo is ForwardSub for the columns x0 … m−1: rows 1 to 5 with
// their chains unrolled.
func forwardSubGo(w []float64, m int, l []float64, ld, n, x0 int) {
	for i := range n {
		wi := w[i*m+x0 : (i+1)*m]
		d := -l[i*ld+i]
		switch i {
		case 0:
			for x, v := range wi {
				wi[x] = v / d
			}
		case 1:
			l0, w0 := l[i*ld], w[x0:m]
			for x, v := range wi {
				wi[x] = math.FMA(l0, w0[x], v) / d
			}
		case 2:
			l0, l1 := l[i*ld], l[i*ld+1]
			w0, w1 := w[x0:m], w[m+x0:2*m]
			for x, v := range wi {
				v = math.FMA(l0, w0[x], v)
				wi[x] = math.FMA(l1, w1[x], v) / d
			}
		case 3:
			l0, l1, l2 := l[i*ld], l[i*ld+1], l[i*ld+2]
			w0, w1, w2 := w[x0:m], w[m+x0:2*m], w[2*m+x0:3*m]
			for x, v := range wi {
				v = math.FMA(l0, w0[x], v)
				v = math.FMA(l1, w1[x], v)
				wi[x] = math.FMA(l2, w2[x], v) / d
			}
		case 4:
			l0, l1, l2, l3 := l[i*ld], l[i*ld+1], l[i*ld+2], l[i*ld+3]
			w0, w1, w2, w3 := w[x0:m], w[m+x0:2*m], w[2*m+x0:3*m], w[3*m+x0:4*m]
			for x, v := range wi {
				v = math.FMA(l0, w0[x], v)
				v = math.FMA(l1, w1[x], v)
				v = math.FMA(l2, w2[x], v)
				wi[x] = math.FMA(l3, w3[x], v) / d
			}
		case 5:
			l0, l1, l2, l3, l4 := l[i*ld], l[i*ld+1], l[i*ld+2], l[i*ld+3], l[i*ld+4]
			w0, w1, w2, w3, w4 := w[x0:m], w[m+x0:2*m], w[2*m+x0:3*m], w[3*m+x0:4*m], w[4*m+x0:5*m]
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
					v = math.FMA(lk, w[k*m+x0+x], v)
				}
				wi[x] = v / d
			}
		}
	}
}
