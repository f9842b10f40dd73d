package plotfig

import (
	"bytes"
	"compress/zlib"
	"io"
	"math"
	"regexp"
	"strings"
	"testing"
)

// demo is a small deterministic figure that uses every feature: bands,
// markers, a missing point, undefined points, a reference line, a span,
// mathematics in labels, log axes, a title and a watermark.
func demo() *Figure {
	x := []float64{10, 20, 50, 100, 200, 500, 1000}
	mk := func(name string, scale float64, style Style) Series {
		y := make([]float64, len(x))
		lo := make([]float64, len(x))
		hi := make([]float64, len(x))
		for i, t := range x {
			y[i] = scale * 10 / math.Sqrt(1+t)
			lo[i], hi[i] = 0.8*y[i], 1.2*y[i]
		}
		y[0] = math.NaN() // missing, not fatal
		return Series{Label: name, X: x, Y: y, Lo: lo, Hi: hi, Style: style}
	}
	bound := Series{Label: `bound $L/\sqrt{\lambda_{\min}(V_T)}$`, X: x, Y: make([]float64, len(x)), Undefined: make([]bool, len(x)), Style: Style{Color: Purple, Dashes: DashDot}}
	for i, t := range x {
		bound.Y[i] = 30 / t
		bound.Undefined[i] = t < 50
	}
	a := mk(`$\|z\|_{V_T^{-1}}$ (mean, 95% CI)`, 1, Style{Color: Indigo, Marker: Circle})
	b := mk("second", 1, Style{Color: Orange, Dashes: Dashed, Marker: Ring}) // coincides with a
	p := Panel{Title: "linear axes", XLabel: "T (duels)", YLabel: "gap", IntX: true,
		Series: []Series{a, b, bound},
		Refs:   []RefLine{{Y: math.Ln2, Label: "constant model, ln 2"}},
		Spans:  []Span{{X0: 0, X1: 50, Label: "bound undefined"}}}
	q := p
	q.Title, q.LogX, q.LogY, q.Spans = `log axes, $\tilde{d}_T$`, true, true, nil
	return &Figure{Rows: 1, Cols: 2, Panels: []Panel{p, q}, Title: "quick scale: 2 seeds", Watermark: "QUICK", Legend: LegendBelow}
}

// TestDeterministicBytes renders every format twice and compares the bytes.
func TestDeterministicBytes(t *testing.T) {
	for _, format := range []string{"png", "svg", "pdf"} {
		var a, b bytes.Buffer
		if err := demo().Render(&a, format); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if err := demo().Render(&b, format); err != nil {
			t.Fatal(err)
		}
		if a.Len() < 1000 || !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: %d bytes, identical: %v", format, a.Len(), bytes.Equal(a.Bytes(), b.Bytes()))
		}
	}
}

// TestPDFText: a PDF sets plain ASCII text as text at MinFontSize or more,
// and mathematics and non-ASCII text (σ², Greek, ‖) as outlines, never as
// text the PDF backend would garble.
func TestPDFText(t *testing.T) {
	f := demo()
	f.Panels[0].YLabel = "σ² of the gap"
	var buf bytes.Buffer
	if err := f.Render(&buf, "pdf"); err != nil {
		t.Fatal(err)
	}
	info, err := ReadPDFInfo(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	w, h := f.Size()
	if math.Abs(float64(info.Width-w)) > 0.01 || math.Abs(float64(info.Height-h)) > 0.01 {
		t.Errorf("PDF page %v × %v, Size %v × %v", info.Width, info.Height, w, h)
	}
	if len(info.FontSizes) < 10 {
		t.Fatalf("PDF sets %d runs of text", len(info.FontSizes))
	}
	for _, s := range info.FontSizes {
		if s < MinFontSize {
			t.Errorf("PDF sets text at %v pt, below %v", s, MinFontSize)
		}
	}
	// Tj strings are ASCII: nothing for the backend's code page to garble.
	raw := pdfStreams(t, buf.Bytes())
	for _, m := range regexp.MustCompile(`\((?:[^()\\]|\\.)*\)\s*Tj`).FindAll(raw, -1) {
		for _, b := range m {
			if b >= 0x80 {
				t.Errorf("PDF sets non-ASCII text %q", m)
				break
			}
		}
	}
	if !bytes.Contains(raw, []byte("(of the gap)Tj")) && !bytes.Contains(raw, []byte(" of the gap)Tj")) {
		t.Error("the plain part of a label is not set as text")
	}
}

// pdfStreams returns the decompressed content streams of a PDF.
func pdfStreams(t *testing.T, data []byte) []byte {
	t.Helper()
	var out []byte
	for _, m := range regexp.MustCompile(`(?s)stream\n(.*?)endstream`).FindAllSubmatch(data, -1) {
		r, err := zlib.NewReader(bytes.NewReader(m[1]))
		if err != nil {
			continue
		}
		b, err := io.ReadAll(r)
		if err == nil && bytes.Contains(b, []byte("BT")) {
			out = append(out, b...)
		}
	}
	return out
}

func TestRenderErrors(t *testing.T) {
	for name, f := range map[string]*Figure{
		"too many panels": {Rows: 1, Cols: 1, Panels: []Panel{{}, {}}},
		"no rows":         {Rows: 0, Cols: 1},
		"short Y":         {Rows: 1, Cols: 1, Panels: []Panel{{Series: []Series{{Label: "s", X: []float64{1, 2}, Y: []float64{1}}}}}},
		"short Undefined": {Rows: 1, Cols: 1, Panels: []Panel{{Series: []Series{{Label: "s", X: []float64{1, 2}, Y: []float64{1, 2}, Undefined: []bool{true}}}}}},
	} {
		var buf bytes.Buffer
		err := f.Render(&buf, "png")
		if err == nil || !strings.HasPrefix(err.Error(), "plotfig: ") {
			t.Errorf("%s: error %v, want a plotfig error", name, err)
		}
	}
	var buf bytes.Buffer
	if err := demo().Render(&buf, "gif"); err == nil || !strings.Contains(err.Error(), "gif") {
		t.Errorf("unknown format: error %v", err)
	}
}

func TestSequential(t *testing.T) {
	if Sequential(0, 4).Color == Sequential(3, 4).Color {
		t.Error("sequential ramp does not vary")
	}
	if Sequential(0, 4).Marker == Sequential(1, 4).Marker {
		t.Error("neighbours of a sequential family share a marker")
	}
}

// TestLegendEntries checks that a legend lists each label once, series
// first, then references, spans and the undefined marker.
func TestLegendEntries(t *testing.T) {
	f := demo()
	tg := target{}
	f.numberRefs(&tg)
	es := entries(f.Panels, "", tg)
	var got []string
	for _, e := range es {
		got = append(got, e.label)
	}
	want := []string{f.Panels[0].Series[0].Label, "second", f.Panels[0].Series[2].Label, "constant model, ln 2", "bound undefined", DefaultUndefinedLabel}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("legend %q, want %q", got, want)
	}
}
