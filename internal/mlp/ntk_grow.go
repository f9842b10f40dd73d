package mlp

import (
	"bytes"
	"fmt"
	"unsafe"

	"gonum.org/v1/gonum/floats"

	"github.com/neural-adb/nadb/internal/gemm"
)

// NewEmptyFeatures returns features of architecture a with no rows, to be
// grown with Append (the committed rows of the fresh-context setting).
func NewEmptyFeatures(a Arch, scale float64) *Features {
	if err := a.Validate(); err != nil {
		panic(err)
	}
	return &Features{Arch: a, Scale: scale, b: NewBatch(a, 0), halves: a.Width%2 == 0}
}

// Append computes the signals of the rows of x (rows × In) with the network n
// and appends them as rows Rows(), Rows()+1, …. The network must be at the θ
// the existing rows were computed at; a learner that trains its network keeps
// a Clone at θ0 for this.
func (f *Features) Append(n *Net, x []float64) {
	a := f.Arch
	if n.Arch != a {
		panic(fmt.Sprintf("mlp: Append with a network of architecture %+v to features of %+v", n.Arch, a))
	}
	rows := len(x) / a.In
	if len(x) != rows*a.In {
		panic("mlp: Append input is not a whole number of rows")
	}
	if rows == 0 {
		return
	}
	g := n.NewFeatures(x, f.Scale)
	for l := range f.b.H {
		f.b.H[l] = append(f.b.H[l], g.b.H[l]...)
	}
	for l := range f.b.D {
		f.b.D[l] = append(f.b.D[l], g.b.D[l]...)
	}
	f.b.Out = append(f.b.Out, g.b.Out...)
	f.b.Rows += rows
	f.rows += rows
	f.halves = f.halves && g.halves
}

// mirroredHalves reports whether every row of b has the hidden signals of a
// network at a mirrored θ0 (InitMirrored: W_1 = [A; A], W_l = diag(B, B),
// v = [u; −u]): h_l = [r; r] and δ_l = [e; −e] for every hidden layer l, the
// two halves equal (opposite) as numbers. The inner product of two such
// signals is then exactly twice the inner product of their first halves.
func mirroredHalves(a Arch, b *Batch) bool {
	if a.Width%2 != 0 {
		return false
	}
	w, h := a.Width, a.Width/2
	for r := range b.Rows {
		for l := range a.Depth {
			hr := b.H[l+1][r*w : (r+1)*w]
			dr := b.D[l][r*w : (r+1)*w]
			for p := range h {
				if hr[p] != hr[p+h] || dr[p] != -dr[p+h] {
					return false
				}
			}
		}
	}
	return true
}

// signal returns signal matrix m of the rows and its number of columns, in
// the order H_0, D_0, H_1, D_1, …, H_{L−1}, D_{L−1}, H_L (D_l is δ_{l+1}).
func (f *Features) signal(m int) ([]float64, int) {
	a := f.Arch
	switch {
	case m == 2*a.Depth:
		return f.b.H[a.Depth], a.Width
	case m%2 == 0:
		return f.b.H[m/2], a.fanIn(m / 2)
	default:
		return f.b.D[m/2], a.Width
	}
}

func (f *Features) compatible(g *Features) {
	if f.Arch != g.Arch || f.Scale != g.Scale {
		panic(fmt.Sprintf("mlp: features of %+v (scale %g) and %+v (scale %g) are not of one network", f.Arch, f.Scale, g.Arch, g.Scale))
	}
}

// CrossEntry returns Scale·⟨g(x_i;θ), g(y_j;θ)⟩ for row i of f and row j of
// g, two feature sets of the same network at the same θ (the formula of
// Entry across two row sets).
func (f *Features) CrossEntry(i int, g *Features, j int) float64 {
	f.compatible(g)
	a := f.Arch
	row := func(h *Features, m, r int) []float64 {
		x, c := h.signal(m)
		return x[r*c : (r+1)*c]
	}
	s := floats.Dot(row(f, 2*a.Depth, i), row(g, 2*a.Depth, j))
	if a.Bias {
		s++
	}
	for l := range a.Depth {
		dd := floats.Dot(row(f, 2*l+1, i), row(g, 2*l+1, j))
		hh := floats.Dot(row(f, 2*l, i), row(g, 2*l, j))
		if a.Bias {
			hh++
		}
		s += dd * hh
	}
	return f.Scale * s
}

// StreamKernel is the kernel of the gradient features over a growing set of
// committed rows (Features grown with Append) and the current round's fresh
// rows (Features built with NewFeatures), all at one θ0. It has the methods of
// gram.StreamKernel (package mlp does not import gram). It keeps the signals
// of the committed rows it is asked about gathered column-wise, so that the
// entries of a block of rows against them are one matrix product per signal
// matrix and an element-wise combination (rowsTo).
type StreamKernel struct {
	committed, fresh *Features

	ids []int       // committed rows gathered, in order
	cap int         // stride of the gathered matrices
	g   [][]float64 // per signal matrix m: its columns × cap, transposed

	sel   [][]float64 // per signal matrix: the rows of a CommittedTo call
	fg    []float64   // two n × n Gram matrices of FreshTo
	tiles []float64   // three crossRows × crossBlock tiles of rowsTo
}

// NewStreamKernel returns the kernel over committed and fresh features of one
// network (fresh may be nil until SetFresh).
func NewStreamKernel(committed, fresh *Features) *StreamKernel {
	k := &StreamKernel{committed: committed}
	if fresh != nil {
		k.SetFresh(fresh)
	}
	return k
}

// SetFresh replaces the fresh rows.
func (k *StreamKernel) SetFresh(f *Features) {
	k.committed.compatible(f)
	k.fresh = f
}

// Committed returns the number of committed rows.
func (k *StreamKernel) Committed() int { return k.committed.rows }

// Fresh returns the number of fresh rows (0 before SetFresh).
func (k *StreamKernel) Fresh() int {
	if k.fresh == nil {
		return 0
	}
	return k.fresh.rows
}

// CommittedTo writes K(rows[a], cols[b]) for committed rows into
// dst[a·len(cols)+b].
func (k *StreamKernel) CommittedTo(dst []float64, rows, cols []int) {
	f := k.committed
	nm := 2*f.Arch.Depth + 1
	if len(k.sel) != nm {
		k.sel = make([][]float64, nm)
	}
	for m := range nm {
		x, w := f.signal(m)
		s := k.sel[m][:0]
		for _, r := range rows {
			s = append(s, x[r*w:(r+1)*w]...)
		}
		k.sel[m] = s
	}
	k.rowsTo(dst, len(rows), func(m int) []float64 { return k.sel[m] }, cols, f.halves)
}

// CrossTo writes K(fresh row x0+a, committed row cols[b]) into
// dst[a·len(cols)+b] for a < x1−x0.
func (k *StreamKernel) CrossTo(dst []float64, x0, x1 int, cols []int) {
	k.rowsTo(dst, x1-x0, func(m int) []float64 {
		x, w := k.fresh.signal(m)
		return x[x0*w : x1*w]
	}, cols, k.committed.halves && k.fresh.halves)
}

// CrossRowsTo writes K(fresh row rows[a], committed row cols[c0+b]) into
// dst[a·(c1−c0)+b] for a < len(rows) and b < c1−c0: the entries of CrossTo
// for some fresh rows against a range of the columns, the same bits.
func (k *StreamKernel) CrossRowsTo(dst []float64, rows []int, cols []int, c0, c1 int) {
	f := k.fresh
	nm := 2*f.Arch.Depth + 1
	if len(k.sel) != nm {
		k.sel = make([][]float64, nm)
	}
	for m := range nm {
		x, w := f.signal(m)
		s := k.sel[m][:0]
		for _, r := range rows {
			s = append(s, x[r*w:(r+1)*w]...)
		}
		k.sel[m] = s
	}
	k.rowsRangeTo(dst, len(rows), func(m int) []float64 { return k.sel[m] }, cols, c0, c1, k.committed.halves && f.halves)
}

// FreshTo writes K(fresh row x0+a, fresh row x0+b) into dst[a·(x1−x0)+b]:
// the bits of CrossEntry, from the Gram matrices of the rows' signals
// (gemm.DotUpper, floats.Dot's bits) combined entry by entry in CrossEntry's order, without
// CrossEntry's per-entry look-ups.
func (k *StreamKernel) FreshTo(dst []float64, x0, x1 int) {
	f := k.fresh
	a := f.Arch
	n := x1 - x0
	if n <= 0 {
		return
	}
	nn := n * n
	if cap(k.fg) < 2*nn {
		k.fg = make([]float64, 2*nn)
	}
	dd, hh := k.fg[:nn], k.fg[nn:2*nn]
	dst = dst[:nn]
	x, w := f.signal(2 * a.Depth)
	gemm.DotUpper(dst, x[x0*w:x1*w], w, n)
	if a.Bias {
		for i := range n {
			for j := i; j < n; j++ {
				dst[i*n+j]++
			}
		}
	}
	for l := range a.Depth {
		x, w = f.signal(2*l + 1)
		gemm.DotUpper(dd, x[x0*w:x1*w], w, n)
		x, w = f.signal(2 * l)
		gemm.DotUpper(hh, x[x0*w:x1*w], w, n)
		for i := range n {
			s, d, h := dst[i*n+i:i*n+n], dd[i*n+i:i*n+n], hh[i*n+i:i*n+n]
			for j := range s {
				hv := h[j]
				if a.Bias {
					hv++
				}
				s[j] += float64(d[j] * hv)
			}
		}
	}
	for i := range n {
		for j := i; j < n; j++ {
			v := f.Scale * dst[i*n+j]
			dst[i*n+j] = v
			dst[j*n+i] = v
		}
	}
}

// gather makes the gathered columns start with cols (kept when cols extends
// the kept list, rebuilt otherwise).
func (k *StreamKernel) gather(cols []int) {
	f := k.committed
	nm := 2*f.Arch.Depth + 1
	n := min(len(k.ids), len(cols))
	if !sameInts(k.ids[:n], cols[:n]) {
		k.ids, k.cap, k.g = k.ids[:0], 0, nil
	}
	if len(cols) <= len(k.ids) {
		return
	}
	if len(cols) > k.cap {
		c := max(64, 2*k.cap, len(cols))
		g := make([][]float64, nm)
		for m := range g {
			_, w := f.signal(m)
			g[m] = make([]float64, w*c)
			for p := range w {
				if k.g != nil {
					copy(g[m][p*c:p*c+len(k.ids)], k.g[m][p*k.cap:p*k.cap+len(k.ids)])
				}
			}
		}
		k.g, k.cap = g, c
	}
	for s := len(k.ids); s < len(cols); s++ {
		r := cols[s]
		for m := range nm {
			x, w := f.signal(m)
			for p, v := range x[r*w : (r+1)*w] {
				k.g[m][p*k.cap+s] = v
			}
		}
	}
	k.ids = append(k.ids, cols[len(k.ids):]...)
}

// sameInts reports whether a and b (of equal length) hold the same ints:
// slices.Equal's answer, from one comparison of their bytes (the runtime's
// vector memory comparison; ints are equal exactly when their bytes are),
// since gather checks the whole kept list on every call.
func sameInts(a, b []int) bool {
	if len(a) == 0 {
		return true
	}
	size := len(a) * int(unsafe.Sizeof(a[0]))
	return bytes.Equal(unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), size), unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), size))
}
