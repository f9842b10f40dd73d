package plotfig

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Undefined points (Series.Undefined, such as a bound whose radicand is not
// positive) have no value to plot. They are marked in a strip under the
// panel, below its x axis and the axis' label, outside the plotted range:
// one row per series with undefined points, a cross in the series' colour
// at every undefined x, and the word "undefined" in the strip's part under
// the y axis. Inside
// the axes a cross would read as a value below the axis' minimum.
const (
	// stripRow is the height of one row of crosses.
	stripRow = vg.Length(4)
	// stripGap separates the strip from the x axis' label above it, and
	// stripPad pads the rows inside the strip.
	stripGap = vg.Length(4)
	stripPad = vg.Length(1.5)
	// StripLabel is the word at the left of every strip.
	StripLabel = "undefined"
)

var (
	stripFill  = color.RGBA{0xF4, 0xF4, 0xF4, 0xff}
	stripFrame = color.RGBA{0xBB, 0xBB, 0xBB, 0xff}
	stripText  = color.RGBA{0x44, 0x44, 0x44, 0xff}
)

// undefinedSeries counts the series of the panel with undefined points.
func (p Panel) undefinedSeries() int {
	n := 0
	for _, s := range p.Series {
		if hasUndefined(s) {
			n++
		}
	}
	return n
}

func hasUndefined(s Series) bool {
	for _, u := range s.Undefined {
		if u {
			return true
		}
	}
	return false
}

// stripHeight is the height reserved under every panel of row r for the
// strip of undefined points (0 when no panel of the row has any), the
// same for the whole row so that the row's data areas stay aligned.
func (f *Figure) stripHeight(r int) vg.Length {
	n := 0
	for c := range f.Cols {
		if k := r*f.Cols + c; k < len(f.Panels) {
			n = max(n, f.Panels[k].undefinedSeries())
		}
	}
	if n == 0 {
		return 0
	}
	return stripGap + 2*stripPad + vg.Length(n)*stripRow
}

// stripsHeight is the height of every row's strip.
func (f *Figure) stripsHeight() vg.Length {
	var h vg.Length
	for r := range f.Rows {
		h += f.stripHeight(r)
	}
	return h
}

// roomForStripLabel widens the y axis of pl, if need be, so that the
// strip's label fits under it.
func roomForStripLabel(pl *plot.Plot, tg target) {
	probe := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: 1000, Y: 1000}}}
	have := pl.DataCanvas(probe).Min.X - probe.Min.X
	if need := legendStyle(tg).Width(StripLabel) + vg.Points(5); have < need {
		pl.Y.Label.Padding += need - have
	}
}

// drawStrip draws the strip of panel p, whose plot pl was drawn in above
// (its tile cell shortened by h), in the bottom h of cell.
func drawStrip(cell, above draw.Canvas, pl *plot.Plot, p Panel, h vg.Length, tg target) {
	n := p.undefinedSeries()
	if n == 0 {
		return
	}
	dc := pl.DataCanvas(above)
	tx, _ := pl.Transforms(&dc)
	// The strip runs under the whole panel: its part under the y axis holds
	// the label, its part under the data area the crosses.
	box := vg.Rectangle{
		Min: vg.Point{X: cell.Min.X, Y: cell.Min.Y + h - stripGap - 2*stripPad - vg.Length(n)*stripRow},
		Max: vg.Point{X: dc.Max.X, Y: cell.Min.Y + h - stripGap},
	}
	rect := func(r vg.Rectangle) vg.Path {
		var p vg.Path
		p.Move(r.Min)
		p.Line(vg.Point{X: r.Max.X, Y: r.Min.Y})
		p.Line(r.Max)
		p.Line(vg.Point{X: r.Min.X, Y: r.Max.Y})
		p.Close()
		return p
	}
	cell.SetColor(stripFill)
	cell.Fill(rect(box))
	cell.SetColor(stripFrame)
	cell.SetLineWidth(vg.Points(0.5))
	cell.SetLineDash(nil, 0)
	cell.Stroke(rect(box))
	var sep vg.Path
	sep.Move(vg.Point{X: dc.Min.X, Y: box.Min.Y})
	sep.Line(vg.Point{X: dc.Min.X, Y: box.Max.Y})
	cell.Stroke(sep)
	sty := legendStyle(tg)
	sty.Color = stripText
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	cell.FillText(sty, vg.Point{X: box.Min.X + vg.Points(2), Y: (box.Min.Y + box.Max.Y) / 2}, StripLabel)
	row := 0
	for _, s := range p.Series {
		if !hasUndefined(s) {
			continue
		}
		y := box.Max.Y - stripPad - (vg.Length(row)+0.5)*stripRow
		for i, u := range s.Undefined {
			if !u || math.IsNaN(s.X[i]) || math.IsInf(s.X[i], 0) || (p.LogX && s.X[i] <= 0) {
				continue
			}
			if x := tx(s.X[i]); dc.ContainsX(x) {
				drawMarker(cell.Canvas, Cross, s.Style.Color, vg.Point{X: x, Y: y}, markerRadius*0.7)
			}
		}
		row++
	}
}
