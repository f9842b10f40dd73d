package plotfig

import (
	"image/color"
	"math"

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
			undefinedLabel = "undefined at this x (cross in the curve's colour)"
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
		drawMarker(c, Cross, color.RGBA{0x44, 0x44, 0x44, 0xff}, vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: midY}, markerRadius*0.8)
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

// rowsOf returns the panels of each row.
func (f *Figure) rowsOf() [][]Panel {
	rows := make([][]Panel, f.Rows)
	for i, p := range f.Panels {
		rows[i/f.Cols] = append(rows[i/f.Cols], p)
	}
	return rows
}

// legendLayout returns the legend entries of each legend block (one, or
// one per row) with its columns' length and size, and the margins the
// legends take right of and below the grid.
type legendLayout struct {
	blocks       [][]entry
	perCol       []int
	right, below vg.Length
}

const titleH = vg.Length(16)

func (f *Figure) legendLayout(tg target) legendLayout {
	var ll legendLayout
	rowH := f.rowHeight()
	switch f.Legend {
	case LegendRight:
		es := entries(f.Panels, f.UndefinedLabel, tg)
		fit := max(1, int(math.Floor(float64((vg.Length(f.Rows)*rowH-vg.Points(12))/rowHeight(tg)))))
		w, _ := legendBox(es, fit, tg)
		ll.blocks, ll.perCol = [][]entry{es}, []int{fit}
		if len(es) > 0 {
			ll.right = w + vg.Points(10)
		}
	case LegendBelow:
		es := entries(f.Panels, f.UndefinedLabel, tg)
		width := f.gridWidth()
		per := 1
		for ; per < len(es); per++ {
			if w, _ := legendBox(es, per, tg); w <= width {
				break
			}
		}
		_, h := legendBox(es, per, tg)
		ll.blocks, ll.perCol = [][]entry{es}, []int{per}
		if len(es) > 0 {
			ll.below = h + vg.Points(8)
		}
	case LegendPerRow:
		fit := max(1, int(math.Floor(float64((rowH-vg.Points(10))/rowHeight(tg)))))
		for r, ps := range f.rowsOf() {
			es := entries(ps, f.UndefinedLabel, tg)
			per := fit
			h := f.rowTitle(r)
			if h != "" {
				per = max(1, fit-1)
			}
			w, _ := legendBox(es, per, tg)
			if h != "" {
				w = max(w, legendStyle(tg).Width(h))
			}
			ll.blocks = append(ll.blocks, es)
			ll.perCol = append(ll.perCol, per)
			if len(es) > 0 {
				ll.right = max(ll.right, w+vg.Points(10))
			}
		}
	}
	return ll
}

func (f *Figure) rowTitle(r int) string {
	if r < len(f.RowTitles) {
		return f.RowTitles[r]
	}
	return ""
}

func (f *Figure) rowHeight() vg.Length {
	if f.Height > 0 {
		return (f.Height - f.titleHeight()) / vg.Length(f.Rows)
	}
	return 1.8 * vg.Inch
}

func (f *Figure) gridWidth() vg.Length {
	if f.Width > 0 && f.Legend != LegendRight && f.Legend != LegendPerRow {
		return f.Width
	}
	return vg.Length(f.Cols) * 2.3 * vg.Inch
}

func (f *Figure) titleHeight() vg.Length {
	if f.Title == "" {
		return 0
	}
	return titleH
}

// size returns the page size.
func (f *Figure) size(tg target) (vg.Length, vg.Length) {
	ll := f.legendLayout(tg)
	w, h := f.Width, f.Height
	if w == 0 {
		w = vg.Length(f.Cols)*2.3*vg.Inch + ll.right
	}
	if h == 0 {
		h = vg.Length(f.Rows)*1.8*vg.Inch + f.titleHeight() + ll.below
	}
	return w, h
}

// draw renders the figure on a page of the given size.
func (f *Figure) draw(vc vg.CanvasSizer, width, height vg.Length, tg target) {
	c := draw.New(vc)
	page := c.Rectangle
	// Paint the page once, then the watermark under everything else.
	var bg vg.Path
	bg.Move(page.Min)
	bg.Line(vg.Point{X: page.Max.X, Y: page.Min.Y})
	bg.Line(page.Max)
	bg.Line(vg.Point{X: page.Min.X, Y: page.Max.Y})
	bg.Close()
	c.SetColor(color.White)
	c.Fill(bg)
	if f.Watermark != "" {
		sty := text.Style{Color: color.RGBA{0xF7, 0xD9, 0xD9, 0xff}, Font: font.From(plot.DefaultFont, vg.Points(40)), Rotation: math.Atan2(float64(height), float64(width)) * 0.6, XAlign: draw.XCenter, YAlign: draw.YCenter, Handler: tg.handler()}
		c.FillText(sty, c.Center(), f.Watermark)
	}
	ll := f.legendLayout(tg)
	area := c
	area.Max.X -= ll.right
	area.Min.Y += ll.below
	if f.Title != "" {
		sty := text.Style{Color: color.RGBA{0xB0, 0x00, 0x20, 0xff}, Font: font.From(plot.DefaultFont, vg.Points(titleSize)), XAlign: draw.XCenter, YAlign: draw.YTop, Handler: tg.handler()}
		c.FillText(sty, vg.Point{X: (area.Min.X + area.Max.X) / 2, Y: page.Max.Y - vg.Points(3)}, f.Title)
		area.Max.Y -= titleH
	}
	grid := make([][]*plot.Plot, f.Rows)
	for r := range grid {
		grid[r] = make([]*plot.Plot, f.Cols)
		for col := range grid[r] {
			if k := r*f.Cols + col; k < len(f.Panels) {
				grid[r][col] = f.Panels[k].build(tg)
			}
		}
	}
	if f.ShareY {
		shareY(grid)
	}
	tiles := draw.Tiles{Rows: f.Rows, Cols: f.Cols, PadX: vg.Points(6), PadY: vg.Points(6), PadTop: vg.Points(2), PadBottom: vg.Points(2), PadLeft: vg.Points(2), PadRight: vg.Points(2)}
	canvases := plot.Align(grid, tiles, area)
	for r := range grid {
		for col, pl := range grid[r] {
			if pl != nil {
				pl.Draw(canvases[r][col])
			}
		}
	}
	switch f.Legend {
	case LegendRight:
		drawLegend(c, ll.blocks[0], ll.perCol[0], vg.Point{X: area.Max.X + vg.Points(8), Y: area.Max.Y - vg.Points(4)}, tg)
	case LegendBelow:
		lw, _ := legendBox(ll.blocks[0], ll.perCol[0], tg)
		drawLegend(c, ll.blocks[0], ll.perCol[0], vg.Point{X: (area.Min.X+area.Max.X)/2 - lw/2, Y: area.Min.Y - vg.Points(4)}, tg)
	case LegendPerRow:
		for r, es := range ll.blocks {
			tl := vg.Point{X: area.Max.X + vg.Points(8), Y: tiles.At(area, 0, r).Max.Y - vg.Points(14)}
			if h := f.rowTitle(r); h != "" {
				sty := legendStyle(tg)
				sty.YAlign = draw.YTop
				c.FillText(sty, tl, h)
				tl.Y -= rowHeight(tg) * 1.2
			}
			drawLegend(c, es, ll.perCol[r], tl, tg)
		}
	}
}

// shareY gives each column of plots the union of its y ranges.
func shareY(grid [][]*plot.Plot) {
	if len(grid) == 0 {
		return
	}
	for col := range grid[0] {
		lo, hi := math.Inf(1), math.Inf(-1)
		for r := range grid {
			if pl := grid[r][col]; pl != nil {
				lo, hi = math.Min(lo, pl.Y.Min), math.Max(hi, pl.Y.Max)
			}
		}
		for r := range grid {
			if pl := grid[r][col]; pl != nil && !math.IsInf(lo, 0) && !math.IsInf(hi, 0) {
				pl.Y.Min, pl.Y.Max = lo, hi
			}
		}
	}
}
