package plotfig

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// fontData matches the base64 fonts embedded in an SVG (half a megabyte
// each, and not ours): the golden SVG keeps everything else.
var fontData = regexp.MustCompile(`base64,[A-Za-z0-9+/=]+`)

// TestGolden renders demo() as PNG and SVG and compares them with
// testdata/golden.{png,svg}: the PNG pixel by pixel (independent of the PNG
// encoder's compression), the SVG as text with the embedded fonts elided.
// Any change to how figures look fails here; look at the new image and
// regenerate with: go test ./internal/plotfig -run TestGolden -update
func TestGolden(t *testing.T) {
	var pngBuf, svgBuf bytes.Buffer
	if err := demo().Render(&pngBuf, "png"); err != nil {
		t.Fatal(err)
	}
	if err := demo().Render(&svgBuf, "svg"); err != nil {
		t.Fatal(err)
	}
	if !fontData.Match(svgBuf.Bytes()) {
		t.Error("SVG has no embedded font")
	}
	svg := fontData.ReplaceAll(svgBuf.Bytes(), []byte("base64,ELIDED"))
	pngPath, svgPath := filepath.Join("testdata", "golden.png"), filepath.Join("testdata", "golden.svg")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(pngPath, pngBuf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(svgPath, svg, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	wantSVG, err := os.ReadFile(svgPath)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(svg, wantSVG) {
		got := filepath.Join(t.TempDir(), "got.svg")
		os.WriteFile(got, svg, 0o644)
		t.Errorf("SVG differs from %s; got %s", svgPath, got)
	}
	wantPNG, err := os.ReadFile(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	a, err := png.Decode(bytes.NewReader(pngBuf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	b, err := png.Decode(bytes.NewReader(wantPNG))
	if err != nil {
		t.Fatal(err)
	}
	if n, total := diffPixels(a, b); n != 0 {
		got := filepath.Join(t.TempDir(), "got.png")
		os.WriteFile(got, pngBuf.Bytes(), 0o644)
		t.Errorf("PNG: %d of %d pixels differ from %s; got %s", n, total, pngPath, got)
	}
}

// diffPixels counts the pixels that differ (all of them if the sizes do).
func diffPixels(a, b image.Image) (n, total int) {
	ra, rb := a.Bounds(), b.Bounds()
	total = ra.Dx() * ra.Dy()
	if ra.Size() != rb.Size() {
		return total, total
	}
	for y := 0; y < ra.Dy(); y++ {
		for x := 0; x < ra.Dx(); x++ {
			r1, g1, b1, a1 := a.At(ra.Min.X+x, ra.Min.Y+y).RGBA()
			r2, g2, b2, a2 := b.At(rb.Min.X+x, rb.Min.Y+y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				n++
			}
		}
	}
	return n, total
}

// TestGoldenCatchesChange checks that the comparison can fail: the figure
// with one series recoloured differs from the golden PNG.
func TestGoldenCatchesChange(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("testdata", "golden.png"))
	if err != nil {
		t.Skip("no golden file yet")
	}
	f := demo()
	f.Panels[0].Series[0].Style.Color = Rose
	var buf bytes.Buffer
	if err := f.Render(&buf, "png"); err != nil {
		t.Fatal(err)
	}
	a, _ := png.Decode(bytes.NewReader(buf.Bytes()))
	b, _ := png.Decode(bytes.NewReader(want))
	if n, _ := diffPixels(a, b); n == 0 {
		t.Error("a recoloured series did not change the PNG")
	}
}
