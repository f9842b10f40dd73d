package gemm

// The AxpyRows kernels by the vectors of y they hold, 1 … 8.
var (
	avx2AxpyRows = [...]func(y, x *float64, ld int, idx *int32, a *float64, n int, mask *[4]int64){
		avx2AxpyRows1, avx2AxpyRows2, avx2AxpyRows3, avx2AxpyRows4,
		avx2AxpyRows5, avx2AxpyRows6, avx2AxpyRows7, avx2AxpyRows8,
	}
	avx512AxpyRows = [...]func(y, x *float64, ld int, idx *int32, a *float64, n int, mask uint64){
		avx512AxpyRows1, avx512AxpyRows2, avx512AxpyRows3, avx512AxpyRows4,
		avx512AxpyRows5, avx512AxpyRows6, avx512AxpyRows7, avx512AxpyRows8,
	}
	// avx2LaneMasks[v]: the first v lanes of a vector, v = 0 … 4.
	avx2LaneMasks = [5][4]int64{{}, {-1}, {-1, -1}, {-1, -1, -1}, {-1, -1, -1, -1}}
)

// axpyRowsAsm runs AxpyRows on path p (AVX2 or AVX512) for y of at least
// one element, a non-empty idx and checked operands: y in panels of up to
// 8 vectors, the last vector of the last panel masked to the end of y.
func axpyRowsAsm(p Path, y, x []float64, ld int, idx []int32, a []float64) {
	lanes := pathLanes(p)
	n := len(y)
	vecs := (n + lanes - 1) / lanes
	for v0 := 0; v0 < vecs; v0 += len(avx512AxpyRows) {
		nv := min(len(avx512AxpyRows), vecs-v0)
		j0 := v0 * lanes
		valid := min(n, (v0+nv)*lanes) - (v0+nv-1)*lanes
		if p == AVX512 {
			avx512AxpyRows[nv-1](&y[j0], &x[j0], ld, &idx[0], &a[0], len(idx), avx512.mask(valid))
		} else {
			avx2AxpyRows[nv-1](&y[j0], &x[j0], ld, &idx[0], &a[0], len(idx), &avx2LaneMasks[valid])
		}
	}
}

// maxRowAsm returns the largest idx[t] as an unsigned number, len(idx) a
// positive multiple of 8 (AVX2, on the AVX2 and AVX512 paths).
func maxRowAsm(idx []int32) uint32 { return avx2MaxRow(&idx[0], len(idx)) }
