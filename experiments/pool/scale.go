package pool

import (
	"fmt"
	"math"

	"github.com/neural-adb/nadb/algorithms"
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
	colMax := make([]float64, d) // the largest |x| of every column, in one pass over the rows
	for _, x := range pf.Pool.Blocks(0, pf.Pool.Rows(), nil) {
		for i, v := range x {
			j := i % d
			colMax[j] = math.Max(colMax[j], math.Abs(v))
		}
	}
	for j, m := range colMax {
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
// no answers, so using the held-out contexts' rows leaks nothing. The
// rescaled features replace pf.Pool as a new in-memory float64 pool (a pool
// is never written in place: it may be a read-only mapped file).
func Standardise(pf *poolfile.PoolFile) error {
	p := pf.Pool
	d, rows := p.Dim, p.Rows()
	x := p.AppendRows(nil, 0, rows)
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
	np, err := algorithms.NewPool(p.Contexts, p.Arms, d, x)
	if err != nil {
		return &experiments.FieldError{Pkg: "pool", Field: "standardise", Msg: fmt.Sprintf("the standardised features are not finite (%v): standardise the columns yourself", err)}
	}
	pf.Pool = np
	return nil
}
