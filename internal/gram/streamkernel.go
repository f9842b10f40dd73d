package gram

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/floats"
)

// StreamKernel gives the kernel entries a Stream needs. Rows come in two sets:
// committed rows 0, 1, …, Committed()−1, which only grow (a committed row
// never changes), and the fresh rows 0, 1, …, Fresh()−1 of the current round,
// which are replaced every round. All entries are inner products of features
// of one feature map.
//
// Entries are written row-major into dst, which the caller sizes. Stream asks
// for many rows against the same growing list cols (the committed rows its
// updates name, in order of first use), so an implementation may keep those
// columns gathered between calls.
type StreamKernel interface {
	Committed() int
	Fresh() int
	// CommittedTo writes K(rows[a], cols[b]) for committed rows into
	// dst[a·len(cols)+b].
	CommittedTo(dst []float64, rows, cols []int)
	// CrossTo writes K(fresh row x0+a, committed row cols[b]) into
	// dst[a·len(cols)+b] for a < x1−x0.
	CrossTo(dst []float64, x0, x1 int, cols []int)
	// CrossRowsTo writes K(fresh row rows[a], committed row cols[c0+b])
	// into dst[a·(c1−c0)+b] for a < len(rows), b < c1−c0: CrossTo's entries
	// for some fresh rows against part of the list (which is the whole
	// list, so that it stays gathered).
	CrossRowsTo(dst []float64, rows []int, cols []int, c0, c1 int)
	// FreshTo writes K(fresh row x0+a, fresh row x0+b) into dst[a·(x1−x0)+b].
	FreshTo(dst []float64, x0, x1 int)
}

// rangeKernel is implemented by a StreamKernel that computes the entries of
// CrossRowsTo for consecutive fresh rows x0, …, x1−1 without gathering them
// first (mlp.StreamKernel, LinearStream), to the same bits.
type rangeKernel interface {
	CrossRangeTo(dst []float64, x0, x1 int, cols []int, c0, c1 int)
}

// LinearStream is the StreamKernel of raw feature rows, K(x, x′) = x·x′ (the
// linear baselines). Commit appends committed rows; SetFresh replaces the
// fresh rows.
type LinearStream struct {
	dim       int
	committed []float64
	fresh     []float64
	cols      gathered
}

// NewLinearStream returns an empty linear stream kernel of rows of length dim.
func NewLinearStream(dim int) *LinearStream {
	if dim < 1 {
		panic(fmt.Sprintf("gram: linear stream kernel dimension %d < 1", dim))
	}
	return &LinearStream{dim: dim}
}

// Commit appends the rows of x (a whole number of rows of length dim).
func (l *LinearStream) Commit(x []float64) {
	l.check(x)
	l.committed = append(l.committed, x...)
}

// SetFresh replaces the fresh rows by the rows of x; it keeps no reference to x.
func (l *LinearStream) SetFresh(x []float64) {
	l.check(x)
	l.fresh = append(l.fresh[:0], x...)
}

func (l *LinearStream) check(x []float64) {
	if len(x)%l.dim != 0 {
		panic(fmt.Sprintf("gram: %d values are not whole rows of length %d", len(x), l.dim))
	}
}

func (l *LinearStream) Committed() int { return len(l.committed) / l.dim }
func (l *LinearStream) Fresh() int     { return len(l.fresh) / l.dim }

func (l *LinearStream) row(x []float64, i int) []float64 { return x[i*l.dim : (i+1)*l.dim] }

func (l *LinearStream) CommittedTo(dst []float64, rows, cols []int) {
	l.gather(cols)
	for a, i := range rows {
		l.cols.mulTo(dst[a*len(cols):(a+1)*len(cols)], l.row(l.committed, i), 0)
	}
}

func (l *LinearStream) CrossTo(dst []float64, x0, x1 int, cols []int) {
	l.gather(cols)
	for a := range x1 - x0 {
		l.cols.mulTo(dst[a*len(cols):(a+1)*len(cols)], l.row(l.fresh, x0+a), 0)
	}
}

func (l *LinearStream) CrossRowsTo(dst []float64, rows []int, cols []int, c0, c1 int) {
	l.gather(cols)
	n := c1 - c0
	for a, x := range rows {
		l.cols.mulTo(dst[a*n:(a+1)*n], l.row(l.fresh, x), c0)
	}
}

func (l *LinearStream) CrossRangeTo(dst []float64, x0, x1 int, cols []int, c0, c1 int) {
	l.gather(cols)
	n := c1 - c0
	for a := range x1 - x0 {
		l.cols.mulTo(dst[a*n:(a+1)*n], l.row(l.fresh, x0+a), c0)
	}
}

func (l *LinearStream) FreshTo(dst []float64, x0, x1 int) {
	n := x1 - x0
	for a := range n {
		for b := a; b < n; b++ {
			v := floats.Dot(l.row(l.fresh, x0+a), l.row(l.fresh, x0+b))
			dst[a*n+b] = v
			dst[b*n+a] = v
		}
	}
}

func (l *LinearStream) gather(cols []int) {
	l.cols.sync(cols, l.dim, func(dst []float64, stride, slot, r int) {
		for k, v := range l.row(l.committed, r) {
			dst[k*stride+slot] = v
		}
	})
}

// gathered keeps the feature rows of a list of committed rows as the columns
// of a dim × cap matrix (stride cap), so that a row of kernel entries against
// all of them is a sum of dim contiguous axpys. The list grows by appending;
// a list that is not an extension of the kept one replaces it.
type gathered struct {
	ids []int
	dim int
	cap int
	m   []float64
}

// sync makes the kept columns start with cols: fill(dst, stride, slot, r)
// writes the features of committed row r as column slot of dst.
func (g *gathered) sync(cols []int, dim int, fill func(dst []float64, stride, slot, r int)) {
	n := min(len(g.ids), len(cols))
	if g.dim != dim || !slices.Equal(g.ids[:n], cols[:n]) {
		*g = gathered{dim: dim}
		n = 0
	}
	if len(cols) <= len(g.ids) {
		return
	}
	if len(cols) > g.cap {
		c := max(64, 2*g.cap, len(cols))
		m := make([]float64, dim*c)
		for k := range dim {
			copy(m[k*c:k*c+len(g.ids)], g.m[k*g.cap:k*g.cap+len(g.ids)])
		}
		g.m, g.cap = m, c
	}
	for s := len(g.ids); s < len(cols); s++ {
		fill(g.m, g.cap, s, cols[s])
	}
	g.ids = append(g.ids, cols[len(g.ids):]...)
}

// mulTo sets out[c] = Σ_k v[k]·column (j0+c) of the kept matrix, for
// c < len(out): one axpy per nonzero v[k], in increasing k, so every entry is
// the same sum whatever len(out) and j0 are.
func (g *gathered) mulTo(out, v []float64, j0 int) {
	clear(out)
	n := len(out)
	for k, vk := range v {
		if vk != 0 {
			floats.AddScaled(out, vk, g.m[k*g.cap+j0:k*g.cap+j0+n])
		}
	}
}
