package gemm

// forwardRowAVX finishes row k of ForwardSub (k ≥ 0) on 4·nv columns: dst
// the row, w row 0 (rows at a stride of ldw elements), l row k of L, d =
// −l[k]. It needs FMA.
//
//go:noescape
func forwardRowAVX(dst, w *float64, ldw int, l *float64, k, nv int, d float64)

// forwardRowAVX512 is forwardRowAVX on 8·nv columns (AVX-512F).
//
//go:noescape
func forwardRowAVX512(dst, w *float64, ldw int, l *float64, k, nv int, d float64)

// forwardSubAsm runs ForwardSub's kernels row by row over the columns that
// fill whole vectors (on the AVX512 path vectors of 8, then one of 4 if 4
// columns or more are left) and returns their number (n, m ≥ 1).
func forwardSubAsm(w []float64, m int, l []float64, ld, n int) int {
	x0 := 0
	if active == AVX512 {
		if nv := m / 8; nv > 0 {
			for i := range n {
				forwardRowAVX512(&w[i*m], &w[0], m, &l[i*ld], i, nv, -l[i*ld+i])
			}
			x0 = nv * 8
		}
	}
	if nv := (m - x0) / 4; nv > 0 {
		for i := range n {
			forwardRowAVX(&w[i*m+x0], &w[x0], m, &l[i*ld], i, nv, -l[i*ld+i])
		}
		x0 += nv * 4
	}
	return x0
}
