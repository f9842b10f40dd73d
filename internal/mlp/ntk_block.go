package mlp

import "github.com/neural-adb/nadb/internal/gemm"

// BlockKernel computes entries of the Gram matrix K of a Features on demand,
// with the bits of GramTo: every inner product over the full signals (no
// mirrored halves) as one chain of fused multiply–adds from +0, and the
// terms added as GramTo adds them,
//
//	K = Scale · (hh_L [+ 1] + Σ_l dd_l · (hh_l [+ 1]))   (l in increasing order).
//
// It keeps the signals of f a second time, transposed (signal index × row),
// so that a block of rows is read in place as the columns of a product. An
// entry does not depend on the other rows and columns of a call. It keeps
// scratch space between calls: one BlockKernel must not be used from
// several goroutines at once.
type BlockKernel struct {
	f     *Features
	t     [][]float64 // per signal matrix: its transpose, width × rows
	g     [][]float64 // per signal matrix: the gathered rows of a call's columns
	tiles []float64

	kt   [][][]float64 // per chunk of kept columns (Keep), per signal matrix: width × keptStride
	kept int
}

// NewBlockKernel returns the on-demand kernel of f (which must not grow
// afterwards).
func NewBlockKernel(f *Features) *BlockKernel {
	a := f.Arch
	nm := 2*a.Depth + 1
	k := &BlockKernel{f: f, t: make([][]float64, nm), g: make([][]float64, nm)}
	n := f.rows
	for m := range nm {
		x, w := f.signal(m)
		t := make([]float64, w*n)
		for r := range n {
			for p, v := range x[r*w : (r+1)*w] {
				t[p*n+r] = v
			}
		}
		k.t[m] = t
	}
	return k
}

// Rows returns the number of rows of f.
func (k *BlockKernel) Rows() int { return k.f.rows }

// ColumnsTo writes K(lo+a, cols[b]) into dst[b·(hi−lo)+a] for
// lo ≤ lo+a < hi: the rows lo..hi−1 of the columns cols, one after the
// other. Per tile, each inner product of the closed form is a product of the
// gathered signals of cols and the transposed signals of the rows, read in
// place (package gemm), then the terms are combined element-wise.
func (k *BlockKernel) ColumnsTo(dst []float64, lo, hi int, cols []int) {
	f := k.f
	a := f.Arch
	n, nr, rows := len(cols), hi-lo, f.rows
	if nr <= 0 || n == 0 {
		return
	}
	nm := 2*a.Depth + 1
	for m := range nm {
		x, w := f.signal(m)
		k.g[m] = grow(k.g[m], w*n)
		for b, c := range cols {
			copy(k.g[m][b*w:(b+1)*w], x[c*w:(c+1)*w])
		}
	}
	const tile = crossRows * crossBlock
	acc, dd, hh := tileBuffers(&k.tiles, tile)
	bias := 0.0
	if a.Bias {
		bias = 1
	}
	// The tile of columns b0.. (nb of them) × rows a0.. (na of them) of
	// signal m: entry (b, a) is the chain over the signal's index of
	// x[cols[b]]·x[lo+a], the product GramTo forms.
	product := func(c []float64, m, b0, nb, a0, na int) {
		_, w := f.signal(m)
		gemm.MulStridedTo(c, na, k.g[m][b0*w:], w, k.t[m][lo+a0:], rows, nb, w, na)
	}
	for b0 := 0; b0 < n; b0 += crossRows {
		nb := min(crossRows, n-b0)
		for a0 := 0; a0 < nr; a0 += crossBlock {
			na := min(crossBlock, nr-a0)
			sz := nb * na
			product(acc, 2*a.Depth, b0, nb, a0, na)
			gemm.ScaleShift(acc[:sz], 1, bias) // hh_L [+ 1]
			for l := range a.Depth {
				product(dd, 2*l+1, b0, nb, a0, na)
				product(hh, 2*l, b0, nb, a0, na)
				gemm.AddProduct(acc[:sz], dd, hh, 1, 1, bias) // + dd_l · (hh_l [+ 1])
			}
			for b := range nb {
				gemm.ScaleTo(dst[(b0+b)*nr+a0:(b0+b)*nr+a0+na], acc[b*na:(b+1)*na], f.Scale)
			}
		}
	}
}

// grow returns x with length n, reallocated (with room to grow) if its
// capacity is short.
func grow(x []float64, n int) []float64 {
	if cap(x) < n {
		return make([]float64, n, 2*n)
	}
	return x[:n]
}
