package plotfig

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// refDashes are the default patterns of reference lines, by the order in
// which their labels first appear in the figure; no series style uses them.
var refDashes = [][]vg.Length{
	{vg.Points(6), vg.Points(1.5), vg.Points(1), vg.Points(1.5), vg.Points(1), vg.Points(1.5)},
	{vg.Points(0.8), vg.Points(1.2)},
	{vg.Points(10), vg.Points(2), vg.Points(2), vg.Points(2)},
}

// style is how a reference line is drawn: dark grey in pattern i unless it
// sets its own.
func (r RefLine) style(i int) draw.LineStyle {
	col, dash := r.Color, r.Dashes
	if col == (color.RGBA{}) {
		col = color.RGBA{0x33, 0x33, 0x33, 0xff}
	}
	if dash == nil {
		dash = refDashes[i%len(refDashes)]
	}
	return draw.LineStyle{Color: col, Width: vg.Points(1), Dashes: dash}
}

type entryKind int

const (
	entrySeries entryKind = iota
	entryRef
	entrySpan
	entryUndefined
)

// entry is one legend line.
type entry struct {
	kind  entryKind
	label string
	style Style
	band  bool
	ref   RefLine
}

// entries lists the legend of the given panels: series, then reference
// lines, spans and the undefined marker, each label once.
func entries(panels []Panel, undefinedLabel string, tg target) []entry {
	seen := map[string]bool{}
	var out, tail []entry
	undefined := false
	for _, p := range panels {
		for _, s := range p.Series {
			if hasUndefined(s) {
				undefined = true
			}
			if s.Label == "" || seen[s.Label] {
				continue
			}
			seen[s.Label] = true
			out = append(out, entry{kind: entrySeries, label: s.Label, style: s.Style, band: s.Lo != nil && s.Hi != nil})
		}
		for _, r := range p.Refs {
			if r.Label == "" || seen[r.Label] {
				continue
			}
			seen[r.Label] = true
			tail = append(tail, entry{kind: entryRef, label: r.Label, ref: r})
		}
		for _, sp := range p.Spans {
			if sp.Label == "" || seen[sp.Label] {
				continue
			}
			seen[sp.Label] = true
			tail = append(tail, entry{kind: entrySpan, label: sp.Label})
		}
	}
	out = append(out, tail...)
	if undefined {
		if undefinedLabel == "" {
			undefinedLabel = DefaultUndefinedLabel
		}
		out = append(out, entry{kind: entryUndefined, label: undefinedLabel})
	}
	return out
}

const (
	thumbW   = vg.Length(22)
	thumbGap = vg.Length(3)
	colGap   = vg.Length(8)
)

func legendStyle(tg target) text.Style {
	return text.Style{Color: color.Black, Font: font.From(plot.DefaultFont, vg.Points(legendSize)), Handler: tg.handler(), XAlign: draw.XLeft, YAlign: draw.YBottom}
}

func rowHeight(tg target) vg.Length { return vg.Points(legendSize) * 1.45 }

// legendSize returns the size of a legend of es in columns of at most
// perCol entries.
func legendBox(es []entry, perCol int, tg target) (w, h vg.Length) {
	if len(es) == 0 {
		return 0, 0
	}
	sty := legendStyle(tg)
	for c := 0; c*perCol < len(es); c++ {
		var cw vg.Length
		for _, e := range es[c*perCol : min(len(es), (c+1)*perCol)] {
			cw = max(cw, sty.Width(e.label))
		}
		w += thumbW + thumbGap + cw + colGap
	}
	return w - colGap, vg.Length(min(perCol, len(es))) * rowHeight(tg)
}

// drawLegend draws es in columns of perCol entries from the top-left
// corner tl.
func drawLegend(c vg.Canvas, es []entry, perCol int, tl vg.Point, tg target) {
	sty := legendStyle(tg)
	rh := rowHeight(tg)
	x := tl.X
	for col := 0; col*perCol < len(es); col++ {
		var cw vg.Length
		for i, e := range es[col*perCol : min(len(es), (col+1)*perCol)] {
			y := tl.Y - (vg.Length(i)+0.5)*rh
			drawThumb(c, e, vg.Rectangle{Min: vg.Point{X: x, Y: y - rh*0.38}, Max: vg.Point{X: x + thumbW, Y: y + rh*0.38}}, tg)
			// Baseline a third of the font size below the row's middle,
			// whatever scripts the label has.
			size := sty.Font.Size
			asc := sty.Handler.Extents(sty.Font).Ascent
			sty.Handler.Draw(c, e.label, sty, vg.Point{X: x + thumbW + thumbGap, Y: y - 0.33*size + asc - size})
			cw = max(cw, sty.Width(e.label))
		}
		x += thumbW + thumbGap + cw + colGap
	}
}

// drawThumb draws the sample of a legend entry in r.
func drawThumb(c vg.Canvas, e entry, r vg.Rectangle, tg target) {
	midY := (r.Min.Y + r.Max.Y) / 2
	line := func(ls draw.LineStyle) {
		c.SetLineWidth(ls.Width)
		c.SetLineDash(ls.Dashes, 0)
		c.SetColor(ls.Color)
		var p vg.Path
		p.Move(vg.Point{X: r.Min.X, Y: midY})
		p.Line(vg.Point{X: r.Max.X, Y: midY})
		c.Stroke(p)
	}
	switch e.kind {
	case entrySeries:
		if e.band {
			var p vg.Path
			p.Move(r.Min)
			p.Line(vg.Point{X: r.Max.X, Y: r.Min.Y})
			p.Line(r.Max)
			p.Line(vg.Point{X: r.Min.X, Y: r.Max.Y})
			p.Close()
			c.SetColor(bandColor(e.style.Color, tg))
			c.Fill(p)
		}
		line(e.style.line())
		drawMarker(c, e.style.Marker, e.style.Color, vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: midY}, markerRadius)
	case entryRef:
		line(e.ref.style(tg.refAt[e.label]))
	case entrySpan:
		hatch(c, r)
	case entryUndefined:
		// A piece of the strip with a cross.
		var p vg.Path
		p.Move(r.Min)
		p.Line(vg.Point{X: r.Max.X, Y: r.Min.Y})
		p.Line(r.Max)
		p.Line(vg.Point{X: r.Min.X, Y: r.Max.Y})
		p.Close()
		c.SetColor(stripFill)
		c.Fill(p)
		c.SetColor(stripFrame)
		c.SetLineWidth(vg.Points(0.5))
		c.SetLineDash(nil, 0)
		c.Stroke(p)
		drawMarker(c, Cross, stripText, vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: midY}, markerRadius*0.75)
	}
}

// numberRefs fills tg.refAt.
func (f *Figure) numberRefs(tg *target) {
	tg.refAt = map[string]int{}
	for _, p := range f.Panels {
		for _, r := range p.Refs {
			if _, ok := tg.refAt[r.Label]; !ok {
				tg.refAt[r.Label] = len(tg.refAt)
			}
		}
	}
}
