package plotfig

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// refPlotter draws a horizontal reference line across the data area.
type refPlotter struct {
	r    RefLine
	i    int // the label's number (target.refAt)
	logY bool
}

func (rp refPlotter) Plot(c draw.Canvas, pl *plot.Plot) {
	if rp.logY && rp.r.Y <= 0 {
		return
	}
	_, ty := pl.Transforms(&c)
	y := ty(rp.r.Y)
	if !c.ContainsY(y) {
		return
	}
	c.StrokeLine2(rp.r.style(rp.i), c.Min.X, y, c.Max.X, y)
}

func (rp refPlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	if rp.logY && rp.r.Y <= 0 {
		return math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	}
	return math.Inf(1), math.Inf(-1), rp.r.Y, rp.r.Y
}

// spanPlotter hatches the x range of a Span over the whole data area.
type spanPlotter struct {
	sp Span
	tg target
}

func (sp spanPlotter) Plot(c draw.Canvas, pl *plot.Plot) {
	tx, _ := pl.Transforms(&c)
	x0, x1 := max(tx(sp.sp.X0), c.Min.X), min(tx(sp.sp.X1), c.Max.X)
	if !(x1 > x0) {
		return
	}
	hatch(c.Canvas, vg.Rectangle{Min: vg.Point{X: x0, Y: c.Min.Y}, Max: vg.Point{X: x1, Y: c.Max.Y}})
}

func (sp spanPlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	return sp.sp.X0, sp.sp.X1, math.Inf(1), math.Inf(-1)
}

// spanFill and spanHatch are the colours of a Span: an opaque light grey
// (so PDF and PNG agree) crossed by darker diagonal lines.
var (
	spanFill  = color.RGBA{0xEE, 0xEE, 0xEE, 0xff}
	spanHatch = color.RGBA{0xAA, 0xAA, 0xAA, 0xff}
)

// hatch fills r with light grey and 45° lines every 4 pt.
func hatch(c vg.Canvas, r vg.Rectangle) {
	var box vg.Path
	box.Move(r.Min)
	box.Line(vg.Point{X: r.Max.X, Y: r.Min.Y})
	box.Line(r.Max)
	box.Line(vg.Point{X: r.Min.X, Y: r.Max.Y})
	box.Close()
	c.SetColor(spanFill)
	c.Fill(box)
	c.SetColor(spanHatch)
	c.SetLineWidth(vg.Points(0.5))
	c.SetLineDash(nil, 0)
	w, h := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y
	const gap = vg.Length(4)
	// Lines x − y = k: clip each to the rectangle.
	for k := -h; k < w; k += gap {
		ax, ay := k, vg.Length(0)
		if ax < 0 {
			ax, ay = 0, -k
		}
		bx, by := k+h, h
		if bx > w {
			bx, by = w, w-k
		}
		if ay > h || by < 0 {
			continue
		}
		var p vg.Path
		p.Move(vg.Point{X: r.Min.X + ax, Y: r.Min.Y + ay})
		p.Line(vg.Point{X: r.Min.X + bx, Y: r.Min.Y + by})
		c.Stroke(p)
	}
}
