package plotfig

import (
	"math"
	"strings"

	stdfont "golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// mathText is a gonum/plot text handler for labels with mathematics between
// dollar signs, in a small subset of TeX:
//
//	$V_T^{-1}$, $\|z\|_{V_T^{-1}}$, $\lambda_{\min}$, $\sqrt{\tilde{d}/T}$
//
// Outside dollars text is plain. Inside, letters are italic, digits and
// operators upright, _x and ^x (or _{…}, ^{…}) are lowered or raised
// scripts at 70% size, \name gives a Greek letter (\lambda, \Sigma), a
// symbol (\| \le \ge \cdot \times \infty \approx \pm \in \to) or an upright
// operator name (\max \min \log \ln \exp), \sqrt{…} a radical with a bar,
// \tilde{x} and \hat{x} accents, \mathrm{…} upright text, and "\," "\ "
// spaces. gonum/plot's own text.Latex panics on any subscript or
// superscript (v0.17.0), hence this handler.
//
// With Outline set, mathematics and every run with a non-ASCII rune are
// drawn as filled glyph outlines taken from the font (outline.go) instead
// of as text: gonum's PDF backend (v0.17.0) writes text in a single-byte
// code page, so it garbles λ, Σ and ‖, and it cannot select italics. Plain
// ASCII text stays text (searchable, and its size visible to a reader of
// the PDF).
type mathText struct {
	Fonts   *font.Cache
	Outline bool
}

var _ text.Handler = mathText{}

// Cache implements text.Handler.
func (h mathText) Cache() *font.Cache { return h.Fonts }

// Extents implements text.Handler.
func (h mathText) Extents(fnt font.Font) font.Extents {
	face := h.Fonts.Lookup(fnt, fnt.Size)
	return face.Extents()
}

// Lines implements text.Handler.
func (h mathText) Lines(txt string) []string {
	txt = strings.TrimRight(txt, "\n")
	return strings.Split(txt, "\n")
}

// run is a piece of laid-out text: a string in one face at an offset from
// the line's origin, or (bar) a horizontal rule from X to X+W. math marks
// the runs of mathematics.
type run struct {
	s    string
	face font.Face
	x, y vg.Length
	bar  bool
	w    vg.Length
	math bool
}

// layout sets one line of txt in fnt and returns its runs and width.
func (h mathText) layout(txt string, fnt font.Font) ([]run, vg.Length) {
	l := &layouter{h: h}
	var plain strings.Builder
	flush := func() {
		if plain.Len() > 0 {
			l.emit(plain.String(), fnt, 0)
			plain.Reset()
		}
	}
	for i := 0; i < len(txt); i++ {
		switch {
		case txt[i] == '\\' && i+1 < len(txt) && txt[i+1] == '$':
			plain.WriteByte('$')
			i++
		case txt[i] == '$':
			flush()
			j := strings.IndexByte(txt[i+1:], '$')
			if j < 0 {
				plain.WriteString(txt[i:])
				i = len(txt)
				continue
			}
			l.math(parseMath(txt[i+1:i+1+j]), fnt, 0)
			i += j + 1
		default:
			plain.WriteByte(txt[i])
		}
	}
	flush()
	return l.runs, l.x
}

type layouter struct {
	h    mathText
	runs []run
	x    vg.Length
	// inMath is set while math lays out mathematics.
	inMath bool
}

func (l *layouter) emit(s string, fnt font.Font, y vg.Length) {
	if s == "" {
		return
	}
	face := l.h.Fonts.Lookup(fnt, fnt.Size)
	s = missingToASCII(face, s)
	l.runs = append(l.runs, run{s: s, face: face, x: l.x, y: y, math: l.inMath})
	l.x += face.Width(s)
}

// math sets the nodes at baseline offset y.
func (l *layouter) math(nodes []mnode, fnt font.Font, y vg.Length) {
	was := l.inMath
	l.inMath = true
	defer func() { l.inMath = was }()
	italic, roman := fnt, fnt
	roman.Style = stdfont.StyleNormal
	italic.Style = stdfont.StyleItalic
	for _, n := range nodes {
		switch n.kind {
		case mItalic:
			l.emit(n.s, italic, y)
		case mRoman:
			l.emit(n.s, roman, y)
		case mSpace:
			l.x += fnt.Size * vg.Length(n.size)
		case mOp:
			sp := fnt.Size * 0.22
			l.x += sp
			l.emit(n.s, roman, y)
			l.x += sp
		case mGroup:
			l.math(n.kids, fnt, y)
		case mSub, mSup:
			small := fnt
			small.Size = fnt.Size * 0.7
			dy := -0.22 * fnt.Size
			if n.kind == mSup {
				dy = 0.42 * fnt.Size
			}
			l.math(n.kids, small, y+dy)
		case mSqrt:
			l.emit("√", roman, y)
			x0 := l.x
			l.math(n.kids, fnt, y)
			ext := l.h.extents(fnt)
			l.runs = append(l.runs, run{bar: true, x: x0, y: y + ext.Ascent*0.92, w: l.x - x0, face: l.h.Fonts.Lookup(fnt, fnt.Size), math: true})
		case mAccent:
			before := len(l.runs)
			l.math(n.kids, fnt, y)
			if len(l.runs) == before || l.runs[len(l.runs)-1].bar {
				continue // nothing to put the accent on
			}
			mark := map[string]string{"tilde": "~", "hat": "^", "bar": "¯"}[n.s]
			// Centre the mark's ink over the ink of the last glyph, just
			// above its top (above the ascender of d, the x-height of x).
			last := l.runs[len(l.runs)-1]
			g := lastRune(last.s)
			gx0, _, gx1, gtop := inkBounds(last.face, g)
			face := l.h.Fonts.Lookup(roman, fnt.Size*0.9)
			mx0, mbot, mx1, _ := inkBounds(face, mark)
			lw := last.face.Width(g)
			x := l.x - lw + (gx0+gx1)/2 - (mx0+mx1)/2 + fnt.Size*0.05 // italic lean
			l.runs = append(l.runs, run{s: mark, face: face, x: x, y: last.y + gtop - mbot + fnt.Size*0.06, math: true})
		}
	}
}

// missingToASCII spells in ASCII the runes the face has no glyph for
// (Liberation lacks ∈, for one).
func missingToASCII(face font.Face, s string) string {
	var buf sfnt.Buffer
	var b strings.Builder
	for _, r := range s {
		if r >= 0x80 {
			if i, err := face.Face.GlyphIndex(&buf, r); err != nil || i == 0 {
				if a, ok := asciiOf[r]; ok {
					b.WriteString(a)
					continue
				}
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

// inkBounds returns the ink box of the glyphs of s relative to the
// origin (y up).
func inkBounds(face font.Face, s string) (x0, y0, x1, y1 vg.Length) {
	var buf sfnt.Buffer
	ppem := fixed.Int26_6(face.Face.UnitsPerEm())
	scale := face.Font.Size / vg.Length(ppem)
	first := true
	var adv vg.Length
	for _, r := range s {
		i, err := face.Face.GlyphIndex(&buf, r)
		if err != nil {
			continue
		}
		b, a, err := face.Face.GlyphBounds(&buf, i, ppem, stdfont.HintingNone)
		if err != nil {
			continue
		}
		bx0, bx1 := adv+vg.Length(b.Min.X)*scale, adv+vg.Length(b.Max.X)*scale
		by0, by1 := -vg.Length(b.Max.Y)*scale, -vg.Length(b.Min.Y)*scale
		if first {
			x0, y0, x1, y1, first = bx0, by0, bx1, by1, false
		} else {
			x0, y0, x1, y1 = min(x0, bx0), min(y0, by0), max(x1, bx1), max(y1, by1)
		}
		adv += vg.Length(a) * scale
	}
	return x0, y0, x1, y1
}

func lastRune(s string) string {
	r := []rune(s)
	if len(r) == 0 {
		return ""
	}
	return string(r[len(r)-1])
}

// Box implements text.Handler.
func (h mathText) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	runs, w := h.layout(txt, fnt)
	ext := h.Extents(fnt)
	height, depth = ext.Ascent, ext.Descent
	for _, r := range runs {
		e := r.face.Extents()
		height = max(height, r.y+e.Ascent)
		depth = max(depth, e.Descent-r.y)
	}
	return w, height, depth
}

// Draw implements text.Handler, placing lines as text.Plain does.
func (h mathText) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	txt = strings.TrimRight(txt, "\n")
	if txt == "" {
		return
	}
	c.SetColor(sty.Color)
	if sty.Rotation != 0 {
		c.Push()
		c.Rotate(sty.Rotation)
	}
	sin64, cos64 := math.Sincos(sty.Rotation)
	cos, sin := vg.Length(cos64), vg.Length(sin64)
	pt.X, pt.Y = pt.Y*sin+pt.X*cos, pt.Y*cos-pt.X*sin
	lines := h.Lines(txt)
	ht := sty.Height(txt)
	pt.Y += ht*vg.Length(sty.YAlign) - h.Extents(sty.Font).Ascent
	for i, line := range lines {
		runs, w := h.layout(line, sty.Font)
		o := pt.Add(vg.Point{X: vg.Length(sty.XAlign) * w, Y: vg.Length(len(lines)-i) * sty.Font.Size})
		for _, r := range runs {
			if r.bar {
				var p vg.Path
				p.Move(vg.Point{X: o.X + r.x, Y: o.Y + r.y})
				p.Line(vg.Point{X: o.X + r.x + r.w, Y: o.Y + r.y})
				c.SetLineWidth(sty.Font.Size * 0.05)
				c.SetLineDash(nil, 0)
				c.Stroke(p)
				continue
			}
			at := vg.Point{X: o.X + r.x, Y: o.Y + r.y}
			switch {
			case !h.Outline:
				c.FillString(r.face, at, r.s)
			case r.math:
				c.Fill(glyphOutlines(r.face, r.s, at))
			default:
				// Plain text: ASCII pieces as text, the rest as outlines.
				for _, piece := range asciiPieces(r.s) {
					pt := vg.Point{X: at.X + r.face.Width(r.s[:piece.from]), Y: at.Y}
					if piece.ascii {
						c.FillString(r.face, pt, r.s[piece.from:piece.to])
					} else {
						c.Fill(glyphOutlines(r.face, r.s[piece.from:piece.to], pt))
					}
				}
			}
		}
	}
	if sty.Rotation != 0 {
		c.Pop()
	}
}

func (h mathText) extents(fnt font.Font) font.Extents { return h.Extents(fnt) }
