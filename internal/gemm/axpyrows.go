package gemm

import "math"

// AxpyRows sets, for t = 0, 1, …, len(idx)−1 in turn,
//
//	y[i] ← y[i] + a[t]·x[idx[t]·ld + i]   (i < len(y)),
//
// each product rounded before its sum (no fused multiply–add): the values
// of Axpy(y, x[idx[t]·ld:], a[t]) called for each t in order, with y kept
// in registers from the first row of x to the last (the sparse first layer
// of a network: y a row's pre-activations, x the weights by input, idx and
// a the row's non-zeros). It panics if a is shorter than idx, ld is
// negative or a row idx[t] of x is out of range.
func AxpyRows(y, x []float64, ld int, idx []int32, a []float64) {
	n := len(y)
	if len(a) < len(idx) || ld < 0 {
		panic("gemm: AxpyRows with fewer factors than rows, or a negative stride")
	}
	if len(idx) > 0 && !rowsFit(idx, ld, n, len(x)) {
		panic("gemm: AxpyRows with a row out of range")
	}
	if n == 0 || len(idx) == 0 {
		return
	}
	if active == AVX2 || active == AVX512 {
		axpyRowsAsm(active, y, x, ld, idx, a)
		return
	}
	for t, r := range idx {
		row := x[int(r)*ld : int(r)*ld+n]
		at := a[t]
		for i := range y {
			y[i] += float64(at * row[i])
		}
	}
}

// rowsFit reports whether every row r of idx satisfies r ≥ 0 and
// r·ld + n ≤ lx (ld ≥ 0, idx not empty): one pass for the largest row as
// an unsigned number (a negative row is then above math.MaxInt32), by the
// vector kernel over whole vectors on the AVX2 and AVX512 paths and in four
// independent maxima otherwise, then one test of it.
func rowsFit(idx []int32, ld, n, lx int) bool {
	var m0, m1, m2, m3 uint32
	if k := len(idx) &^ 7; k > 0 && (active == AVX2 || active == AVX512) {
		m0, idx = maxRowAsm(idx[:k]), idx[k:]
	}
	for len(idx) >= 4 {
		m0 = max(m0, uint32(idx[0]))
		m1 = max(m1, uint32(idx[1]))
		m2 = max(m2, uint32(idx[2]))
		m3 = max(m3, uint32(idx[3]))
		idx = idx[4:]
	}
	for _, r := range idx {
		m0 = max(m0, uint32(r))
	}
	m := max(m0, m1, m2, m3)
	if m > math.MaxInt32 || n > lx {
		return false
	}
	// m·ld ≥ ld > lx when ld > lx and m > 0 (and m·ld would overflow
	// from ld > 2³² on).
	return m == 0 || ld <= lx && int(m)*ld <= lx-n
}
