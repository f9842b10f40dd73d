package plotfig

import (
	"image/color"
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Style is how one series is drawn: colour, dash pattern, width and the
// marker repeated along the line, so that curves stay apart in grey print,
// for colour-blind readers and where two curves coincide.
type Style struct {
	Color  color.RGBA
	Dashes []vg.Length // nil: solid
	Width  vg.Length   // 0: 1.1 pt
	Marker Marker      // NoMarker: none
}

// Marker is the shape drawn at a few points along a series.
type Marker int

// Markers: filled shapes, open shapes (white inside) and strokes.
const (
	NoMarker Marker = iota
	Circle
	Triangle
	Square
	Diamond
	TriangleDown
	Ring
	OpenTriangle
	OpenSquare
	OpenDiamond
	OpenTriangleDown
	Plus
	Cross
	Asterisk
	Star
	numMarkers
)

// Markers lists every marker but NoMarker, in declaration order.
func Markers() []Marker {
	out := make([]Marker, 0, numMarkers-1)
	for m := Circle; m < numMarkers; m++ {
		out = append(out, m)
	}
	return out
}

// Tol is Paul Tol's "muted" qualitative scheme, designed to stay
// distinguishable under the common colour-vision deficiencies, followed by
// black, mid grey and Okabe–Ito orange (twelve colours in all).
var (
	Rose   = color.RGBA{0xCC, 0x66, 0x77, 0xff}
	Indigo = color.RGBA{0x33, 0x22, 0x88, 0xff}
	Sand   = color.RGBA{0xDD, 0xCC, 0x77, 0xff}
	Green  = color.RGBA{0x11, 0x77, 0x33, 0xff}
	Cyan   = color.RGBA{0x88, 0xCC, 0xEE, 0xff}
	Wine   = color.RGBA{0x88, 0x22, 0x55, 0xff}
	Teal   = color.RGBA{0x44, 0xAA, 0x99, 0xff}
	Olive  = color.RGBA{0x99, 0x99, 0x33, 0xff}
	Purple = color.RGBA{0xAA, 0x44, 0x99, 0xff}
	Black  = color.RGBA{0x00, 0x00, 0x00, 0xff}
	Grey   = color.RGBA{0x77, 0x77, 0x77, 0xff}
	Orange = color.RGBA{0xE6, 0x9F, 0x00, 0xff}
)

// Palette holds the twelve qualitative colours in a fixed order.
var Palette = []color.RGBA{Indigo, Rose, Teal, Green, Cyan, Sand, Purple, Grey, Orange, Wine, Olive, Black}

// Dash patterns of Style.Dashes (nil: solid).
var (
	Dashed   = []vg.Length{vg.Points(4), vg.Points(2)}
	Dotted   = []vg.Length{vg.Points(1), vg.Points(1.5)}
	DashDot  = []vg.Length{vg.Points(4), vg.Points(1.5), vg.Points(1), vg.Points(1.5)}
	LongDash = []vg.Length{vg.Points(7), vg.Points(2.5)}
	DashDash = []vg.Length{vg.Points(4), vg.Points(1.5), vg.Points(1.5), vg.Points(1.5), vg.Points(1.5), vg.Points(1.5)}
)

// Sequential returns the style of member i of an ordered family of n (an
// ablation grid such as d = 5, 10, 15, 20): colours run from light to dark
// and each member gets its own marker, so the order reads without colour.
func Sequential(i, n int) Style {
	ramp := []color.RGBA{{0xFD, 0xB8, 0x63, 0xff}, {0xE6, 0x61, 0x01, 0xff}, {0xB2, 0x18, 0x2B, 0xff}, {0x5E, 0x3C, 0x99, 0xff}, {0x2D, 0x00, 0x4B, 0xff}}
	marks := []Marker{Circle, Triangle, Square, Diamond, TriangleDown, Ring, OpenTriangle, OpenSquare}
	m := marks[i%len(marks)]
	if n <= 1 {
		return Style{Color: ramp[len(ramp)-1], Marker: m}
	}
	pos := float64(i) / float64(n-1) * float64(len(ramp)-1)
	k := min(int(pos), len(ramp)-2)
	f := pos - float64(k)
	a, b := ramp[k], ramp[k+1]
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*(1-f) + float64(y)*f)) }
	return Style{Color: color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}, Marker: m}
}

func (s Style) line() draw.LineStyle {
	w := s.Width
	if w == 0 {
		w = vg.Points(1.1)
	}
	return draw.LineStyle{Color: s.Color, Width: w, Dashes: s.Dashes}
}

// markerRadius is the radius of a marker.
const markerRadius = vg.Length(2.3)

// drawMarker draws m centred at pt.
func drawMarker(c vg.Canvas, m Marker, col color.Color, pt vg.Point, r vg.Length) {
	if m == NoMarker {
		return
	}
	poly := func(n int, rot float64, scale vg.Length) vg.Path {
		var p vg.Path
		for k := range n {
			a := rot + 2*math.Pi*float64(k)/float64(n)
			q := vg.Point{X: pt.X + scale*vg.Length(math.Cos(a)), Y: pt.Y + scale*vg.Length(math.Sin(a))}
			if k == 0 {
				p.Move(q)
			} else {
				p.Line(q)
			}
		}
		p.Close()
		return p
	}
	circle := func() vg.Path {
		var p vg.Path
		p.Move(vg.Point{X: pt.X + r, Y: pt.Y})
		p.Arc(pt, r, 0, 2*math.Pi)
		p.Close()
		return p
	}
	var shape vg.Path
	switch m {
	case Circle, Ring:
		shape = circle()
	case Triangle, OpenTriangle:
		shape = poly(3, math.Pi/2, r*1.3)
	case TriangleDown, OpenTriangleDown:
		shape = poly(3, -math.Pi/2, r*1.3)
	case Square, OpenSquare:
		shape = poly(4, math.Pi/4, r*1.2)
	case Diamond, OpenDiamond:
		shape = poly(4, 0, r*1.35)
	case Star:
		var p vg.Path
		for k := range 10 {
			a := math.Pi/2 + math.Pi*float64(k)/5
			rr := r * 1.45
			if k%2 == 1 {
				rr = r * 0.6
			}
			q := vg.Point{X: pt.X + rr*vg.Length(math.Cos(a)), Y: pt.Y + rr*vg.Length(math.Sin(a))}
			if k == 0 {
				p.Move(q)
			} else {
				p.Line(q)
			}
		}
		p.Close()
		shape = p
	}
	c.SetLineDash(nil, 0)
	c.SetLineWidth(vg.Points(0.8))
	switch m {
	case Circle, Triangle, TriangleDown, Square, Diamond, Star:
		c.SetColor(col)
		c.Fill(shape)
	case Ring, OpenTriangle, OpenTriangleDown, OpenSquare, OpenDiamond:
		c.SetColor(color.White)
		c.Fill(shape)
		c.SetColor(col)
		c.Stroke(shape)
	case Plus, Cross, Asterisk:
		c.SetColor(col)
		c.SetLineWidth(vg.Points(1))
		var rots []float64
		switch m {
		case Plus:
			rots = []float64{0, math.Pi / 2}
		case Cross:
			rots = []float64{math.Pi / 4, 3 * math.Pi / 4}
		default:
			rots = []float64{math.Pi / 2, math.Pi/2 + math.Pi/3, math.Pi/2 + 2*math.Pi/3}
		}
		for _, a := range rots {
			d := vg.Point{X: r * 1.3 * vg.Length(math.Cos(a)), Y: r * 1.3 * vg.Length(math.Sin(a))}
			var p vg.Path
			p.Move(pt.Sub(d))
			p.Line(pt.Add(d))
			c.Stroke(p)
		}
	}
}

func mixWhite(c color.RGBA, a float64) color.RGBA {
	m := func(x uint8) uint8 { return uint8(math.Round(float64(x)*a + 255*(1-a))) }
	return color.RGBA{m(c.R), m(c.G), m(c.B), 0xff}
}
