package plotfig

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Font sizes in points: every text of a figure is at least MinFontSize
// (tick labels, legends, the strip's label), so that a figure printed at
// its natural size reads beside 10-pt body text.
const (
	fontSize   = 8
	titleSize  = 9
	legendSize = 7
	tickSize   = 7
	// MinFontSize is the smallest size of any text a figure sets (scripts
	// in mathematics aside, which are 70% of their text).
	MinFontSize = 7
)

// target is what a figure is drawn for: PDF needs opaque colours and
// mathematics as outlines.
type target struct {
	opaque  bool
	outline bool
	// refAt numbers the reference-line labels of the figure in order of
	// first appearance: a label keeps its default pattern in every panel.
	refAt map[string]int
}

func (t target) handler() text.Handler {
	return mathText{Fonts: font.DefaultCache, Outline: t.outline}
}

func keep(x, y float64, logX, logY bool) bool {
	if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return false
	}
	return !(logX && x <= 0) && !(logY && y <= 0)
}

// build makes the gonum plot of a panel.
func (p Panel) build(tg target) *plot.Plot {
	pl := plot.New()
	pl.BackgroundColor = nil // the figure paints the page once
	h := tg.handler()
	pl.Title.Text = p.Title
	pl.Title.TextStyle.Font.Size = vg.Points(titleSize)
	pl.Title.TextStyle.Handler = h
	pl.X.Label.Text = p.XLabel
	pl.Y.Label.Text = p.YLabel
	for _, ax := range []*plot.Axis{&pl.X, &pl.Y} {
		ax.Label.TextStyle.Font.Size = vg.Points(fontSize)
		ax.Label.TextStyle.Handler = h
		ax.Tick.Label.Font.Size = vg.Points(tickSize)
		ax.Tick.Label.Handler = h
	}
	pl.X.Tick.Marker = niceTicks{Integer: p.IntX}
	pl.Y.Tick.Marker = niceTicks{Integer: p.IntY}
	if p.LogX {
		pl.X.Scale = plot.LogScale{}
		pl.X.Tick.Marker = logTicks{}
	}
	if p.LogY {
		pl.Y.Scale = plot.LogScale{}
		pl.Y.Tick.Marker = logTicks{}
	}
	pl.Add(plotter.NewGrid())
	for _, sp := range p.Spans {
		pl.Add(spanPlotter{sp, tg})
	}
	for _, s := range p.Series {
		if s.Lo != nil && s.Hi != nil {
			pl.Add(bandPlotter{s: s, logX: p.LogX, logY: p.LogY, tg: tg})
		}
	}
	for _, r := range p.Refs {
		pl.Add(refPlotter{r, tg.refAt[r.Label], p.LogY})
	}
	for i, s := range p.Series {
		pl.Add(&seriesPlotter{s: s, logX: p.LogX, logY: p.LogY, phase: (float64(i) + 0.5) / float64(len(p.Series))})
	}
	if p.XMax > p.XMin {
		pl.X.Min, pl.X.Max = p.XMin, p.XMax
	}
	for _, v := range p.YInclude {
		if math.IsNaN(v) || math.IsInf(v, 0) || (p.LogY && v <= 0) {
			continue
		}
		pl.Y.Min, pl.Y.Max = math.Min(pl.Y.Min, v), math.Max(pl.Y.Max, v)
	}
	if p.YMax > p.YMin {
		pl.Y.Min, pl.Y.Max = p.YMin, p.YMax
	} else if !p.LogY {
		roundOut(&pl.Y, p.IntY)
	}
	return pl
}

// roundOut extends a linear axis' range to the labelled ticks just outside
// it where that adds at most a tenth of the span at either end, so that an
// axis whose data reach 1.99 ends at a labelled 2, and fixes the axis'
// ticks to that step (the rounded range might otherwise get another one).
func roundOut(ax *plot.Axis, integer bool) {
	lo, hi := ax.Min, ax.Max
	step, minors := niceStep(lo, hi, integer)
	if !(step > 0) {
		return
	}
	span := hi - lo
	if l := math.Floor(lo/step+1e-9) * step; lo-l <= 0.1*span {
		lo = l
	}
	if h := math.Ceil(hi/step-1e-9) * step; h-hi <= 0.1*span {
		hi = h
	}
	ax.Min, ax.Max = lo, hi
	ax.Tick.Marker = niceTicks{Integer: integer, step: step, minors: minors}
}

// seriesPlotter draws a series' mean line (broken where points are
// missing or undefined) and its markers, staggered by phase so that
// coinciding curves show each other's. Undefined points are drawn in the
// strip under the panel (strip.go), outside the data area.
type seriesPlotter struct {
	s          Series
	logX, logY bool
	phase      float64
}

// markersPerSeries is how many markers a series carries along its line.
const markersPerSeries = 6

func (sp *seriesPlotter) Plot(c draw.Canvas, pl *plot.Plot) {
	tx, ty := pl.Transforms(&c)
	s := sp.s
	var segs [][]vg.Point
	var cur []vg.Point
	for i := range s.X {
		undef := i < len(s.Undefined) && s.Undefined[i]
		if undef || !keep(s.X[i], s.Y[i], sp.logX, sp.logY) {
			if len(cur) > 0 {
				segs = append(segs, cur)
				cur = nil
			}
			continue
		}
		cur = append(cur, vg.Point{X: tx(s.X[i]), Y: ty(s.Y[i])})
	}
	if len(cur) > 0 {
		segs = append(segs, cur)
	}
	ls := s.Style.line()
	for _, seg := range segs {
		if len(seg) == 1 {
			continue // a lone point: its marker shows it
		}
		c.StrokeLines(ls, c.ClipLinesXY(seg)...)
	}
	// Markers at evenly spaced x positions along the drawn line.
	if s.Style.Marker != NoMarker && len(segs) > 0 {
		x0, x1 := c.Min.X, c.Max.X
		for k := range markersPerSeries {
			x := x0 + (x1-x0)*vg.Length((float64(k)+sp.phase)/markersPerSeries)
			if pt, ok := pointAt(segs, x); ok && c.Contains(pt) {
				drawMarker(c.Canvas, s.Style.Marker, s.Style.Color, pt, markerRadius)
			}
		}
		for _, seg := range segs {
			if len(seg) == 1 && c.Contains(seg[0]) {
				drawMarker(c.Canvas, s.Style.Marker, s.Style.Color, seg[0], markerRadius)
			}
		}
	}
}

// GlyphBoxes implements plot.GlyphBoxer: the markers of a series reach
// the data's highest and lowest points, so the data area keeps a marker's
// half-height free above and below them (under the title, above the x
// axis). The boxes have no width: the x range stays flush with the axes.
func (sp *seriesPlotter) GlyphBoxes(pl *plot.Plot) []plot.GlyphBox {
	s := sp.s
	if s.Style.Marker == NoMarker {
		return nil
	}
	r := markerRadius * 1.45
	var out []plot.GlyphBox
	for i := range s.X {
		if (i < len(s.Undefined) && s.Undefined[i]) || !keep(s.X[i], s.Y[i], sp.logX, sp.logY) {
			continue
		}
		out = append(out, plot.GlyphBox{X: pl.X.Norm(s.X[i]), Y: pl.Y.Norm(s.Y[i]), Rectangle: vg.Rectangle{Min: vg.Point{Y: -r}, Max: vg.Point{Y: r}}})
	}
	return out
}

// pointAt interpolates the polyline segs at canvas abscissa x.
func pointAt(segs [][]vg.Point, x vg.Length) (vg.Point, bool) {
	for _, seg := range segs {
		for i := 1; i < len(seg); i++ {
			a, b := seg[i-1], seg[i]
			if (x >= a.X && x <= b.X) || (x >= b.X && x <= a.X) {
				if b.X == a.X {
					return a, true
				}
				f := (x - a.X) / (b.X - a.X)
				return vg.Point{X: x, Y: a.Y + f*(b.Y-a.Y)}, true
			}
		}
	}
	return vg.Point{}, false
}

func (sp *seriesPlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	s := sp.s
	for i := range s.X {
		if i < len(s.Undefined) && s.Undefined[i] {
			if !math.IsNaN(s.X[i]) && !(sp.logX && s.X[i] <= 0) {
				xmin, xmax = math.Min(xmin, s.X[i]), math.Max(xmax, s.X[i])
			}
			continue
		}
		if keep(s.X[i], s.Y[i], sp.logX, sp.logY) {
			xmin, xmax = math.Min(xmin, s.X[i]), math.Max(xmax, s.X[i])
			ymin, ymax = math.Min(ymin, s.Y[i]), math.Max(ymax, s.Y[i])
		}
	}
	return
}

// bandPlotter fills a series' interval [Lo, Hi]: a closed polygon through
// the lower envelope and back along the upper one, in pieces where points
// are missing.
type bandPlotter struct {
	s          Series
	logX, logY bool
	tg         target
}

func (bp bandPlotter) ok(i int) bool {
	s := bp.s
	if i < len(s.Undefined) && s.Undefined[i] {
		return false
	}
	return keep(s.X[i], s.Lo[i], bp.logX, bp.logY) && keep(s.X[i], s.Hi[i], bp.logX, bp.logY)
}

func (bp bandPlotter) Plot(c draw.Canvas, pl *plot.Plot) {
	tx, ty := pl.Transforms(&c)
	s := bp.s
	col := bandColor(s.Style.Color, bp.tg)
	for i := 0; i < len(s.X); {
		if !bp.ok(i) {
			i++
			continue
		}
		j := i
		for j < len(s.X) && bp.ok(j) {
			j++
		}
		if j-i >= 2 {
			var ring []vg.Point
			for k := i; k < j; k++ {
				ring = append(ring, vg.Point{X: tx(s.X[k]), Y: ty(s.Lo[k])})
			}
			for k := j - 1; k >= i; k-- {
				ring = append(ring, vg.Point{X: tx(s.X[k]), Y: ty(s.Hi[k])})
			}
			c.FillPolygon(col, c.ClipPolygonXY(ring))
		}
		i = j
	}
}

func (bp bandPlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for i := range bp.s.X {
		if bp.ok(i) {
			xmin, xmax = math.Min(xmin, bp.s.X[i]), math.Max(xmax, bp.s.X[i])
			ymin, ymax = math.Min(ymin, bp.s.Lo[i]), math.Max(ymax, bp.s.Hi[i])
		}
	}
	return
}

func bandColor(c color.RGBA, tg target) color.Color {
	if tg.opaque {
		return mixWhite(c, 0.2)
	}
	return color.NRGBA{c.R, c.G, c.B, 0x38}
}
