package plotfig

import (
	stdfont "golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// glyphOutlines returns the outlines of the glyphs of s in face, set from
// the baseline origin at, as one path to fill (non-zero winding, as
// TrueType contours are drawn). Advances and kerning are those of
// face.Width, so outlines sit where the text would.
func glyphOutlines(face font.Face, s string, at vg.Point) vg.Path {
	var (
		buf  sfnt.Buffer
		p    vg.Path
		upem = fixed.Int26_6(face.Face.UnitsPerEm()) // coordinates in font units
		// scale converts font units to lengths.
		scale   = face.Font.Size / vg.Length(upem)
		x       = at.X
		prev    sfnt.GlyphIndex
		hasPrev bool
	)
	for _, r := range s {
		idx, err := face.Face.GlyphIndex(&buf, r)
		if err != nil {
			continue
		}
		if hasPrev {
			if k, err := face.Face.Kern(&buf, prev, idx, upem, stdfont.HintingNone); err == nil {
				x += vg.Length(k) * scale
			}
		}
		prev, hasPrev = idx, true
		segs, err := face.Face.LoadGlyph(&buf, idx, upem, nil)
		if err == nil {
			pt := func(q fixed.Point26_6) vg.Point {
				return vg.Point{X: x + vg.Length(q.X)*scale, Y: at.Y - vg.Length(q.Y)*scale} // sfnt's y points down
			}
			open := false
			for _, sg := range segs {
				switch sg.Op {
				case sfnt.SegmentOpMoveTo:
					if open {
						p.Close()
					}
					p.Move(pt(sg.Args[0]))
					open = true
				case sfnt.SegmentOpLineTo:
					p.Line(pt(sg.Args[0]))
				case sfnt.SegmentOpQuadTo:
					p.QuadTo(pt(sg.Args[0]), pt(sg.Args[1]))
				case sfnt.SegmentOpCubeTo:
					p.CubeTo(pt(sg.Args[0]), pt(sg.Args[1]), pt(sg.Args[2]))
				}
			}
			if open {
				p.Close()
			}
		}
		if adv, err := face.Face.GlyphAdvance(&buf, idx, upem, stdfont.HintingNone); err == nil {
			x += vg.Length(adv) * scale
		}
	}
	return p
}

// piece is a maximal byte range [from, to) of a string whose runes are all
// ASCII or all not.
type piece struct {
	from, to int
	ascii    bool
}

// asciiPieces splits s into alternating ASCII and non-ASCII pieces.
func asciiPieces(s string) []piece {
	var out []piece
	for i, r := range s {
		a := r < 0x80
		if n := len(out); n > 0 && out[n-1].ascii == a {
			continue
		} else if n > 0 {
			out[n-1].to = i
		}
		out = append(out, piece{from: i, ascii: a})
	}
	if n := len(out); n > 0 {
		out[n-1].to = len(s)
	}
	return out
}
