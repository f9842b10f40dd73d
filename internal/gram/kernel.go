package gram

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// Kernel gives entries and columns of the symmetric Gram matrix K0 = ΦΦᵀ of the
// pool's feature rows.
type Kernel interface {
	Rows() int
	Entry(i, j int) float64
	// Column returns K0[:, j]; the caller must not modify it and may keep it.
	Column(j int) []float64
}

// Blocker is implemented by a Kernel that computes its entries on demand
// (mlp.BlockKernel): ColumnsTo writes K0[lo+a, cols[b]] into
// dst[b·(hi−lo)+a] for lo ≤ lo+a < hi (rows lo..hi−1 of each column, one
// column after the other), the same values as Entry. Confidence then asks
// for the entries it needs, block by block, instead of whole columns:
// nothing of size Rows² is kept.
type Blocker interface {
	ColumnsTo(dst []float64, lo, hi int, cols []int)
}

// Keeper is implemented by a Blocker that can keep the rows updates name
// (mlp.BlockKernel): Keep appends row i to its kept columns, numbered from
// 0 in the order of Keep, and KeptTo writes K0[lo+a, kept column j0+b]
// into dst[a·(j1−j0)+b], the same values as Entry. Once a context far
// behind is read, Confidence keeps the rows of every update, so that the
// entries such a context needs to catch up are one block against a range
// of kept columns, with nothing gathered.
type Keeper interface {
	Keep(i int)
	KeptTo(dst []float64, lo, hi, j0, j1 int)
}

// Dense is a Kernel backed by a full row-major Rows×Rows matrix.
type Dense struct {
	N    int
	Data []float64
}

func (d *Dense) Rows() int              { return d.N }
func (d *Dense) Entry(i, j int) float64 { return d.Data[i*d.N+j] }

// Column returns row j, equal to column j by symmetry.
func (d *Dense) Column(j int) []float64 { return d.Data[j*d.N : (j+1)*d.N] }

// ColumnSource computes one column of a kernel; see Cached.
type ColumnSource interface {
	Rows() int
	Entry(i, j int) float64
	ColumnTo(dst []float64, j int) []float64
}

// Cached is a Kernel that computes columns on demand and keeps every column it
// has computed; its memory grows with the number of distinct queried rows, not
// with Rows².
type Cached struct {
	Src  ColumnSource
	cols map[int][]float64
}

// NewCached returns an on-demand kernel over src.
func NewCached(src ColumnSource) *Cached { return &Cached{Src: src, cols: map[int][]float64{}} }

func (c *Cached) Rows() int              { return c.Src.Rows() }
func (c *Cached) Entry(i, j int) float64 { return c.Src.Entry(i, j) }

func (c *Cached) Column(j int) []float64 {
	if col, ok := c.cols[j]; ok {
		return col
	}
	col := c.Src.ColumnTo(nil, j)
	c.cols[j] = col
	return col
}

// Linear is the kernel x_i·x_j of raw feature rows (rows × Dim), the linear
// baselines' Gram matrix.
type Linear struct {
	X   []float64
	Dim int
}

func (l *Linear) Rows() int { return len(l.X) / l.Dim }
func (l *Linear) Entry(i, j int) float64 {
	return blas64.Dot(blas64.Vector{N: l.Dim, Inc: 1, Data: l.X[i*l.Dim:]}, blas64.Vector{N: l.Dim, Inc: 1, Data: l.X[j*l.Dim:]})
}

// ColumnTo computes X x_j.
func (l *Linear) ColumnTo(dst []float64, j int) []float64 {
	n := l.Rows()
	if dst == nil {
		dst = make([]float64, n)
	}
	blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: n, Cols: l.Dim, Stride: l.Dim, Data: l.X},
		blas64.Vector{N: l.Dim, Inc: 1, Data: l.X[j*l.Dim : (j+1)*l.Dim]}, 0, blas64.Vector{N: n, Inc: 1, Data: dst})
	return dst
}
