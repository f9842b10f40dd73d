package algorithms

import (
	"math"
	"slices"

	"github.com/neural-adb/nadb/internal/gemm"
	"github.com/neural-adb/nadb/internal/mlp"
)

// Sparse rows and the network of neural-adb-target with a sparse first
// layer. Pools written the natural way are mostly zeros (an arm one-hot, a
// disjoint encoding: 17 of 442 values non-zero on the Letter-like pool), so
// the first layer's product and gradient run over the non-zeros only; the
// hidden layers are dense (internal/gemm). The arithmetic of a row does not
// depend on the batch it is in.

// tgChunk is the number of rows evaluated at a time where every training
// row is (the linear part's offsets, the posterior's rebuild).
const tgChunk = 1024

// tgRows is a list of feature rows in compressed sparse row form: row r
// holds the values val[ptr[r]:ptr[r+1]] at the columns idx[iptr[r]:] (as
// many), except a full row (all dim values non-zero, as embeddings' rows
// are), whose columns are not stored: they are cols, 0 … dim−1. Full rows
// thus take 8 bytes a value instead of 12 (at 20,000 duels of d = 1,024,
// 0.25 GB less), and read the same.
type tgRows struct {
	dim  int
	ptr  []int32
	iptr []int32
	idx  []int32
	val  []float64
	cols []int32
}

func newTGRows(dim int) *tgRows {
	cols := make([]int32, dim)
	for j := range cols {
		cols[j] = int32(j)
	}
	return &tgRows{dim: dim, ptr: []int32{0}, cols: cols}
}

// n returns the number of rows.
func (s *tgRows) n() int { return len(s.ptr) - 1 }

// reset empties the list.
func (s *tgRows) reset() {
	s.ptr, s.iptr, s.idx, s.val = s.ptr[:1], s.iptr[:0], s.idx[:0], s.val[:0]
}

// add appends the dense row x (its non-zero, finite values) and returns its
// index.
func (s *tgRows) add(x []float64) int {
	i0, v0 := len(s.idx), len(s.val)
	s.iptr = append(s.iptr, int32(i0))
	// Room for a full row first, then the non-zeros written in place.
	idx, val := slices.Grow(s.idx, len(x))[:i0+len(x)], slices.Grow(s.val, len(x))[:v0+len(x)]
	k := 0
	for j, v := range x {
		if v != 0 && !math.IsNaN(v) && !math.IsInf(v, 0) {
			idx[i0+k], val[v0+k] = int32(j), v
			k++
		}
	}
	s.idx, s.val = idx[:i0+k], val[:v0+k]
	if k == s.dim {
		s.idx = s.idx[:i0] // a full row: its columns are cols
	}
	s.ptr = append(s.ptr, int32(len(s.val)))
	return s.n() - 1
}

// row returns the columns and values of row r (read only).
func (s *tgRows) row(r int) ([]int32, []float64) {
	lo, hi := s.ptr[r], s.ptr[r+1]
	if int(hi-lo) == s.dim {
		return s.cols, s.val[lo:hi]
	}
	i := s.iptr[r]
	return s.idx[i : i+hi-lo], s.val[lo:hi]
}

// dot returns row r · y.
func (s *tgRows) dot(r int, y []float64) float64 {
	idx, val := s.row(r)
	val = val[:len(idx)]
	t := 0.0
	for k, j := range idx {
		t += val[k] * y[j]
	}
	return t
}

// dense writes row r into dst (length dim).
func (s *tgRows) dense(dst []float64, r int) {
	clear(dst[:s.dim])
	idx, val := s.row(r)
	for k, j := range idx {
		dst[j] = val[k]
	}
}

// denseView returns the rows sel (all when nil) as a dense row-major
// matrix (read only): the stored values themselves when sel is nil and
// every row is full (they are then the dense rows in order), else the rows
// written into *buf by denseTo.
func (s *tgRows) denseView(buf *[]float64, sel []int) []float64 {
	if sel == nil && len(s.val) == s.n()*s.dim {
		return s.val
	}
	*buf = s.denseTo(*buf, sel)
	return *buf
}

// denseEnough reports whether a quarter or more of the values are
// non-zero: the first layer then runs dense (internal/gemm).
func (s *tgRows) denseEnough() bool {
	return 4*len(s.val) >= s.n()*s.dim
}

// denseTo writes the rows sel (all when nil) densely into dst.
func (s *tgRows) denseTo(dst []float64, sel []int) []float64 {
	rows := s.n()
	if sel != nil {
		rows = len(sel)
	}
	dst = resize(dst, rows*s.dim)
	for r := range rows {
		src := r
		if sel != nil {
			src = sel[r]
		}
		s.dense(dst[r*s.dim:(r+1)*s.dim], src)
	}
	return dst
}

// tgNet is one member's network g(x;θ) (mlp.Net's parameters and layout,
// no biases) evaluated with a sparse first layer. w1t is W_1ᵀ (d × w) and
// wt holds W_lᵀ (w × w each) of the hidden layers l ≥ 1 in turn, kept in
// step with θ by syncT.
type tgNet struct {
	net *mlp.Net
	w1t []float64
	wt  []float64
}

// tgBatch holds a batch's activations and signals: h[l] the activations of
// hidden layer l+1 (rows × w), dl[l] their signals, out the outputs.
type tgBatch struct {
	rows int
	h    [][]float64
	dl   [][]float64
	out  []float64
	x    []float64 // the dense input rows (denseEnough) when copied
	xd   []float64 // the dense input rows of the last forward: x or the rows' own values

	// backward's sparse first layer: the batch's non-zeros by column
	// (column j: colRow, colVal[colPtr[j]:colPtr[j+1]]); colNext scratch.
	// byCol: they are those of the current batch (backward sets it; a
	// caller that changes the rows or the selection of the batch clears it).
	colPtr, colRow, colNext []int32
	colVal                  []float64
	byCol                   bool
}

func (b *tgBatch) resize(a mlp.Arch, rows int) {
	b.rows = rows
	if len(b.h) != a.Depth {
		b.h, b.dl = make([][]float64, a.Depth), make([][]float64, a.Depth)
	}
	for l := range a.Depth {
		b.h[l] = resize(b.h[l], rows*a.Width)
		b.dl[l] = resize(b.dl[l], rows*a.Width)
	}
	b.out = resize(b.out, rows)
}

// syncT copies W_1 of θ into w1t and the hidden layers' W_l into wt,
// transposed.
func (n *tgNet) syncT() {
	a := n.net.Arch
	d, w := a.In, a.Width
	n.w1t = resize(n.w1t, d*w)
	th := n.net.Theta
	gemm.Transpose(n.w1t, th[:w*d], w, d)
	n.wt = resize(n.wt, (a.Depth-1)*w*w)
	for l := 1; l < a.Depth; l++ {
		gemm.Transpose(n.layerT(l), tgLayer(a, th, l), w, w)
	}
}

// layerT returns W_lᵀ (w × w) of the last syncT, l ≥ 1.
func (n *tgNet) layerT(l int) []float64 {
	w := n.net.Arch.Width
	return n.wt[(l-1)*w*w : l*w*w]
}

// tgLayer returns W_l (w × w, row-major) of θ for l ≥ 1, and tgOut v.
func tgLayer(a mlp.Arch, theta []float64, l int) []float64 {
	off := a.In*a.Width + (l-1)*a.Width*a.Width
	return theta[off : off+a.Width*a.Width]
}

func tgOut(a mlp.Arch, theta []float64) []float64 {
	off := a.In*a.Width + (a.Depth-1)*a.Width*a.Width
	return theta[off : off+a.Width]
}

// forward computes the activations and outputs of the rows sel of x (all
// rows of x when sel is nil) into b. Where h ≡ 0 (θ = θ0 mirrored,
// mlp.Net.IdenticallyZero) the outputs are exact zeros.
func (n *tgNet) forward(x *tgRows, sel []int, b *tgBatch) {
	a := n.net.Arch
	w := a.Width
	rows := x.n()
	if sel != nil {
		rows = len(sel)
	}
	b.resize(a, rows)
	h1 := b.h[0]
	if x.denseEnough() {
		b.xd = x.denseView(&b.x, sel)
		// x·W_1ᵀ as x·w1t: the product MulTransTo would form after
		// transposing W_1 into the same d × w layout on every call, with
		// ReLU applied by the kernels (the bits of MulTo, then ReLU).
		gemm.MulStridedReLUTo(h1, w, b.xd, a.In, n.w1t, w, rows, a.In, w)
	} else {
		n.sparseFirst(x, sel, h1)
		gemm.ReLU(h1)
	}
	for l := 1; l < a.Depth; l++ {
		// h_{l−1}·W_lᵀ as MulTransTo forms it, from the kept W_lᵀ, then ReLU.
		gemm.MulStridedReLUTo(b.h[l], w, b.h[l-1], w, n.layerT(l), w, rows, w, w)
	}
	if n.net.IdenticallyZero() {
		clear(b.out)
		return
	}
	gemm.MulVecTo(b.out, b.h[a.Depth-1], tgOut(a, n.net.Theta), rows, w)
}

// sparseFirst writes the first layer's pre-activations of the rows sel of
// x into h1 through their non-zeros.
func (n *tgNet) sparseFirst(x *tgRows, sel []int, h1 []float64) {
	w := n.net.Arch.Width
	rows := len(h1) / w
	clear(h1)
	for r := range rows {
		src := r
		if sel != nil {
			src = sel[r]
		}
		idx, val := x.row(src)
		// dst += val[k]·w1t[idx[k]] for each non-zero in turn (its values
		// are non-zero: plusAxpy would skip none).
		gemm.AxpyRows(h1[r*w:(r+1)*w], n.w1t, w, idx, val)
	}
}

// backward adds Σ_r c_r ∂g(x_r)/∂θ to grad for the batch of the last
// forward (rows sel of x); g1t is scratch of d × w.
func (n *tgNet) backward(x *tgRows, sel []int, b *tgBatch, c, grad, g1t []float64) {
	a := n.net.Arch
	w, d, rows := a.Width, a.In, b.rows
	th := n.net.Theta
	L := a.Depth
	dL := b.dl[L-1]
	// The signals' masks are applied by the products' kernels (the bits of
	// MulTo, then Mask); the output signal and the output weights'
	// gradient in one pass (OuterMaskTo: MulMaskTo's and
	// AddTransMulVecTo's bits).
	gemm.OuterMaskTo(dL, c, tgOut(a, th), b.h[L-1], rows, w, tgOut(a, grad))
	for l := L - 1; l >= 1; l-- {
		gemm.AddTransMulTo(tgLayer(a, grad, l), b.dl[l], b.h[l-1], w, rows, w)
		gemm.MulMaskTo(b.dl[l-1], b.dl[l], tgLayer(a, th, l), b.h[l-1], rows, w, w)
	}
	d1 := b.dl[0]
	if x.denseEnough() {
		gemm.AddTransMulTo(grad[:d*w], d1, b.xd, w, rows, d)
		return
	}
	// g1t[j] = Σ_r x_rj·d1[r] over the batch rows r in order: the batch's
	// non-zeros by column (each column's rows ascending), then one
	// gemm.AxpyRows per column, which adds them in the same order as an
	// Axpy per non-zero row by row.
	if !b.byCol {
		b.byColumn(x, sel, rows, d)
	}
	ptr, crow, cval := b.colPtr, b.colRow, b.colVal
	clear(g1t[:d*w])
	for j := range d {
		lo, hi := ptr[j], ptr[j+1]
		if lo < hi {
			gemm.AxpyRows(g1t[j*w:(j+1)*w], d1, w, crow[lo:hi], cval[lo:hi])
		}
	}
	for k := range w {
		for j := range d {
			grad[k*d+j] += g1t[j*w+k]
		}
	}
}

// byColumn writes the non-zeros of the rows sel of x (all when nil; rows of
// them) by column, each column's rows ascending, and sets byCol.
func (b *tgBatch) byColumn(x *tgRows, sel []int, rows, d int) {
	ptr := resizeInt32(b.colPtr, d+1)
	b.colPtr = ptr
	clear(ptr)
	nnz := 0
	for r := range rows {
		src := r
		if sel != nil {
			src = sel[r]
		}
		idx, _ := x.row(src)
		for _, j := range idx {
			ptr[j+1]++
		}
		nnz += len(idx)
	}
	for j := range d {
		ptr[j+1] += ptr[j]
	}
	crow, cval := resizeInt32(b.colRow, nnz), resize(b.colVal, nnz)
	next := append(resizeInt32(b.colNext, d)[:0], ptr[:d]...)
	b.colRow, b.colVal, b.colNext = crow, cval, next
	for r := range rows {
		src := r
		if sel != nil {
			src = sel[r]
		}
		idx, val := x.row(src)
		val = val[:len(idx)]
		for k, j := range idx {
			at := next[j]
			crow[at], cval[at] = int32(r), val[k]
			next[j] = at + 1
		}
	}
	b.byCol = true
}

func resizeInt32(s []int32, n int) []int32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]int32, n)
}
