// Package plotfig draws the reproduction's figures with gonum/plot: panels of
// mean curves with confidence bands laid out in a grid, one shared legend, and
// byte-identical PNG, SVG and PDF output for identical inputs.
//
// gonum/plot has no band plotter: a band is a closed polygon through the lower
// envelope and back along the upper one, drawn under its mean line. PNG and SVG
// use translucent fills; the PDF backend renders translucency as grey, so PDFs
// use the same colours pre-mixed with white, and they are written only when
// every label is ASCII (the PDF backend garbles other text). The PDF creation
// and modification dates are pinned so that the bytes do not depend on the day.
package plotfig

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/neural-adb/nadb/internal/fsutil"
)

func init() {
	epoch := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	fpdf.SetDefaultCreationDate(epoch)
	fpdf.SetDefaultModificationDate(epoch)
}

// DPI of the PNG output.
const DPI = 220

// Style is how one series is drawn.
type Style struct {
	Color  color.RGBA
	Dashes []vg.Length // nil: solid
	Width  vg.Length   // 0: 1.1 pt
}

// Series is one curve: Y against X, with an optional band [Lo, Hi] (nil for
// none). Points with a NaN (or, on a log axis, a non-positive) coordinate are
// skipped.
type Series struct {
	Label  string
	X, Y   []float64
	Lo, Hi []float64
	Style  Style
}

// Panel is one set of axes.
type Panel struct {
	Title, XLabel, YLabel string
	LogX, LogY            bool
	Series                []Series
	// Legend draws a legend of this panel's series inside it (top right),
	// for figures whose rows have different curves.
	Legend bool
	// XMin, XMax fix the x range when XMax > XMin (default: the data's).
	XMin, XMax float64
}

// Figure is a grid of panels with one legend on the right listing every
// distinct series label in order of first appearance.
type Figure struct {
	Rows, Cols int
	Panels     []Panel   // row-major, Rows·Cols entries (missing ones are blank)
	Width      vg.Length // 0: 2.3 in per column plus the legend
	Height     vg.Length // 0: 1.8 in per row
	NoLegend   bool
}

// Palette is the Okabe–Ito colour-blind-safe palette.
var Palette = []color.RGBA{
	{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	{0x00, 0x72, 0xB2, 0xff}, // blue
	{0x00, 0x9E, 0x73, 0xff}, // bluish green
	{0xE6, 0x9F, 0x00, 0xff}, // orange
	{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	{0x66, 0x66, 0x66, 0xff}, // grey
	{0x00, 0x00, 0x00, 0xff}, // black
}

// Brown is a colour outside Palette, for a family that must stand apart.
var Brown = color.RGBA{0x8C, 0x56, 0x4B, 0xff}

// Dash patterns of Style.Dashes (nil: solid).
var (
	Dashed  = []vg.Length{vg.Points(4), vg.Points(2)}
	Dotted  = []vg.Length{vg.Points(1), vg.Points(1.5)}
	DashDot = []vg.Length{vg.Points(4), vg.Points(1.5), vg.Points(1), vg.Points(1.5)}
)

// Sequential returns the style of member i of an ordered family of n (an
// ablation grid such as d = 5, 10, 15, 20): colours run from light to dark.
func Sequential(i, n int) Style {
	ramp := []color.RGBA{{0xFD, 0xB8, 0x63, 0xff}, {0xE6, 0x61, 0x01, 0xff}, {0xB2, 0x18, 0x2B, 0xff}, {0x5E, 0x3C, 0x99, 0xff}, {0x2D, 0x00, 0x4B, 0xff}}
	if n <= 1 {
		return Style{Color: ramp[len(ramp)-1]}
	}
	pos := float64(i) / float64(n-1) * float64(len(ramp)-1)
	k := min(int(pos), len(ramp)-2)
	f := pos - float64(k)
	a, b := ramp[k], ramp[k+1]
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*(1-f) + float64(y)*f)) }
	return Style{Color: color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}}
}

const (
	fontSize   = 8
	titleSize  = 9
	legendSize = 7
)

func (s Style) line() draw.LineStyle {
	w := s.Width
	if w == 0 {
		w = vg.Points(1.1)
	}
	return draw.LineStyle{Color: s.Color, Width: w, Dashes: s.Dashes}
}

func keep(x, y float64, logX, logY bool) bool {
	if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return false
	}
	return !(logX && x <= 0) && !(logY && y <= 0)
}

// build makes the gonum plot of a panel; opaque selects pre-mixed band colours.
func (p Panel) build(opaque bool) (*plot.Plot, error) {
	pl := plot.New()
	pl.Title.Text = p.Title
	pl.Title.TextStyle.Font.Size = vg.Points(titleSize)
	pl.X.Label.Text = p.XLabel
	pl.Y.Label.Text = p.YLabel
	for _, ax := range []*plot.Axis{&pl.X, &pl.Y} {
		ax.Label.TextStyle.Font.Size = vg.Points(fontSize)
		ax.Tick.Label.Font.Size = vg.Points(fontSize - 1)
	}
	if p.LogX {
		pl.X.Scale = plot.LogScale{}
		pl.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	if p.LogY {
		pl.Y.Scale = plot.LogScale{}
		pl.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	pl.Add(plotter.NewGrid())
	defer func() {
		if p.XMax > p.XMin {
			pl.X.Min, pl.X.Max = p.XMin, p.XMax
		}
	}()
	// Bands first, then lines on top.
	for _, s := range p.Series {
		if s.Lo == nil || s.Hi == nil {
			continue
		}
		var lo, hi plotter.XYs
		for i := range s.X {
			if keep(s.X[i], s.Lo[i], p.LogX, p.LogY) && keep(s.X[i], s.Hi[i], p.LogX, p.LogY) {
				lo = append(lo, plotter.XY{X: s.X[i], Y: s.Lo[i]})
				hi = append(hi, plotter.XY{X: s.X[i], Y: s.Hi[i]})
			}
		}
		if len(lo) < 2 {
			continue
		}
		ring := append(plotter.XYs{}, lo...)
		for i := len(hi) - 1; i >= 0; i-- {
			ring = append(ring, hi[i])
		}
		poly, err := plotter.NewPolygon(ring)
		if err != nil {
			return nil, fmt.Errorf("band of %q: %w", s.Label, err)
		}
		c := s.Style.Color
		if opaque {
			poly.Color = mixWhite(c, 0.2)
		} else {
			poly.Color = color.NRGBA{c.R, c.G, c.B, 0x38}
		}
		poly.LineStyle.Width = 0
		pl.Add(poly)
	}
	for _, s := range p.Series {
		var xy plotter.XYs
		for i := range s.X {
			if keep(s.X[i], s.Y[i], p.LogX, p.LogY) {
				xy = append(xy, plotter.XY{X: s.X[i], Y: s.Y[i]})
			}
		}
		if len(xy) == 0 {
			continue
		}
		ln, err := plotter.NewLine(xy)
		if err != nil {
			return nil, fmt.Errorf("series %q: %w", s.Label, err)
		}
		ln.LineStyle = s.Style.line()
		pl.Add(ln)
		if p.Legend && s.Label != "" {
			pl.Legend.Add(s.Label, ln)
		}
	}
	if p.Legend {
		pl.Legend.Top = true
		pl.Legend.TextStyle.Font.Size = vg.Points(legendSize)
		pl.Legend.ThumbnailWidth = vg.Points(14)
	}
	return pl, nil
}

func mixWhite(c color.RGBA, a float64) color.RGBA {
	m := func(x uint8) uint8 { return uint8(math.Round(float64(x)*a + 255*(1-a))) }
	return color.RGBA{m(c.R), m(c.G), m(c.B), 0xff}
}

// legend returns the shared legend and its width.
func (f *Figure) legend() (plot.Legend, vg.Length) {
	leg := plot.NewLegend()
	leg.TextStyle.Font.Size = vg.Points(legendSize)
	leg.Top = true
	leg.Left = true
	leg.ThumbnailWidth = vg.Points(18)
	seen := map[string]bool{}
	var width vg.Length
	for _, p := range f.Panels {
		if p.Legend {
			continue
		}
		for _, s := range p.Series {
			if s.Label == "" || seen[s.Label] {
				continue
			}
			seen[s.Label] = true
			ln := &plotter.Line{LineStyle: s.Style.line()}
			leg.Add(s.Label, ln)
			w := leg.ThumbnailWidth + leg.TextStyle.Rectangle(" "+s.Label+" ").Max.X
			width = max(width, w)
		}
	}
	if f.NoLegend || len(seen) == 0 {
		return leg, 0
	}
	return leg, width + vg.Points(6)
}

func (f *Figure) size(legendW vg.Length) (vg.Length, vg.Length) {
	w, h := f.Width, f.Height
	if w == 0 {
		w = vg.Length(f.Cols)*2.3*vg.Inch + legendW
	}
	if h == 0 {
		h = vg.Length(f.Rows) * 1.8 * vg.Inch
	}
	return w, h
}

// draw renders the figure on c.
func (f *Figure) draw(c draw.Canvas, opaque bool) error {
	if f.Rows*f.Cols < len(f.Panels) {
		return fmt.Errorf("plotfig: %d panels do not fit %d×%d", len(f.Panels), f.Rows, f.Cols)
	}
	leg, legW := f.legend()
	grid := make([][]*plot.Plot, f.Rows)
	for r := range grid {
		grid[r] = make([]*plot.Plot, f.Cols)
		for col := range grid[r] {
			k := r*f.Cols + col
			if k >= len(f.Panels) {
				continue
			}
			pl, err := f.Panels[k].build(opaque)
			if err != nil {
				return err
			}
			grid[r][col] = pl
		}
	}
	area := c
	area.Max.X -= legW
	tiles := draw.Tiles{Rows: f.Rows, Cols: f.Cols, PadX: vg.Points(6), PadY: vg.Points(6), PadTop: vg.Points(2), PadBottom: vg.Points(2), PadLeft: vg.Points(2), PadRight: vg.Points(2)}
	canvases := plot.Align(grid, tiles, area)
	for r := range grid {
		for col, pl := range grid[r] {
			if pl != nil {
				pl.Draw(canvases[r][col])
			}
		}
	}
	if legW > 0 {
		lc := c
		lc.Min.X = c.Max.X - legW + vg.Points(4)
		lc.Max.Y -= vg.Points(8)
		leg.Draw(lc)
	}
	return nil
}

// Render writes the figure in format "png", "svg" or "pdf".
func (f *Figure) Render(w io.Writer, format string) error {
	_, legW := f.legend()
	width, height := f.size(legW)
	switch format {
	case "png":
		c := vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(DPI), vgimg.UseBackgroundColor(color.White))
		if err := f.draw(draw.New(c), false); err != nil {
			return err
		}
		_, err := vgimg.PngCanvas{Canvas: c}.WriteTo(w)
		return err
	case "svg":
		c := vgsvg.NewWith(vgsvg.UseWH(width, height), vgsvg.EmbedFonts(true))
		if err := f.draw(draw.New(c), false); err != nil {
			return err
		}
		_, err := c.WriteTo(w)
		return err
	case "pdf":
		if !f.ASCII() {
			return fmt.Errorf("plotfig: PDF needs ASCII labels (the PDF backend garbles other text)")
		}
		c := vgpdf.New(width, height)
		if err := f.draw(draw.New(c), true); err != nil {
			return err
		}
		_, err := c.WriteTo(w)
		return err
	}
	return fmt.Errorf("plotfig: unknown format %q", format)
}

// ASCII reports whether every text of the figure is ASCII.
func (f *Figure) ASCII() bool {
	ok := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 {
				return false
			}
		}
		return true
	}
	for _, p := range f.Panels {
		if !ok(p.Title) || !ok(p.XLabel) || !ok(p.YLabel) {
			return false
		}
		for _, s := range p.Series {
			if !ok(s.Label) {
				return false
			}
		}
	}
	return true
}

// Save writes base.png, base.svg and (when the labels allow) base.pdf, each
// through a temporary file renamed into place. It returns the paths written.
func (f *Figure) Save(base string) ([]string, error) {
	formats := []string{"png", "svg"}
	if f.ASCII() {
		formats = append(formats, "pdf")
	}
	var paths []string
	for _, format := range formats {
		var buf bytes.Buffer
		if err := f.Render(&buf, format); err != nil {
			return paths, err
		}
		path := base + "." + format
		if err := fsutil.WriteFile(path, buf.Bytes()); err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}
