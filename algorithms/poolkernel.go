package algorithms

import (
	"math"
	"slices"

	"github.com/neural-adb/nadb/internal/mlp"
)

// poolKernel is the gram.StreamKernel of lazyConfidence: the "committed"
// rows are all the rows of a fixed pool, but NTK signals (at θ0) are kept
// only for the rows that updates name (refs, in order of first use); the
// "fresh" rows are the rows of the contexts being solved, set by setFresh.
// Entries come from mlp.StreamKernel over those two feature sets, so they are
// the closed-form gradient inner products of φ = g(x;θ0)/√w (divided by the
// rows' norms with feature-norm=unit).
type poolKernel struct {
	pool  *Pool
	net0  *mlp.Net
	scale float64
	unit  bool

	refs  *mlp.Features // signals of the rows updates name
	slot  map[int]int   // pool row → row of refs
	inner *mlp.StreamKernel
	fresh *mlp.Features

	refInv, freshInv []float64 // 1/‖φ‖ (unit) of refs and fresh rows
	freshD           []float64 // ‖φ‖² of the fresh rows (after unit scaling)
	src, dst         []int     // the last cols translated, and their slots
	rows             []int
	row              []float64 // a pool row converted (Pool.RowTo)
}

func newPoolKernel(p *Pool, net0 *mlp.Net, scale float64, unit bool) *poolKernel {
	refs := mlp.NewEmptyFeatures(net0.Arch, scale)
	return &poolKernel{pool: p, net0: net0, scale: scale, unit: unit, refs: refs, slot: map[int]int{}, inner: mlp.NewStreamKernel(refs, nil)}
}

// Committed returns the number of pool rows (every one may be named).
func (k *poolKernel) Committed() int { return k.pool.Rows() }

// Fresh returns the number of rows set by setFresh.
func (k *poolKernel) Fresh() int { return k.inner.Fresh() }

// setFresh makes the rows of x (whole pool rows) the fresh rows.
func (k *poolKernel) setFresh(x []float64) {
	k.fresh = k.net0.NewFeatures(x, k.scale)
	k.inner.SetFresh(k.fresh)
	n := k.fresh.Rows()
	k.freshD = resize(k.freshD, n)
	k.freshInv = resize(k.freshInv, n)
	for i := range n {
		v := k.fresh.CrossEntry(i, k.fresh, i)
		k.freshInv[i] = invNorm(v)
		if k.unit {
			v *= k.freshInv[i] * k.freshInv[i]
		}
		k.freshD[i] = v
	}
}

// freshDiag returns K(x, x) of fresh row x.
func (k *poolKernel) freshDiag(x int) float64 { return k.freshD[x] }

func invNorm(v float64) float64 {
	if v > 0 {
		return 1 / math.Sqrt(v)
	}
	return 0
}

// slotOf returns the row of refs that holds pool row r, computing its
// signals on first use.
func (k *poolKernel) slotOf(r int) int {
	if s, ok := k.slot[r]; ok {
		return s
	}
	s := k.refs.Rows()
	k.row = k.pool.RowTo(k.row, r)
	k.refs.Append(k.net0, k.row)
	k.slot[r] = s
	k.refInv = append(k.refInv, invNorm(k.refs.CrossEntry(s, k.refs, s)))
	return s
}

// translate returns the slots of the pool rows cols. Stream asks with one
// growing list, so the previous translation is extended when it is a prefix.
func (k *poolKernel) translate(cols []int) []int {
	n := len(k.src)
	if n > len(cols) || !slices.Equal(k.src, cols[:n]) {
		k.src, k.dst, n = k.src[:0], k.dst[:0], 0
	}
	for _, r := range cols[n:] {
		k.src = append(k.src, r)
		k.dst = append(k.dst, k.slotOf(r))
	}
	return k.dst
}

// CommittedTo writes K(rows[a], cols[b]) into dst[a·len(cols)+b].
func (k *poolKernel) CommittedTo(dst []float64, rows, cols []int) {
	k.rows = k.rows[:0]
	for _, r := range rows {
		k.rows = append(k.rows, k.slotOf(r))
	}
	tc := k.translate(cols)
	k.inner.CommittedTo(dst, k.rows, tc)
	if k.unit {
		for a, s := range k.rows {
			k.scaleRow(dst[a*len(tc):(a+1)*len(tc)], k.refInv[s], tc)
		}
	}
}

// CrossTo writes K(fresh row x0+a, pool row cols[b]) into dst[a·len(cols)+b].
func (k *poolKernel) CrossTo(dst []float64, x0, x1 int, cols []int) {
	tc := k.translate(cols)
	k.inner.CrossTo(dst, x0, x1, tc)
	if k.unit {
		for a := range x1 - x0 {
			k.scaleRow(dst[a*len(tc):(a+1)*len(tc)], k.freshInv[x0+a], tc)
		}
	}
}

// CrossRowsTo writes K(fresh row rows[a], pool row cols[c0+b]) into
// dst[a·(c1−c0)+b].
func (k *poolKernel) CrossRowsTo(dst []float64, rows []int, cols []int, c0, c1 int) {
	tc := k.translate(cols)
	k.inner.CrossRowsTo(dst, rows, tc, c0, c1)
	if k.unit {
		n := c1 - c0
		for a, x := range rows {
			k.scaleRow(dst[a*n:(a+1)*n], k.freshInv[x], tc[c0:c1])
		}
	}
}

// FreshTo writes K(fresh row x0+a, fresh row x0+b) into dst[a·(x1−x0)+b].
func (k *poolKernel) FreshTo(dst []float64, x0, x1 int) {
	k.inner.FreshTo(dst, x0, x1)
	if !k.unit {
		return
	}
	n := x1 - x0
	for a := range n {
		for b := range n {
			dst[a*n+b] *= k.freshInv[x0+a] * k.freshInv[x0+b]
		}
	}
}

// scaleRow multiplies row[b] by inv·refInv[slots[b]] (feature-norm=unit).
func (k *poolKernel) scaleRow(row []float64, inv float64, slots []int) {
	for b, s := range slots {
		row[b] *= inv * k.refInv[s]
	}
}
