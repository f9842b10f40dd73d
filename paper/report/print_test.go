package report

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/internal/plotfig"
)

// page is the text block of the report in points, from the geometry of
// paper/preamble.tex.
type page struct{ width, height float64 }

var (
	geometryLine = regexp.MustCompile(`\\usepackage\[([^\]]*)\]\{geometry\}`)
	geometryKey  = regexp.MustCompile(`(\w+)=([0-9.]+)cm`)
)

// textBlock reads the text width and height of A4 less the margins that
// the preamble's geometry sets.
func textBlock(t *testing.T, preamble string) page {
	t.Helper()
	m := geometryLine.FindStringSubmatch(preamble)
	if m == nil || !strings.Contains(m[1], "a4paper") {
		t.Fatal("paper/preamble.tex: no \\usepackage[a4paper,…]{geometry} to read the text block from")
	}
	cm := map[string]float64{}
	for _, kv := range geometryKey.FindAllStringSubmatch(m[1], -1) {
		cm[kv[1]], _ = strconv.ParseFloat(kv[2], 64)
	}
	side := func(k string) float64 {
		if v, ok := cm[k]; ok {
			return v
		}
		if v, ok := cm["margin"]; ok {
			return v
		}
		t.Fatalf("paper/preamble.tex: geometry sets neither %s nor margin", k)
		return 0
	}
	const ptPerCm = 72.27 / 2.54 // TeX points
	return page{
		width:  (21.0 - side("left") - side("right")) * ptPerCm,
		height: (29.7 - side("top") - side("bottom")) * ptPerCm,
	}
}

var (
	includeGraphics = regexp.MustCompile(`\\includegraphics\s*(\[[^\]]*\])?\s*\{`)
	usePrint        = regexp.MustCompile(`\\nadbprint\{([^{}]+)\}`)
	useFigure       = regexp.MustCompile(`\\nadbfigure\{([^{}]+)\}`)
)

// printProblems returns what would make a figure's PDF unreadable in
// print when included at its natural size: wider or taller than the text
// block, or text set below plotfig.MinFontSize (tick labels are the
// smallest text a figure sets).
func printProblems(pdf []byte, p page) []string {
	info, err := plotfig.ReadPDFInfo(pdf)
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	// vg points are PostScript points (1/72 in); TeX's are 1/72.27 in.
	w, h := info.Width.Points()*72.27/72, info.Height.Points()*72.27/72
	if w > p.width+0.01 {
		out = append(out, fmt.Sprintf("%.0f pt wide, wider than the text (%.0f pt): it would be scaled down", w, p.width))
	}
	if h > p.height+0.01 {
		out = append(out, fmt.Sprintf("%.0f pt tall, taller than the text block (%.0f pt): it would be scaled down", h, p.height))
	}
	if len(info.FontSizes) == 0 {
		out = append(out, "sets no text (is it a figure drawn by plotfig?)")
	}
	small := map[float64]int{}
	for _, s := range info.FontSizes {
		if s < plotfig.MinFontSize {
			small[s]++
		}
	}
	for s, n := range small {
		out = append(out, fmt.Sprintf("sets %d runs of text at %g pt, below %d pt", n, s, plotfig.MinFontSize))
	}
	return out
}

// TestFiguresPrintReadable: every figure the report includes prints its
// tick labels and every other text at 7 pt or more. The preamble includes
// figures only at their natural size (\nadbprint, \nadbfigure), so each
// figure's PDF must fit the text block and set no text below
// plotfig.MinFontSize; no other file includes graphics directly.
func TestFiguresPrintReadable(t *testing.T) {
	pre, err := os.ReadFile(filepath.Join(root, "paper", "preamble.tex"))
	if err != nil {
		t.Fatal(err)
	}
	preamble := stripComments(string(pre))
	block := textBlock(t, preamble)
	for _, m := range includeGraphics.FindAllStringSubmatch(preamble, -1) {
		if m[1] != "" {
			t.Errorf("paper/preamble.tex includes a figure with %s: figures are included at their natural size, drawn for the page", m[1])
		}
	}
	_, files := generated(t)
	made := map[string][]byte{}
	texts := proseFiles(t)
	for _, f := range files {
		made[f.Name] = f.Data
		if strings.HasSuffix(f.Name, ".tex") {
			texts["paper/generated/"+f.Name] = stripComments(string(f.Data))
		}
	}
	checked := 0
	check := func(where, name string, pdf []byte) {
		checked++
		for _, p := range printProblems(pdf, block) {
			t.Errorf("%s: figure %s %s", where, name, p)
		}
	}
	for name, text := range texts {
		if name != "paper/preamble.tex" && includeGraphics.MatchString(text) {
			t.Errorf("%s includes graphics directly: use \\nadbprint or \\nadbfigure, which include figures at their natural size", name)
		}
		for _, m := range usePrint.FindAllStringSubmatch(text, -1) {
			pdf, ok := made[m[1]+".pdf"]
			if !ok {
				t.Errorf("%s: \\nadbprint{%s}: Generate makes no %s.pdf", name, m[1], m[1])
				continue
			}
			check(name, "paper/generated/"+m[1]+".pdf", pdf)
		}
		for _, m := range useFigure.FindAllStringSubmatch(text, -1) {
			rel := filepath.Join(root, "paper", filepath.FromSlash(m[1])+".pdf")
			pdf, err := os.ReadFile(rel)
			if os.IsNotExist(err) {
				continue // not generated yet: the report shows a placeholder
			}
			if err != nil {
				t.Fatal(err)
			}
			check(name, m[1]+".pdf", pdf)
		}
	}
	if checked == 0 {
		t.Fatal("the report includes no figure")
	}
	t.Logf("%d figures checked against the %.0f × %.0f pt text block and %d-pt text", checked, block.width, block.height, plotfig.MinFontSize)
}

// TestPrintProblemsCatchesLandscape: the check fails for a figure laid out
// for a screen (figures/fig1-main.pdf, eight panels in a row of four),
// which would have to shrink to fit the page.
func TestPrintProblemsCatchesLandscape(t *testing.T) {
	pdf, err := os.ReadFile(filepath.Join(root, "figures", "fig1-main.pdf"))
	if err != nil {
		t.Skip(err)
	}
	if ps := printProblems(pdf, page{width: 481.89, height: 736.16}); len(ps) == 0 {
		t.Error("a landscape figure 10.7 in wide passes the print check")
	}
}
