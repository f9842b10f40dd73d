package plotfig_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/neural-adb/nadb/internal/plotfig"
)

// A theory panel: a measured norm with its band, a bound with mathematics in
// its label that is undefined (its radicand is not positive) for T < 64, and
// a hatched span naming where the bound does not exist. The undefined points
// are drawn as crosses in a strip under the panel, outside the plotted
// range, not as zeros.
func ExampleFigure_bound() {
	var x, norm, lo, hi, bound []float64
	var undefined []bool
	for T := 8.0; T <= 4096; T *= 2 {
		x = append(x, T)
		n := 2 / math.Sqrt(T)
		norm, lo, hi = append(norm, n), append(lo, 0.9*n), append(hi, 1.1*n)
		undefined = append(undefined, T < 64)
		if T < 64 {
			bound = append(bound, math.NaN()) // not drawn: Undefined says why
		} else {
			bound = append(bound, 3/math.Sqrt(T-48))
		}
	}
	panel := plotfig.Panel{
		Title: `$\max_{z \in Z} \|z\|_{V_T^{-1}}$`, XLabel: "$T$", YLabel: "norm", LogX: true, LogY: true,
		Series: []plotfig.Series{
			{Label: `$\max_Z \|z\|_{V_T^{-1}}$ (mean, 95% CI)`, X: x, Y: norm, Lo: lo, Hi: hi, Style: plotfig.Style{Color: plotfig.Black}},
			{Label: `Theorem 1 bound $L/\sqrt{G_T}$`, X: x, Y: bound, Undefined: undefined, Style: plotfig.Style{Color: plotfig.Rose, Dashes: plotfig.Dashed, Marker: plotfig.Triangle}},
		},
		Spans: []plotfig.Span{{X0: 8, X1: 64, Label: "bound undefined ($G_T \\le 0$)"}},
	}
	f := &plotfig.Figure{Rows: 1, Cols: 1, Panels: []plotfig.Panel{panel}, UndefinedLabel: "bound undefined at this T"}
	dir, err := os.MkdirTemp("", "plotfig")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	paths, err := f.Save(filepath.Join(dir, "bound"))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range paths {
		fmt.Println(filepath.Base(p))
	}
	// Output:
	// bound.png
	// bound.svg
	// bound.pdf
}
