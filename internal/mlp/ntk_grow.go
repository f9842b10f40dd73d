package mlp

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/floats"
)

// NewEmptyFeatures returns features of architecture a with no rows, to be
// grown with Append (the committed rows of the fresh-context setting).
func NewEmptyFeatures(a Arch, scale float64) *Features {
	if err := a.Validate(); err != nil {
		panic(err)
	}
	return &Features{Arch: a, Scale: scale, b: NewBatch(a, 0)}
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
// of the committed rows it is asked about gathered column-wise, so that a
// row of entries against them is a sequence of long axpys.
type StreamKernel struct {
	committed, fresh *Features

	ids    []int       // committed rows gathered, in order
	cap    int         // stride of the gathered matrices
	g      [][]float64 // per signal matrix m: its columns × cap, transposed
	dd, hh []float64
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

// crossBlock is the number of gathered columns processed together, so that
// their signals stay in cache across the rows.
const crossBlock = 256

// CommittedTo writes K(rows[a], cols[b]) for committed rows into
// dst[a·len(cols)+b].
func (k *StreamKernel) CommittedTo(dst []float64, rows, cols []int) {
	k.rowsTo(dst, k.committed, len(rows), func(a int) int { return rows[a] }, cols)
}

// CrossTo writes K(fresh row x0+a, committed row cols[b]) into
// dst[a·len(cols)+b] for a < x1−x0.
func (k *StreamKernel) CrossTo(dst []float64, x0, x1 int, cols []int) {
	k.rowsTo(dst, k.fresh, x1-x0, func(a int) int { return x0 + a }, cols)
}

// FreshTo writes K(fresh row x0+a, fresh row x0+b) into dst[a·(x1−x0)+b].
func (k *StreamKernel) FreshTo(dst []float64, x0, x1 int) {
	n := x1 - x0
	for a := range n {
		for b := a; b < n; b++ {
			v := k.fresh.CrossEntry(x0+a, k.fresh, x0+b)
			dst[a*n+b] = v
			dst[b*n+a] = v
		}
	}
}

// rowsTo writes K(row(a) of src, committed cols[b]) into dst[a·len(cols)+b]:
// for every row, column block by column block, the formula of Entry with
// every inner product against the gathered columns done as axpys in
// increasing index, so an entry does not depend on the other rows or on the
// blocking.
func (k *StreamKernel) rowsTo(dst []float64, src *Features, nrows int, row func(int) int, cols []int) {
	k.gather(cols)
	a := k.committed.Arch
	n := len(cols)
	for j0 := 0; j0 < n; j0 += crossBlock {
		j1 := min(j0+crossBlock, n)
		dd, hh := k.dd[:j1-j0], k.hh[:j1-j0]
		for r := range nrows {
			i := row(r)
			out := dst[r*n+j0 : r*n+j1]
			k.mulTo(out, src, 2*a.Depth, i, j0)
			if a.Bias {
				for c := range out {
					out[c]++
				}
			}
			for l := range a.Depth {
				k.mulTo(dd, src, 2*l+1, i, j0)
				k.mulTo(hh, src, 2*l, i, j0)
				for c, h := range hh {
					if a.Bias {
						h++
					}
					out[c] += dd[c] * h
				}
			}
			floats.Scale(src.Scale, out)
		}
	}
}

// mulTo sets out[c] = signal m of row i of src · gathered column j0+c.
func (k *StreamKernel) mulTo(out []float64, src *Features, m, i, j0 int) {
	x, c := src.signal(m)
	g := k.g[m]
	clear(out)
	for p, v := range x[i*c : (i+1)*c] {
		if v != 0 { // ReLU zeros: about half of every h and δ
			floats.AddScaled(out, v, g[p*k.cap+j0:p*k.cap+j0+len(out)])
		}
	}
}

// gather makes the gathered columns start with cols (kept when cols extends
// the kept list, rebuilt otherwise).
func (k *StreamKernel) gather(cols []int) {
	f := k.committed
	nm := 2*f.Arch.Depth + 1
	n := min(len(k.ids), len(cols))
	if !slices.Equal(k.ids[:n], cols[:n]) {
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
		k.dd = make([]float64, crossBlock)
		k.hh = make([]float64, crossBlock)
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
