package plotfig

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"
)

func demo() *Figure {
	x := []float64{0, 50, 100, 150, 200}
	mk := func(name string, scale float64, style Style) Series {
		y := make([]float64, len(x))
		lo := make([]float64, len(x))
		hi := make([]float64, len(x))
		for i, t := range x {
			y[i] = scale * 10 / math.Sqrt(1+t)
			lo[i], hi[i] = 0.8*y[i], 1.2*y[i]
		}
		y[0] = math.NaN() // skipped, not fatal
		return Series{Label: name, X: x, Y: y, Lo: lo, Hi: hi, Style: style}
	}
	p := Panel{Title: "worst gap", XLabel: "T (duels)", YLabel: "gap", Series: []Series{mk("first", 1, Style{Color: Palette[0]}), mk("second", 2, Style{Color: Palette[6], Dashes: Dashed})}}
	q := p
	q.LogX, q.LogY = true, true
	return &Figure{Rows: 1, Cols: 2, Panels: []Panel{p, q}}
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

func TestSaveSkipsPDFForNonASCII(t *testing.T) {
	dir := t.TempDir()
	f := demo()
	f.Panels[0].YLabel = "σ²"
	paths, err := f.Save(filepath.Join(dir, "fig"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 2 {
		t.Fatalf("wrote %v, want PNG and SVG only", paths)
	}
	if _, err := os.Stat(filepath.Join(dir, "fig.pdf")); !os.IsNotExist(err) {
		t.Fatal("PDF written despite non-ASCII labels")
	}
}

func TestSequential(t *testing.T) {
	if Sequential(0, 4).Color == Sequential(3, 4).Color {
		t.Error("sequential ramp does not vary")
	}
}
