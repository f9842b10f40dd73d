package plotfig

import (
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

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
	return f.panelHeight()
}

// panelHeight is the height of a row of panels without its strip.
func (f *Figure) panelHeight() vg.Length {
	if f.RowHeight > 0 {
		return f.RowHeight
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
		h = vg.Length(f.Rows)*f.panelHeight() + f.titleHeight() + ll.below + f.stripsHeight()
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
	for r := range grid {
		for col, pl := range grid[r] {
			if pl != nil && f.Panels[r*f.Cols+col].undefinedSeries() > 0 {
				roomForStripLabel(pl, tg)
			}
		}
	}
	tiles := draw.Tiles{Rows: f.Rows, Cols: f.Cols, PadX: vg.Points(6), PadY: vg.Points(6), PadTop: vg.Points(2), PadBottom: vg.Points(2), PadLeft: vg.Points(2), PadRight: vg.Points(2)}
	// Titles wider than their tile are broken at spaces.
	tileW := tiles.At(area, 0, 0).Max.X - tiles.At(area, 0, 0).Min.X
	for r := range grid {
		for _, pl := range grid[r] {
			if pl != nil {
				pl.Title.Text = wrap(pl.Title.Text, pl.Title.TextStyle, tileW)
			}
		}
	}
	canvases := plot.Align(grid, tiles, area)
	for r := range grid {
		sh := f.stripHeight(r)
		for col, pl := range grid[r] {
			if pl == nil {
				continue
			}
			cell := canvases[r][col]
			above := cell
			above.Min.Y += sh
			pl.Draw(above)
			if sh > 0 {
				drawStrip(cell, above, pl, f.Panels[r*f.Cols+col], sh, tg)
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

// wrap breaks the lines of txt at spaces outside mathematics where they
// are wider than width in sty (a word wider than width stays whole).
func wrap(txt string, sty text.Style, width vg.Length) string {
	var out []string
	for line := range strings.SplitSeq(txt, "\n") {
		ws := words(line)
		cur := ws[0]
		for _, w := range ws[1:] {
			if sty.Width(cur+" "+w) > width {
				out = append(out, cur)
				cur = w
				continue
			}
			cur += " " + w
		}
		out = append(out, cur)
	}
	return strings.Join(out, "\n")
}

// words splits a line at the spaces outside $…$.
func words(line string) []string {
	var out []string
	inMath, start := false, 0
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line):
			i++
		case line[i] == '$':
			inMath = !inMath
		case line[i] == ' ' && !inMath:
			out = append(out, line[start:i])
			start = i + 1
		}
	}
	return append(out, line[start:])
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
				if t, ok := pl.Y.Tick.Marker.(niceTicks); ok {
					pl.Y.Tick.Marker = niceTicks{Integer: t.Integer} // the step of the shared range
				}
			}
		}
	}
}
