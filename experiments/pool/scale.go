package pool

import (
	"fmt"
	"math"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/poolfile"
)

// CheckScale reports pool features of extreme or very unequal scale
// (poolfile.CheckScale), naming the columns and the fix (standardise).
func CheckScale(pf *poolfile.PoolFile) error {
	if err := poolfile.CheckScale(pf); err != nil {
		return &experiments.FieldError{Pkg: "pool", Field: "standardise", Msg: err.Error() +
			": standardise the columns yourself, or set standardise to rescale each to mean 0 and standard deviation 1"}
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
