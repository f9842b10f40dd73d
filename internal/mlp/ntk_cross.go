package mlp

import "github.com/neural-adb/nadb/internal/gemm"

// rowsTo computes its entries in tiles of crossRows rows × crossBlock
// gathered columns, so that the products of a tile stay in cache for their
// element-wise combination. The tiling does not change any entry.
const (
	crossRows  = 48
	crossBlock = 256
)

// rowsTo writes K(row a, committed cols[b]) into dst[a·len(cols)+b] for
// a < nrows, where sig(m) returns signal matrix m of the rows (nrows rows
// of its width, contiguous). Per tile, every inner product of the closed form
// (package documentation) is a product of the rows' signal matrix and the
// gathered columns (package gemm: one chain of fused multiply–adds per
// entry over the signal's index), then
//
//	K = (hh_L [+ 1] + Σ_l dd_l · (hh_l [+ 1])) · Scale,
//
// the terms added in increasing l. With halves (the rows and the committed
// rows all have mirrored halves, Features.halves), the products of the
// hidden signals run over their first halves only and are doubled where
// they are used (exactly: a power of two), which takes 20 + 4·25 instead of
// 20 + 4·50 terms per entry at paper scale. An entry is therefore the same
// bits whatever the other rows and columns, the tiling and the gemm path.
func (k *StreamKernel) rowsTo(dst []float64, nrows int, sig func(m int) []float64, cols []int, halves bool) {
	k.rowsRangeTo(dst, nrows, sig, cols, 0, len(cols), halves)
}

// rowsRangeTo is rowsTo against the gathered columns cols[c0:c1] only,
// written into dst[a·(c1−c0)+b]: the same entries, bit for bit.
func (k *StreamKernel) rowsRangeTo(dst []float64, nrows int, sig func(m int) []float64, cols []int, c0, c1 int, halves bool) {
	k.gather(cols)
	a := k.committed.Arch
	n := c1 - c0
	if nrows == 0 || n == 0 {
		return
	}
	const tile = crossRows * crossBlock
	acc, dd, hh := tileBuffers(&k.tiles, tile)
	two := 1.0 // factor of the products of hidden signals
	if halves {
		two = 2
	}
	bias := 0.0
	if a.Bias {
		bias = 1
	}
	scale := k.committed.Scale
	for r0 := 0; r0 < nrows; r0 += crossRows {
		nr := min(crossRows, nrows-r0)
		for j0 := 0; j0 < n; j0 += crossBlock {
			nc := min(crossBlock, n-j0)
			sz := nr * nc
			k.productTo(acc, nc, sig, 2*a.Depth, r0, nr, c0+j0, nc, halves)
			gemm.ScaleShift(acc[:sz], two, bias) // acc ← two·acc + bias
			for l := range a.Depth {
				k.productTo(dd, nc, sig, 2*l+1, r0, nr, c0+j0, nc, halves)
				k.productTo(hh, nc, sig, 2*l, r0, nr, c0+j0, nc, halves)
				th := two // h_0, the input, is not a hidden signal
				if l == 0 {
					th = 1
				}
				gemm.AddProduct(acc[:sz], dd, hh, two, th, bias) // acc += (two·d)·(th·h + bias)
			}
			for r := range nr {
				gemm.ScaleTo(dst[(r0+r)*n+j0:(r0+r)*n+j0+nc], acc[r*nc:(r+1)*nc], scale)
			}
		}
	}
}

// productTo sets the nr × nc tile c (stride ldc) to the rows [r0, r0+nr) of
// signal matrix m times its gathered columns [j0, j0+nc), over the first half
// of a hidden signal's index when halves is set.
func (k *StreamKernel) productTo(c []float64, ldc int, sig func(m int) []float64, m, r0, nr, j0, nc int, halves bool) {
	_, w := k.committed.signal(m)
	kk := w
	if halves && m > 0 {
		kk = w / 2
	}
	gemm.MulStridedTo(c, ldc, sig(m)[r0*w:], w, k.g[m][j0:], k.cap, nr, kk, nc)
}

// CrossRangeTo writes K(fresh row x0+a, committed row cols[c0+b]) into
// dst[a·(c1−c0)+b] for a < x1−x0 and b < c1−c0: the entries of CrossRowsTo
// for the consecutive fresh rows x0, …, x1−1, whose signals it reads in place
// instead of gathering them first. The same bits.
func (k *StreamKernel) CrossRangeTo(dst []float64, x0, x1 int, cols []int, c0, c1 int) {
	k.rowsRangeTo(dst, x1-x0, func(m int) []float64 {
		x, w := k.fresh.signal(m)
		return x[x0*w : x1*w]
	}, cols, c0, c1, k.committed.halves && k.fresh.halves)
}

// tileBuffers returns three tiles of n values from *buf, growing it first
// when it is shorter than 3n: the accumulator and the two factor tiles of
// the kernel products (StreamKernel.rowsRangeTo, BlockKernel.ColumnsTo and
// KeptTo).
func tileBuffers(buf *[]float64, n int) (acc, dd, hh []float64) {
	if len(*buf) < 3*n {
		*buf = make([]float64, 3*n)
	}
	b := *buf
	return b[:n], b[n : 2*n], b[2*n:]
}
