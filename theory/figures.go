package theory

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot/vg"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments/sweep"
	"github.com/neural-adb/nadb/internal/plotfig"
)

// Fixed styles of the theory figures (Okabe–Ito colours).
var (
	colEmpirical = color.RGBA{0x00, 0x00, 0x00, 0xff}
	colBall      = color.RGBA{0x66, 0x66, 0x66, 0xff}
	claimStyle   = [numClaims]plotfig.Style{
		Literal:              {Color: color.RGBA{0xD5, 0x5E, 0x00, 0xff}, Marker: plotfig.Circle},
		LiteralRealisedC:     {Color: color.RGBA{0xE6, 0x9F, 0x00, 0xff}, Dashes: []vg.Length{vg.Points(1), vg.Points(1.5)}, Marker: plotfig.Triangle},
		LiteralScalar:        {Color: color.RGBA{0xCC, 0x79, 0xA7, 0xff}, Dashes: []vg.Length{vg.Points(4), vg.Points(2)}, Marker: plotfig.Square},
		LiteralUnconditional: {Color: color.RGBA{0x56, 0xB4, 0xE9, 0xff}, Dashes: []vg.Length{vg.Points(2), vg.Points(2)}, Marker: plotfig.Diamond},
		Repaired:             {Color: color.RGBA{0x00, 0x9E, 0x73, 0xff}, Dashes: []vg.Length{vg.Points(4), vg.Points(1.5), vg.Points(1), vg.Points(1.5)}, Width: vg.Points(1.4), Marker: plotfig.OpenTriangleDown},
	}
	generatorColors = []color.RGBA{
		{0x00, 0x72, 0xB2, 0xff}, {0x56, 0xB4, 0xE9, 0xff}, {0x00, 0x9E, 0x73, 0xff}, {0xE6, 0x9F, 0x00, 0xff},
		{0xD5, 0x5E, 0x00, 0xff}, {0xCC, 0x79, 0xA7, 0xff}, {0x66, 0x66, 0x66, 0xff}, {0x00, 0x00, 0x00, 0xff},
	}
	generatorDashes = [][]vg.Length{nil, {vg.Points(4), vg.Points(2)}}
	// generatorMarkers are the generators' markers, by position, so that
	// curves that coincide (every generator at frequency 1) stay apart.
	generatorMarkers = plotfig.Markers()
)

// undefinedLabel is the legend text of the crosses where a bound does not
// exist.
const undefinedLabel = "bound undefined at this $T$ ($G_T^2 \\le 0$): a cross in the strip under the panel"

// claimTitle names a claim for a reader of the figures (the CSVs keep
// Claim.String), in plotfig's $…$ markup.
var claimTitle = [numClaims]string{
	Literal:              `as stated, the generator's $\Sigma_{\max}$`,
	LiteralRealisedC:     `as stated, realised $C_s = \|z_s\|^4$`,
	LiteralScalar:        `as stated, $\Sigma_{\max} = L^2 I$`,
	LiteralUnconditional: `as stated, $\Sigma_s$ read unconditionally`,
	Repaired:             `repaired statement ($\Sigma_{\min}$)`,
}

// claimLabel is the legend label of a claim's bound.
func claimLabel(c Claim) string {
	if c == Repaired {
		return `repaired bound $L/G'_T$ ($\Sigma_{\min}$)`
	}
	return "Theorem 1 bound $L/G_T$, " + claimTitle[c]
}

// GeneratorTitle names a generator of the checks (Generator.Name, as the
// CSVs write it) for a reader of the figures: what the sequence does, in
// plotfig's $…$ markup. Unknown names are returned unchanged.
func GeneratorTitle(name string) string {
	switch name {
	case "iid-isotropic":
		return "i.i.d., uniform on the sphere"
	case "iid-anisotropic":
		return "i.i.d., on an ellipsoid"
	case "greedy":
		return "greedy: the most uncertain candidate"
	case "eps-greedy":
		return `$\varepsilon$-greedy: a random point or greedy`
	case "spike-then-constant":
		return "one spike, then constant (never 0)"
	case "spike-then-uniform":
		return "one spike, then i.i.d. uniform"
	}
	var k int
	if _, err := fmt.Sscanf(name, "adversarial-subspace-k%d", &k); err == nil {
		switch k {
		case 0:
			return "adversarial: each axis once, then 0"
		case 1:
			return "adversarial: each axis once, then $e_1$ only"
		}
		return fmt.Sprintf("adversarial: each axis once, then cycling %d axes", k)
	}
	if _, err := fmt.Sscanf(name, "adversarial-random-k%d", &k); err == nil {
		return fmt.Sprintf("adversarial: each axis once, then one of %d axes at random", k)
	}
	if slices.Contains(algorithms.Names(), name) {
		return sweep.DisplayName(name) + ": the pairs it queries"
	}
	return name
}

type namedFigure struct {
	name string
	fig  *plotfig.Figure
}

// figures returns the theory figures in a fixed order.
func (r *Results) figures() []namedFigure {
	var out []namedFigure
	if reps := r.reports(); len(reps) > 0 {
		out = append(out, namedFigure{"theorem1_bounds", boundsFigure(reps)}, namedFigure{"theorem1_violations", violationsFigure(reps)})
	}
	if r.Paper != nil {
		out = append(out, namedFigure{"effective_dimension", paperFigure(r.Paper)})
	}
	return out
}

func nanIfUndefined(b Bound) float64 {
	if !b.Defined {
		return math.NaN()
	}
	return b.Value
}

// boundsFigure: one log–log panel per generator with the measured maximum
// norm (mean and CI band), the maximum over the ball, and every claim's bound
// (a cross where it is undefined).
func boundsFigure(reps []*Theorem1Report) *plotfig.Figure {
	var panels []plotfig.Panel
	for _, rep := range reps {
		for _, g := range rep.Generators {
			var x, y, lo, hi, ball []float64
			bounds := make([][]float64, numClaims)
			undefined := make([][]bool, numClaims)
			for _, p := range rep.Points {
				if p.Generator != g.Name {
					continue
				}
				x = append(x, float64(p.T))
				y = append(y, p.MaxNorm)
				lo = append(lo, p.MaxNorm-p.MaxNormHalf)
				hi = append(hi, p.MaxNorm+p.MaxNormHalf)
				ball = append(ball, p.MaxNormBall)
				for _, c := range Claims {
					bounds[c] = append(bounds[c], nanIfUndefined(p.Claims[c].Bound))
					undefined[c] = append(undefined[c], !p.Claims[c].Bound.Defined)
				}
			}
			series := []plotfig.Series{
				{Label: `$\max_Z \|z\|_{V_T^{-1}}$ (mean, 95% CI)`, X: x, Y: y, Lo: lo, Hi: hi, Style: plotfig.Style{Color: colEmpirical}},
				{Label: `max over the ball, $L/\sqrt{\lambda_{\min}(V_T)}$`, X: x, Y: ball, Style: plotfig.Style{Color: colBall, Dashes: []vg.Length{vg.Points(2), vg.Points(2)}, Width: vg.Points(0.8)}},
			}
			for _, c := range []Claim{Literal, LiteralScalar, Repaired} {
				series = append(series, plotfig.Series{Label: claimLabel(c), X: x, Y: bounds[c], Undefined: undefined[c], Style: claimStyle[c]})
			}
			panels = append(panels, plotfig.Panel{Title: fmt.Sprintf("%s ($d = %d$)", GeneratorTitle(g.Name), g.Dim), XLabel: "$T$", YLabel: "norm", LogX: true, LogY: true, Series: series})
		}
	}
	return printed(panels)
}

// printed lays panels out three to a row at the width of a printed page
// (plotfig.TextWidth), the legend below.
func printed(panels []plotfig.Panel) *plotfig.Figure {
	cols := min(3, len(panels))
	return &plotfig.Figure{Rows: (len(panels) + cols - 1) / cols, Cols: cols, Panels: panels, Width: plotfig.TextWidth, Legend: plotfig.LegendBelow, UndefinedLabel: undefinedLabel}
}

// violationsFigure: one panel per claim, violation frequency against T for
// every generator (a cross where no seed's bound is defined, so that an
// undefined bound does not read as a bound that holds), with δ.
func violationsFigure(reps []*Theorem1Report) *plotfig.Figure {
	var panels []plotfig.Panel
	delta := reps[0].Options.Delta
	for _, c := range Claims {
		var series []plotfig.Series
		k := 0
		for _, rep := range reps {
			for _, g := range rep.Generators {
				var x, y []float64
				var undefined []bool
				for _, p := range rep.Points {
					if p.Generator != g.Name {
						continue
					}
					x = append(x, float64(p.T))
					if p.Claims[c].Defined == 0 {
						y = append(y, math.NaN())
						undefined = append(undefined, true)
						continue
					}
					y = append(y, p.Claims[c].Freq)
					undefined = append(undefined, false)
				}
				st := plotfig.Style{
					Color:  generatorColors[k%len(generatorColors)],
					Dashes: generatorDashes[(k/len(generatorColors))%len(generatorDashes)],
					Marker: generatorMarkers[k%len(generatorMarkers)],
				}
				series = append(series, plotfig.Series{Label: GeneratorTitle(g.Name), X: x, Y: y, Undefined: undefined, Style: st})
				k++
			}
		}
		panels = append(panels, plotfig.Panel{
			Title: "Theorem 1 " + claimTitle[c], XLabel: "$T$", YLabel: "violation frequency", LogX: true, Series: series,
			Refs:     []plotfig.RefLine{{Y: delta, Label: fmt.Sprintf("$\\delta = %g$", delta)}},
			YInclude: []float64{0, 1},
		})
	}
	// Every generator has a row in the strips of undefined bounds: taller
	// panels keep the data the larger part of the figure.
	f := printed(panels)
	f.RowHeight = 2.3 * vg.Inch
	return f
}

// Log-axis panels keep short y labels: gonum/plot centres the rotated label
// at the arithmetic midpoint of the data, which on a log axis sits near the
// top, and pads the panel for a long label (misaligning the grid).

// paperFigure: d̃ against T with its bounds, the finite-Z norm against the
// literal bound, and the rate √(d̃/T).
func paperFigure(p *PaperScaleReport) *plotfig.Figure {
	var dt, norm, rate []plotfig.Series
	var bx, brief, pairs, lit []float64
	var litUndefined []bool
	for _, alg := range p.Options.Algorithms {
		var x, y, lo, hi, ny, nlo, nhi, ry []float64
		for _, pt := range p.Points {
			if pt.Algorithm != alg {
				continue
			}
			x = append(x, float64(pt.T))
			y = append(y, pt.DTilde)
			lo = append(lo, pt.DTilde-pt.DTildeHalf)
			hi = append(hi, pt.DTilde+pt.DTildeHalf)
			ny = append(ny, pt.MaxNorm)
			nlo = append(nlo, pt.MaxNorm-pt.MaxNormHalf)
			nhi = append(nhi, pt.MaxNorm+pt.MaxNormHalf)
			ry = append(ry, math.Sqrt(pt.DTilde/float64(pt.T)))
			if alg == p.Options.Algorithms[0] {
				bx = append(bx, float64(pt.T))
				brief = append(brief, pt.BriefBound)
				pairs = append(pairs, pt.PairsBound)
				lit = append(lit, nanIfUndefined(pt.Literal))
				litUndefined = append(litUndefined, !pt.Literal.Defined)
			}
		}
		st, label := sweep.StyleFor(alg), sweep.DisplayName(alg)
		dt = append(dt, plotfig.Series{Label: label, X: x, Y: y, Lo: lo, Hi: hi, Style: st})
		norm = append(norm, plotfig.Series{Label: label, X: x, Y: ny, Lo: nlo, Hi: nhi, Style: st})
		rate = append(rate, plotfig.Series{Label: label, X: x, Y: ry, Style: st})
	}
	grey := plotfig.Style{Color: colBall, Dashes: []vg.Length{vg.Points(4), vg.Points(2)}}
	dt = append(dt,
		plotfig.Series{Label: `$p \log(1 + T L^2 \kappa/(\lambda p))$`, X: bx, Y: brief, Style: grey},
		plotfig.Series{Label: `same with $T K(K-1)/2$ pairs`, X: bx, Y: pairs, Style: plotfig.Style{Color: colBall, Dashes: []vg.Length{vg.Points(1), vg.Points(1.5)}}})
	norm = append(norm, plotfig.Series{Label: claimLabel(LiteralScalar), X: bx, Y: lit, Undefined: litUndefined, Style: claimStyle[LiteralScalar]})
	return printed([]plotfig.Panel{
		{Title: fmt.Sprintf("effective dimension $\\tilde{d}$ ($p = %d$)", p.P), XLabel: "$T$", YLabel: `$\tilde{d}$`, LogX: true, LogY: true, Series: dt},
		{Title: `$\max_Z \|z\|_{V_T^{-1}}$, $Z$ = pool pairs`, XLabel: "$T$", YLabel: "norm", LogX: true, LogY: true, Series: norm},
		{Title: "rate of Theorems 2-3", XLabel: "$T$", YLabel: `$\sqrt{\tilde{d}/T}$`, LogX: true, Series: rate},
	})
}
