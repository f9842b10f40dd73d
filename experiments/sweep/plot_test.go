package sweep

import (
	"bytes"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var replot = flag.String("replot", "", "directory to write the figures re-plotted from the committed CSVs under figures/ into")

// TestReplotCommitted re-plots every figure whose CSV is committed under
// figures/ with the current figure list and styles: the CSV reads back
// into the figure, and the figure draws. With -replot DIR the PNG, SVG and
// PDF are written to DIR for looking at (never into figures/).
func TestReplotCommitted(t *testing.T) {
	figs, err := Figures(Paper, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range figs {
		path := filepath.Join("..", "..", "figures", f.Dir, f.ID+".csv")
		data, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		tab, err := f.ReadCSV(bytes.NewReader(data))
		if errors.Is(err, ErrNoPoints) {
			// A curve added since the figure was last made (a newly
			// registered algorithm): the next "make figures" writes it.
			t.Logf("%s: committed CSV predates the figure's curves: %v", f.ID, err)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", f.ID, err)
			continue
		}
		n++
		pf := tab.Plot()
		if *replot != "" {
			if _, err := pf.Save(filepath.Join(*replot, f.ID)); err != nil {
				t.Errorf("%s: %v", f.ID, err)
			}
			continue
		}
		var buf bytes.Buffer
		if err := pf.Render(&buf, "svg"); err != nil {
			t.Errorf("%s: %v", f.ID, err)
		}
	}
	if n == 0 {
		t.Skip("no committed figure CSVs")
	}
}

// TestPlotMarksScale checks that figures at any scale but Paper carry a
// title and watermark naming the scale, and paper figures none, and that
// bands are drawn as the interval says (a negative lower end stays).
func TestPlotMarksScale(t *testing.T) {
	f := Figure{ID: "t", Metrics: []string{"worst_gap"}, Seeds: 2, Rows: []Row{{Title: "Square", Curves: []Curve{{Label: "random", Spec: Base(Quick, "random")}}}}}
	pts := []Point{{T: 0, Mean: 1, Lo: -0.5, Hi: 2.5, N: 2}, {T: 20, Mean: 0.5, Lo: -1, Hi: 2, N: 2}}
	tab := &Table{Figure: f, Points: [][][][]Point{{{pts}}}}
	for _, tc := range []struct {
		scale string
		mark  bool
	}{{"", false}, {Paper.Name, false}, {Quick.Name, true}, {Reduced.Name, true}} {
		tab.Figure.Scale = tc.scale
		pf := tab.Plot()
		if got := pf.Title != "" && pf.Watermark != ""; got != tc.mark {
			t.Errorf("scale %q: title %q, watermark %q; want marked %v", tc.scale, pf.Title, pf.Watermark, tc.mark)
		}
		if lo := pf.Panels[0].Series[0].Lo; lo[1] != -1 {
			t.Errorf("scale %q: band lower end %v, want the interval's -1", tc.scale, lo[1])
		}
	}
	if *replot != "" {
		figs, err := Figures(Quick, []string{"fig1-main"})
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join("..", "..", "figures", "fig1-main.csv"))
		if err != nil {
			t.Skip(err)
		}
		paper, _ := Figures(Paper, []string{"fig1-main"})
		tab, err := paper[0].ReadCSV(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		tab.Figure.Scale, tab.Figure.Seeds = figs[0].Scale, figs[0].Seeds
		if _, err := tab.Plot().Save(filepath.Join(*replot, "fig1-main-quick-marking")); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCSVRoundTrip checks that ReadCSV reads back what WriteCSV wrote, and
// names what does not fit the figure.
func TestCSVRoundTrip(t *testing.T) {
	f := Figure{ID: "t", Metrics: []string{"worst_gap", "avg_regret"}, Seeds: 2, Rows: []Row{{Title: "Square", Curves: []Curve{{Label: "a"}, {Label: "b"}}}}}
	tab := &Table{Figure: f, Points: [][][][]Point{{
		{{{T: 0, Mean: 1, Lo: 0.5, Hi: 1.5, N: 2}}, {{T: 0, Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), N: 0}}},
		{{{T: 0, Mean: 0.1, Lo: -0.2, Hi: 0.4, N: 2}}, {{T: 0, Mean: 3, Lo: 2, Hi: 4, N: 2}}},
	}}}
	var buf bytes.Buffer
	if err := tab.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := f.ReadCSV(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(tab.Points, back.Points, cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("round trip (-wrote +read):\n%s", diff)
	}
	other := f
	other.Rows = []Row{{Title: "Sine", Curves: f.Rows[0].Curves}}
	if _, err := other.ReadCSV(bytes.NewReader(buf.Bytes())); err == nil || !strings.Contains(err.Error(), `"Square"`) {
		t.Errorf("CSV of another row: error %v, want one naming the row", err)
	}
}
