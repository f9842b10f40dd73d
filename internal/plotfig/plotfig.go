package plotfig

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/neural-adb/nadb/internal/fsutil"
)

func init() {
	epoch := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	fpdf.SetDefaultCreationDate(epoch)
	fpdf.SetDefaultModificationDate(epoch)
	// Without this fpdf lists fonts, images and templates in map order, so a
	// PDF with more than one font (roman and italic) changes between runs.
	fpdf.SetDefaultCatalogSort(true)
}

// DPI is the resolution of PNG output.
const DPI = 220

// TextWidth is the width of a figure drawn for print: the 17 cm text width
// of an A4 page with 2 cm margins (paper/report.tex), less 2 mm, so that a
// figure included at its natural size prints every text at its own size
// (at least MinFontSize).
const TextWidth = 6.6 * vg.Inch

// Series is one curve of a panel: the mean Y at each X, an optional band
// [Lo, Hi] (nil: none), and the points where the value does not exist
// (Undefined, nil: none), marked in a strip under the panel instead of
// drawn. A NaN in Y is a missing point: the line breaks there.
type Series struct {
	Label     string
	X, Y      []float64
	Lo, Hi    []float64
	Undefined []bool
	Style     Style
}

// RefLine is a labelled horizontal reference level of a panel.
type RefLine struct {
	Y     float64
	Label string
	// Color and Dashes default to dark grey and a dash-dot pattern, which
	// no series style uses.
	Color  color.RGBA
	Dashes []vg.Length
}

// Span is a hatched x range of a panel, such as where a bound does not
// exist.
type Span struct {
	X0, X1 float64
	Label  string
}

// Panel is one plot of a figure.
type Panel struct {
	Title, XLabel, YLabel string
	LogX, LogY            bool
	// IntX, IntY restrict the labelled ticks of a linear axis to integers
	// (rounds, counts).
	IntX, IntY bool
	Series     []Series
	Refs       []RefLine
	Spans      []Span
	// XMin, XMax fix the x range when XMax > XMin (default: the data's).
	XMin, XMax float64
	// YInclude are values the y range must include beside the data's, such
	// as a metric's best possible value (0 for a gap, 1 for an accuracy), so
	// that a difference is seen against the metric's scale.
	YInclude []float64
	// YMin, YMax fix the y range when YMax > YMin (after YInclude), such as
	// one range shared by the panels of a metric across figures.
	YMin, YMax float64
}

// LegendPlacement says where a figure's legend goes.
type LegendPlacement int

const (
	// LegendRight is one legend right of the grid listing every distinct
	// label in order of first appearance.
	LegendRight LegendPlacement = iota
	// LegendBelow is the same legend below the grid, in columns.
	LegendBelow
	// LegendPerRow gives each row of panels its own legend right of it, for
	// figures whose rows have different curves.
	LegendPerRow
	// LegendNone draws no legend.
	LegendNone
)

// Figure is a grid of panels with a legend.
type Figure struct {
	Rows, Cols int
	Panels     []Panel   // row-major, Rows·Cols entries (missing ones are blank)
	Width      vg.Length // 0: 2.3 in per column plus the legend
	Height     vg.Length // 0: RowHeight per row plus title, legend and strips
	// RowHeight is the height of a row of panels when Height is 0 (0: 1.8
	// in), the strip of undefined points under it aside.
	RowHeight vg.Length
	Legend    LegendPlacement
	// ShareY gives the panels of each column one y range (the union of
	// theirs), so that rows compare at a glance.
	ShareY bool
	// Title is printed above the grid (empty: none).
	Title string
	// Watermark is printed large, light and diagonally behind the panels
	// (empty: none), such as "QUICK SCALE" on smoke-test figures.
	Watermark string
	// RowTitles head the legends of LegendPerRow, one per row ("" for
	// none), such as the family of the row's curves.
	RowTitles []string
	// UndefinedLabel is the legend text of the cross marking undefined
	// points (default: DefaultUndefinedLabel).
	UndefinedLabel string
}

// DefaultUndefinedLabel is the legend text of undefined points.
const DefaultUndefinedLabel = "undefined at this x: a cross in the strip under the panel, in the curve's colour"

// Render writes the figure in format "png", "svg" or "pdf". In PDF,
// mathematics and non-ASCII text are glyph outlines and translucent fills
// are pre-mixed with white.
func (f *Figure) Render(w io.Writer, format string) error {
	if err := f.check(); err != nil {
		return err
	}
	switch format {
	case "png":
		tg := target{}
		f.numberRefs(&tg)
		width, height := f.size(tg)
		c := vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(DPI), vgimg.UseBackgroundColor(color.White))
		f.draw(c, width, height, tg)
		_, err := vgimg.PngCanvas{Canvas: c}.WriteTo(w)
		return err
	case "svg":
		tg := target{}
		f.numberRefs(&tg)
		width, height := f.size(tg)
		c := vgsvg.NewWith(vgsvg.UseWH(width, height), vgsvg.EmbedFonts(true))
		f.draw(c, width, height, tg)
		_, err := c.WriteTo(w)
		return err
	case "pdf":
		tg := target{opaque: true, outline: true}
		f.numberRefs(&tg)
		width, height := f.size(tg)
		c := vgpdf.New(width, height)
		f.draw(c, width, height, tg)
		_, err := c.WriteTo(w)
		return err
	}
	return fmt.Errorf("plotfig: unknown format %q (want png, svg or pdf)", format)
}

func (f *Figure) check() error {
	if f.Rows < 1 || f.Cols < 1 {
		return fmt.Errorf("plotfig: Rows and Cols must be positive, got %d×%d", f.Rows, f.Cols)
	}
	if f.Rows*f.Cols < len(f.Panels) {
		return fmt.Errorf("plotfig: %d panels do not fit %d×%d", len(f.Panels), f.Rows, f.Cols)
	}
	for pi, p := range f.Panels {
		for _, s := range p.Series {
			if len(s.Y) != len(s.X) || (s.Lo != nil && len(s.Lo) != len(s.X)) || (s.Hi != nil && len(s.Hi) != len(s.X)) || (s.Undefined != nil && len(s.Undefined) != len(s.X)) {
				return fmt.Errorf("plotfig: panel %d, series %q: Y, Lo, Hi and Undefined must have the length of X (%d)", pi, s.Label, len(s.X))
			}
		}
	}
	return nil
}

// Size returns the figure's page size (its natural size in print).
func (f *Figure) Size() (width, height vg.Length) {
	tg := target{}
	f.numberRefs(&tg)
	return f.size(tg)
}

// Save writes base.png, base.svg and base.pdf and returns their paths.
func (f *Figure) Save(base string) ([]string, error) {
	var paths []string
	for _, format := range []string{"png", "svg", "pdf"} {
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
