package pool

import (
	"math"
	"strings"
	"testing"
)

// TestScale: a pool with one unscaled column is refused with a message that
// names the columns and the fix, and standardising makes every column mean
// 0, standard deviation 1.
func TestScale(t *testing.T) {
	pf := mustPool(t, "context,arm,small,big\nu,a,0.001,1e10\nu,b,0.002,-3e10\nv,a,0.003,2e10\nv,b,0.001,0\n")
	err := CheckScale(pf)
	if err == nil || !strings.Contains(err.Error(), `column "small"`) || !strings.Contains(err.Error(), `column "big"`) || !strings.Contains(err.Error(), "standardise") {
		t.Fatalf("CheckScale: %v", err)
	}
	if err := Standardise(pf); err != nil {
		t.Fatal(err)
	}
	d := pf.Pool.Dim
	x := pf.Pool.RowsTo(nil, 0, pf.Pool.Rows())
	for j := range d {
		mean, ss := 0.0, 0.0
		for n := range pf.Pool.Rows() {
			mean += x[n*d+j] / 4
		}
		for n := range pf.Pool.Rows() {
			v := x[n*d+j] - mean
			ss += v * v / 4
		}
		if math.Abs(mean) > 1e-12 || math.Abs(ss-1) > 1e-12 {
			t.Errorf("column %d: mean %v, variance %v after Standardise", j, mean, ss)
		}
	}
	if err := CheckScale(pf); err != nil {
		t.Errorf("standardised pool refused: %v", err)
	}
}
