package sweep

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
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
