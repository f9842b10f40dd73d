package poolfile

import (
	"fmt"
	"math"

	"github.com/neural-adb/nadb/internal/csvtab"
)

// MaxUtility bounds the absolute value of a pool file's utilities. A utility
// is a Bradley–Terry log-odds scale (a difference of 40 already makes a
// preference certain), so a value beyond 1e15 is an error in the file; the
// bound keeps every gap, regret sum and average of a run finite (a utility
// of 1e308 made the average regret +Inf).
const MaxUtility = 1e15

// checkUtility refuses an absurd utility u in column col of rd's row.
func checkUtility(rd *csvtab.Reader, col int, u float64) error {
	if math.Abs(u) > MaxUtility {
		return rd.ErrAt(col, "utility %s is beyond ±%g: utilities are on the Bradley–Terry log-odds scale (rescale the column)", csvtab.Quote(rd.Field(col)), MaxUtility)
	}
	return nil
}

// Feature scales that ScaleCheck reports: features larger than MaxFeature,
// or columns whose scales (largest absolute values) lie more than
// MaxScaleRatio apart. The learners stay finite beyond these (they degrade
// rather than fail), but their models then learn little from the small
// columns.
const (
	MaxScaleRatio = 1e8
	MaxFeature    = 1e8
)

// ScaleError reports feature columns of extreme or very unequal scale.
type ScaleError struct {
	Lo, Hi       float64 // the smallest non-zero and the largest column scale
	LoCol, HiCol string  // their columns
}

func (e *ScaleError) Error() string {
	return fmt.Sprintf("the features span %.3g (column %s) to %.3g (column %s)", e.Lo, csvtab.Quote(e.LoCol), e.Hi, csvtab.Quote(e.HiCol))
}

// CheckScale returns a *ScaleError when a feature of pf exceeds MaxFeature
// or two columns' scales differ by more than MaxScaleRatio, and nil
// otherwise.
func CheckScale(pf *PoolFile) error {
	d := pf.Pool.Dim
	lo, hi := math.Inf(1), 0.0
	var loCol, hiCol int
	colMax := pf.colMax // found when the pool's values were checked (OpenDir)
	if pf.colMaxOf != pf.Pool || len(colMax) != d {
		colMax = make([]float64, d) // the largest |x| of every column, in one pass over the rows
		for _, x := range pf.Pool.Blocks(0, pf.Pool.Rows(), nil) {
			for i, v := range x {
				j := i % d
				colMax[j] = math.Max(colMax[j], math.Abs(v))
			}
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
		return &ScaleError{Lo: lo, Hi: hi, LoCol: pf.Features[loCol], HiCol: pf.Features[hiCol]}
	}
	return nil
}
