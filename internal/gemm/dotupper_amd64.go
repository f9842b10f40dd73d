package gemm

// dotRowsAVX sets dst[c] = ⟨x, y_c⟩ for c < cnt, y_c = y[c·w : c·w+w], in
// the order of gonum's amd64 DotUnitary (see DotUpper): cnt/4 groups of
// four rows of y, then the cnt%4 rows left one at a time. w ≥ 1.
//
//go:noescape
func dotRowsAVX(dst, x, y *float64, w, cnt int)

// dotRows2AVX is dotRowsAVX for two rows x0 and x1 (into dst0 and dst1) at
// once, cnt a positive multiple of 4: eight sums in flight instead of four.
//
//go:noescape
func dotRows2AVX(dst0, dst1, x0, x1, y *float64, w, cnt int)

// dotUpperAsm is DotUpper's assembly path (w ≥ 1). Rows i and i+1 go
// together against the rows j > i in groups of four, a last group short of
// four moved back to end at row n−1 (it recomputes entries with the same
// bits); the entry (i, i), and rows with fewer than four such entries, one
// row at a time.
func dotUpperAsm(dst, x []float64, w, n int) {
	i := 0
	for ; i+1 < n && n-i-1 >= 4; i += 2 {
		cnt := n - i - 1
		d0, d1 := dst[i*n+i+1:i*n+n], dst[(i+1)*n+i+1:(i+1)*n+n]
		x0, x1 := &x[i*w], &x[(i+1)*w]
		dotRowsAVX(&dst[i*n+i], x0, x0, w, 1)
		g := cnt &^ 3
		dotRows2AVX(&d0[0], &d1[0], x0, x1, &x[(i+1)*w], w, g)
		if g < cnt {
			j := cnt - 4
			dotRows2AVX(&d0[j], &d1[j], x0, x1, &x[(i+1+j)*w], w, 4)
		}
	}
	for ; i < n; i++ {
		cnt := n - i
		xi, d := &x[i*w], dst[i*n+i:i*n+n]
		if cnt < 4 {
			dotRowsAVX(&d[0], xi, xi, w, cnt)
			continue
		}
		g := cnt &^ 3
		dotRowsAVX(&d[0], xi, xi, w, g)
		if g < cnt {
			j := cnt - 4
			dotRowsAVX(&d[j], xi, &x[(i+j)*w], w, 4)
		}
	}
}
