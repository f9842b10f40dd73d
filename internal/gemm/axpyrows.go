package gemm

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
	for _, r := range idx {
		if r < 0 || int(r)*ld+n > len(x) {
			panic("gemm: AxpyRows with a row out of range")
		}
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
