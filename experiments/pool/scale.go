package pool

import (
	"fmt"
	"math"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/poolfile"
)

// MaxScaleRatio bounds how far apart the scales of a pool's feature columns
// (their largest absolute values) may lie, and MaxFeature how large a
// feature may be, before CheckScale asks for standardisation: the learners
// stay finite beyond these (they degrade rather than fail), but their
// models then learn little from the small columns.
const (
	MaxScaleRatio = 1e8
	MaxFeature    = 1e8
)

// CheckScale reports pool features of extreme or very unequal scale, naming
// the columns and the fix (standardise).
func CheckScale(pf *poolfile.PoolFile) error {
	d := pf.Pool.Dim
	lo, hi := math.Inf(1), 0.0
	var loCol, hiCol int
	for j := range d {
		m := 0.0
		for n := range pf.Pool.Rows() {
			m = math.Max(m, math.Abs(pf.Pool.X[n*d+j]))
		}
		if m > hi {
			hi, hiCol = m, j
		}
		if m > 0 && m < lo {
			lo, loCol = m, j
		}
	}
	if hi > MaxFeature || (lo < math.Inf(1) && hi/lo > MaxScaleRatio) {
		return &experiments.FieldError{Pkg: "pool", Field: "standardise", Msg: fmt.Sprintf(
			"the features span %.3g (column %s) to %.3g (column %s): standardise the columns yourself, or set standardise to rescale each to mean 0 and standard deviation 1",
			lo, pf.Features[loCol], hi, pf.Features[hiCol])}
	}
	return nil
}

// Standardise rescales every feature column of pf to mean 0 and standard
// deviation 1 over all rows (a constant column becomes 0). Features carry
// no answers, so using the held-out contexts' rows leaks nothing.
func Standardise(pf *poolfile.PoolFile) {
	d, rows := pf.Pool.Dim, pf.Pool.Rows()
	x := pf.Pool.X
	for j := range d {
		mean := 0.0
		for n := range rows {
			mean += x[n*d+j] / float64(rows)
		}
		ss := 0.0
		for n := range rows {
			v := x[n*d+j] - mean
			ss += v * v / float64(rows)
		}
		sd := math.Sqrt(ss)
		for n := range rows {
			if sd > 0 && !math.IsInf(sd, 0) {
				x[n*d+j] = (x[n*d+j] - mean) / sd
			} else {
				x[n*d+j] = 0
			}
		}
	}
}
