package report

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/neural-adb/nadb/experiments/sweep"
	"github.com/neural-adb/nadb/internal/plotfig"
)

// Figures in print. The figures under figures/ are laid out for a screen
// (every metric of a problem in one row); scaled into the report's text
// width their 7-pt labels would print at 4–5 pt. The report shows instead,
// for every figure of sweep.FigureSpecs, its print layout
// (sweep.Table.PrintLayout: at most three columns and four rows of panels,
// plotfig.TextWidth wide) drawn from the committed CSV into
// paper/generated/print-ID-K.pdf, and includes it at its natural size
// (\nadbprint in paper/preamble.tex), so that every text prints at the size
// it was set in, at least plotfig.MinFontSize. The test of this package
// checks every figure the report includes for that.

// floatHeight is the most a float of figure parts holds: the text height
// (25.9 cm) less room for a caption of several lines.
const floatHeight = 600 // points

// printedPart is one generated figure file of a figure's print layout.
type printedPart struct {
	name   string // file stem in paper/generated
	title  string // LaTeX, "" for none
	height vg.Length
}

// printFigure writes the print layout of f, read from its committed CSV,
// as print-ID-K.pdf, and figure-ID.tex: the parts in as few floats as fit
// the page, the first with the caption and label, the others continuing it.
func (g *gen) printFigure(f sweep.Figure, caption string) error {
	rel := figurePath(f) + ".csv"
	data, err := g.src.read(rel)
	if err != nil {
		return err
	}
	tab, err := f.ReadCSV(bytes.NewReader(data))
	if err != nil {
		return err
	}
	layout, placement := tab.PrintLayout(plotfig.TextWidth)
	var parts []printedPart
	for k, p := range layout {
		name := fmt.Sprintf("print-%s-%d", f.ID, k+1)
		var buf bytes.Buffer
		if err := p.Figure.Render(&buf, "pdf"); err != nil {
			return fmt.Errorf("report: print layout of %s: %w", f.ID, err)
		}
		g.file(name + ".pdf").Write(buf.Bytes())
		title, err := Escape(p.Title)
		if err != nil {
			return err
		}
		_, h := p.Figure.Size()
		parts = append(parts, printedPart{name: name, title: title, height: h})
	}
	g.figureFloats(f.ID, parts, placed(caption, placement)+" "+bandsSentence(tab))
	return nil
}

// placed rewrites the positions a caption gives for Plot's layout ("Square
// (top) and Sine (bottom)", "K = 5, 10, 15 (rows)") for where the print
// layout put the rows of panels.
func placed(caption string, p sweep.RowPlacement) string {
	var r *strings.Replacer
	switch p {
	case sweep.RowsAsColumns:
		r = strings.NewReplacer("(top)", "(left)", "(bottom)", "(right)", "(rows)", "(columns)")
	case sweep.RowsAsParts:
		r = strings.NewReplacer("(top)", "(a)", "(bottom)", "(b)", "(rows)", "(a, b, …)")
	default:
		return caption
	}
	return r.Replace(caption)
}

// figureFloats writes figure-ID.tex: parts packed greedily into floats of
// at most floatHeight, lettered (a), (b), … where they have titles.
func (g *gen) figureFloats(id string, parts []printedPart, caption string) {
	var floats [][]printedPart
	var h vg.Length
	for _, p := range parts {
		ph := p.height
		if p.title != "" {
			ph += vg.Points(14)
		}
		if n := len(floats); n == 0 || h+ph > vg.Points(floatHeight) {
			floats = append(floats, nil)
			h = 0
		}
		floats[len(floats)-1] = append(floats[len(floats)-1], p)
		h += ph + vg.Points(6)
	}
	b := g.file("figure-" + id + ".tex")
	letter := 'a'
	for i, fl := range floats {
		b.WriteString("\\nadbfigbegin")
		if i > 0 {
			b.WriteString("\\ContinuedFloat")
		}
		b.WriteString("\\centering\n")
		for j, p := range fl {
			if j > 0 {
				b.WriteString("\\par\\medskip\n")
			}
			if p.title != "" {
				fmt.Fprintf(b, "\\nadbparttitle{(%c) %s}\n", letter, p.title)
				letter++
			}
			fmt.Fprintf(b, "\\nadbprint{%s}\n", p.name)
		}
		if i == 0 {
			fmt.Fprintf(b, "\\caption{%s}\\label{fig:%s}\n", caption, id)
		} else {
			b.WriteString("\\caption[]{(continued)}\n")
		}
		b.WriteString("\\end{figure}\n")
	}
}

// bandsSentence says what a figure's lines and bands are, with the number
// of seeds its CSV holds.
func bandsSentence(tab *sweep.Table) string {
	lo, hi := 0, 0
	for _, row := range tab.Points {
		for _, curve := range row {
			for _, pts := range curve {
				for _, p := range pts {
					if p.N == 0 {
						continue
					}
					if lo == 0 || p.N < lo {
						lo = p.N
					}
					hi = max(hi, p.N)
				}
			}
		}
	}
	n := fmt.Sprintf("%d seeds", hi)
	if lo < hi {
		n = fmt.Sprintf("%d seeds (as few as %d where a seed's value is undefined)", hi, lo)
	}
	return fmt.Sprintf("Lines are means over %s, bands their 95\\%% t-intervals; every y axis includes the metric's best value (0, or 1 for accuracies).", n)
}

// seedsText describes how many seeds the rows of a table (one per
// generator or algorithm and checkpoint) were run with: "200 seeds", or
// "200 seeds, 20 for \nadbcode{a} and \nadbcode{b}" when some differ.
func seedsText(t *table, nameCol, seedsCol string) string {
	count := map[string]int{}
	var order []string
	names := map[string][]string{}
	for _, rec := range t.rows {
		s := t.str(rec, seedsCol)
		if _, ok := count[s]; !ok {
			order = append(order, s)
		}
		count[s]++
		n := t.str(rec, nameCol)
		if !slices.Contains(names[s], n) {
			names[s] = append(names[s], n)
		}
	}
	if len(order) == 0 {
		return ""
	}
	most := order[0]
	for _, s := range order {
		if count[s] > count[most] {
			most = s
		}
	}
	out := most + " seeds"
	var others []string
	for _, s := range order {
		if s == most {
			continue
		}
		var codes []string
		for _, n := range names[s] {
			c, _ := Code(n)
			codes = append(codes, c)
		}
		others = append(others, s+" for "+strings.Join(codes, " and "))
	}
	if len(others) > 0 {
		out += ", " + strings.Join(others, ", ")
	}
	return out
}

// theoryFigureMacros defines the seeds behind the theory figures' bands
// (theory/figure/theorem1/seeds, theory/figure/effdim/seeds), which their
// captions in the prose cite.
func (g *gen) theoryFigureMacros() error {
	for _, m := range []struct{ key, rel, name string }{
		{"theory/figure/theorem1/seeds", "figures/theory/theorem1.csv", "generator"},
		{"theory/figure/effdim/seeds", theoryEffDim, "algorithm"},
	} {
		t, err := g.src.readCSV(m.rel, m.name, "seeds")
		if err != nil {
			if err := g.pend(err, m.rel, "nadb theory", m.key); err != nil {
				return err
			}
			continue
		}
		g.macros.text(m.key, seedsText(t, m.name, "seeds"))
	}
	return nil
}
