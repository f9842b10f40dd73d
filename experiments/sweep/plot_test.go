package sweep

import (
	"bytes"
	"errors"
	"flag"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"gonum.org/v1/plot/vg"

	"github.com/neural-adb/nadb/internal/plotfig"
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

// TestCSVOfRegisteredFigure: a figure with a curve for every registered
// algorithm (Registered) reads a CSV written before an algorithm was
// registered without that curve, and leaves the figure it was read for
// unchanged; a curve missing in one metric only, or any curve of another
// figure, is still an error naming ErrNoPoints.
func TestCSVOfRegisteredFigure(t *testing.T) {
	f := Figure{ID: "t", Metrics: []string{"worst_gap", "avg_regret"}, Seeds: 2, Rows: []Row{{Title: "Square", Curves: []Curve{{Label: "a"}, {Label: "b"}}}}}
	pt := []Point{{T: 0, Mean: 1, Lo: 0.5, Hi: 1.5, N: 2}}
	written := &Table{Figure: Figure{ID: "t", Metrics: f.Metrics, Rows: []Row{{Title: "Square", Curves: []Curve{{Label: "a"}}}}}, Points: [][][][]Point{{{pt, pt}}}}
	var buf bytes.Buffer
	if err := written.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ReadCSV(bytes.NewReader(buf.Bytes())); !errors.Is(err, ErrNoPoints) {
		t.Errorf("figure not Registered: error %v, want ErrNoPoints", err)
	}
	f.Registered = true
	back, err := f.ReadCSV(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Figure.Rows[0].Curves; len(got) != 1 || got[0].Label != "a" || len(back.Points[0]) != 1 {
		t.Errorf("curves read %v with %d point sets, want a alone", got, len(back.Points[0]))
	}
	if len(f.Rows[0].Curves) != 2 {
		t.Errorf("the figure read for lost a curve: %v", f.Rows[0].Curves)
	}
	partial := &Table{Figure: f, Points: [][][][]Point{{{pt, pt}, {pt, nil}}}}
	buf.Reset()
	if err := partial.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ReadCSV(bytes.NewReader(buf.Bytes())); !errors.Is(err, ErrNoPoints) || !strings.Contains(err.Error(), `"avg_regret"`) {
		t.Errorf("a curve without one metric: error %v, want ErrNoPoints naming the metric", err)
	}
}

// TestPrintLayout: the print layout of every figure shows every panel of
// Plot exactly once, in figures of at most three columns and four rows of
// the given width, each with one legend below; Sequential rows with
// different curves are never in one figure; every panel's y axis includes
// the metric's best value.
func TestPrintLayout(t *testing.T) {
	figs, err := Figures(Paper, nil)
	if err != nil {
		t.Fatal(err)
	}
	const width = 6.6 * vg.Inch
	for _, f := range figs {
		tab := &Table{Figure: f, Points: make([][][][]Point, len(f.Rows))}
		for ri, r := range f.Rows {
			tab.Points[ri] = make([][][]Point, len(r.Curves))
			for ci := range r.Curves {
				tab.Points[ri][ci] = make([][]Point, len(f.Metrics))
				for mi := range f.Metrics {
					tab.Points[ri][ci][mi] = []Point{{T: 0, Mean: 0.5, Lo: 0.4, Hi: 0.6, N: 2}, {T: 100, Mean: 0.3, Lo: 0.2, Hi: 0.4, N: 2}}
				}
			}
		}
		web := tab.Plot()
		want := map[string]int{} // panel title without the row prefix → series labels
		count := func(p plotfig.Panel) string {
			var ls []string
			for _, s := range p.Series {
				ls = append(ls, s.Label)
			}
			return strings.Join(ls, "|")
		}
		for _, p := range web.Panels {
			want[count(p)]++
		}
		parts, _ := tab.PrintLayout(width)
		got := map[string]int{}
		for _, part := range parts {
			pf := part.Figure
			if pf.Cols > 3 || pf.Rows > 4 || pf.Width != width || pf.Legend != plotfig.LegendBelow || len(pf.Panels) > pf.Rows*pf.Cols {
				t.Errorf("%s: a part of %d×%d panels, width %v, legend %v", f.ID, pf.Rows, pf.Cols, pf.Width, pf.Legend)
			}
			labels := map[string]bool{}
			for _, p := range pf.Panels {
				got[count(p)]++
				if f.Sequential {
					labels[count(p)] = true
				}
				if !slices.Contains(p.YInclude, BestValue(metricOf(t, f, p))) {
					t.Errorf("%s: panel %q: y axis does not include the best value %v", f.ID, p.Title, BestValue(metricOf(t, f, p)))
				}
			}
			if len(labels) > 1 {
				t.Errorf("%s: a part mixes sequential rows with different curves: %v", f.ID, labels)
			}
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s: print panels %v, want Plot's %v", f.ID, got, want)
		}
	}
}

// metricOf returns the metric a panel of f draws, from its axis label.
func metricOf(t *testing.T, f Figure, p plotfig.Panel) string {
	t.Helper()
	for _, m := range f.Metrics {
		title, axis := MetricLabel(m)
		if axis == p.YLabel && strings.HasSuffix(p.Title, title) {
			return m
		}
	}
	t.Fatalf("%s: no metric titled %q", f.ID, p.Title)
	return ""
}

func TestBestValue(t *testing.T) {
	for m, want := range map[string]float64{"worst_gap": 0, "avg_regret": 0, "test_logloss": 0, "distinct_contexts": 0, "test_accuracy": 1, "test_balanced_accuracy": 1} {
		if got := BestValue(m); got != want {
			t.Errorf("BestValue(%s) = %v, want %v", m, got, want)
		}
	}
}
