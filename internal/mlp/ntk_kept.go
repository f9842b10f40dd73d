package mlp

import "github.com/neural-adb/nadb/internal/gemm"

// A reader of the confidence state asks, over and over, for the entries of
// a few rows (one context) against the rows that a run of updates named. A
// BlockKernel can keep the signals of the named rows, in the order they are
// named, transposed (signal index × kept column): the entries of a run of
// updates are then a product of the rows' signals, read in place, and a
// contiguous range of kept columns, with no gathering per call and with the
// columns, usually many, along the vectors.

// keptChunk is the number of kept columns stored together, and keptStride
// the distance between the rows of a chunk's matrices: a cache line more
// than the columns, so that the rows do not all fall into one set of the
// cache. Chunks are added as columns are kept; nothing is copied.
const (
	keptChunk  = crossBlock
	keptStride = keptChunk + 8
)

// Keep appends row r of the features to the kept columns (its signals
// copied; a row may be kept more than once). The kept columns are numbered
// from 0 in the order of Keep.
func (k *BlockKernel) Keep(r int) {
	f := k.f
	nm := 2*f.Arch.Depth + 1
	j := k.kept % keptChunk
	if j == 0 {
		chunk := make([][]float64, nm)
		for m := range nm {
			_, w := f.signal(m)
			chunk[m] = make([]float64, w*keptStride)
		}
		k.kt = append(k.kt, chunk)
	}
	chunk := k.kt[len(k.kt)-1]
	for m := range nm {
		x, w := f.signal(m)
		for p, v := range x[r*w : (r+1)*w] {
			chunk[m][p*keptStride+j] = v
		}
	}
	k.kept++
}

// Kept returns the number of kept columns.
func (k *BlockKernel) Kept() int { return k.kept }

// KeptTo writes K(lo+a, kept column j0+b) into dst[a·(j1−j0)+b] for
// lo ≤ lo+a < hi and j0 ≤ j0+b < j1: the same bits as ColumnsTo's entries
// of those rows and columns (every inner product is the same chain of
// fused multiply–adds, its two factors swapped, and the terms are combined
// in the same order), row after row.
func (k *BlockKernel) KeptTo(dst []float64, lo, hi, j0, j1 int) {
	f := k.f
	a := f.Arch
	nr, n := hi-lo, j1-j0
	if nr <= 0 || n <= 0 {
		return
	}
	if j1 > k.kept {
		panic("mlp: KeptTo beyond the kept columns")
	}
	const tile = crossRows * crossBlock
	acc, dd, hh := tileBuffers(&k.tiles, tile)
	bias := 0.0
	if a.Bias {
		bias = 1
	}
	// The tile of rows a0.. (na of them) × kept columns b0.. (nb of them,
	// in one chunk) of signal m: entry (a, b) is the chain over the
	// signal's index of x[lo+a]·x[kept b].
	product := func(c []float64, m, a0, na, b0, nb int) {
		x, w := f.signal(m)
		j := j0 + b0
		gemm.MulStridedTo(c, nb, x[(lo+a0)*w:], w, k.kt[j/keptChunk][m][j%keptChunk:], keptStride, na, w, nb)
	}
	for a0 := 0; a0 < nr; a0 += crossRows {
		na := min(crossRows, nr-a0)
		for b0, nb := 0, 0; b0 < n; b0 += nb {
			nb = min(crossBlock, n-b0, keptChunk-(j0+b0)%keptChunk)
			sz := na * nb
			product(acc, 2*a.Depth, a0, na, b0, nb)
			gemm.ScaleShift(acc[:sz], 1, bias) // hh_L [+ 1]
			for l := range a.Depth {
				product(dd, 2*l+1, a0, na, b0, nb)
				product(hh, 2*l, a0, na, b0, nb)
				gemm.AddProduct(acc[:sz], dd, hh, 1, 1, bias) // + dd_l · (hh_l [+ 1])
			}
			for r := range na {
				gemm.ScaleTo(dst[(a0+r)*n+b0:(a0+r)*n+b0+nb], acc[r*nb:(r+1)*nb], f.Scale)
			}
		}
	}
}
