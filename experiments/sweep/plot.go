package sweep

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/neural-adb/nadb/internal/plotfig"
)

// panelRow is one row of panels: a Row of the figure, or (ByFamily) the
// curves of one algorithm family in it.
type panelRow struct {
	row    int
	title  string // panel title prefix ("" for none)
	family string // legend heading ("" for none)
	curves []int
}

// panelRows lays the figure's rows out as rows of panels.
func (t *Table) panelRows() []panelRow {
	f := t.Figure
	var out []panelRow
	for ri, r := range f.Rows {
		if !f.ByFamily {
			all := make([]int, len(r.Curves))
			for ci := range all {
				all[ci] = ci
			}
			out = append(out, panelRow{row: ri, title: r.Title, curves: all})
			continue
		}
		// Curves in the order of their family's list, the rest in the
		// row's order.
		groups := make([][]int, len(Families)+1)
		for k, fam := range Families {
			for _, a := range fam.Algos {
				for ci, c := range r.Curves {
					if c.Spec.Algorithm == a {
						groups[k] = append(groups[k], ci)
					}
				}
			}
		}
		for ci, c := range r.Curves {
			if FamilyOf(c.Spec.Algorithm) == len(Families) {
				groups[len(Families)] = append(groups[len(Families)], ci)
			}
		}
		first := true
		for k, g := range groups {
			if len(g) == 0 {
				continue
			}
			pr := panelRow{row: ri, curves: g, family: OtherFamily}
			if k < len(Families) {
				pr.family = Families[k].Title
			}
			if first {
				pr.title = r.Title
				first = false
			}
			out = append(out, pr)
		}
	}
	return out
}

// BestValue is the best value a metric can take, which every y axis of the
// metric includes so that a difference is seen against the metric's whole
// scale rather than magnified by an axis that spans only the data: 1 for
// accuracies, 0 for everything else (gaps, regret, log-loss, Copeland
// points, counts and shares, none of which is negative). The level of a
// model that knows nothing is drawn too where the figure knows it (its
// References: accuracy 1/2, log-loss ln 2, the majority class), so an
// accuracy axis spans at least chance to 1 and a log-loss axis 0 to ln 2.
func BestValue(metric string) float64 {
	if higherIsBetter(metric) {
		return 1
	}
	return 0
}

// maxT is the last checkpoint of the figure's curves.
func (t *Table) maxT() int {
	m := 0
	for _, row := range t.Points {
		for _, curve := range row {
			for _, pts := range curve {
				for _, p := range pts {
					m = max(m, p.T)
				}
			}
		}
	}
	return m
}

// minT is the first checkpoint after t = 0 of the figure's curves (where a
// log duel axis starts).
func (t *Table) minT() int {
	m := 0
	for _, row := range t.Points {
		for _, curve := range row {
			for _, pts := range curve {
				for _, p := range pts {
					if p.T > 0 && (m == 0 || p.T < m) {
						m = p.T
					}
				}
			}
		}
	}
	return m
}

// panel draws metric mi of the curves of pr, titled title.
func (t *Table) panel(pr panelRow, mi int, title string, maxT int) plotfig.Panel {
	f := t.Figure
	m := f.Metrics[mi]
	_, axis := MetricLabel(m)
	panel := plotfig.Panel{Title: title, XLabel: "T (number of duels)", YLabel: axis, IntX: true, IntY: IsCount(m), XMin: 0, XMax: float64(maxT),
		YInclude: []float64{BestValue(m)}}
	if f.LogX {
		panel.XLabel = "T (number of duels, log scale)"
		panel.LogX, panel.XMin = true, float64(t.minT())
	}
	for _, ref := range f.References[m] {
		panel.Refs = append(panel.Refs, plotfig.RefLine{Y: ref.Value, Label: ref.Label})
	}
	r := f.Rows[pr.row]
	for k, ci := range pr.curves {
		c := r.Curves[ci]
		s := plotfig.Series{Label: c.Label, Style: StyleOf(c.Spec)}
		if f.Sequential {
			s.Style = plotfig.Sequential(k, len(pr.curves))
		}
		for _, p := range t.Points[pr.row][ci][mi] {
			s.X = append(s.X, float64(p.T))
			s.Y = append(s.Y, p.Mean)
			s.Lo = append(s.Lo, p.Lo)
			s.Hi = append(s.Hi, p.Hi)
		}
		panel.Series = append(panel.Series, s)
	}
	return panel
}

// titled joins a row's title and a metric's title into a panel title.
func titled(row, metric string) string {
	if row == "" {
		return metric
	}
	return row + "\n" + metric
}

// markScale marks a figure made at a scale other than Paper with a title
// and a watermark: its bands come from few seeds.
func (t *Table) markScale(pf *plotfig.Figure) {
	f := t.Figure
	if f.Scale != "" && f.Scale != Paper.Name {
		pf.Title = fmt.Sprintf("%s scale (%d seeds, T = %d): a check of the pipeline, not a result; bands are 95%% t-intervals over %d seeds", f.Scale, f.Seeds, t.maxT(), f.Seeds)
		pf.Watermark = strings.ToUpper(f.Scale) + " SCALE"
	}
}

// Plot lays the table out as in the paper: one row of panels per Row (or per
// algorithm family of a Row, ByFamily), one column per metric, the legend
// outside the panels. Figures at a scale other than Paper carry a title and
// a watermark saying so: their bands come from few seeds.
func (t *Table) Plot() *plotfig.Figure {
	f := t.Figure
	rows := t.panelRows()
	pf := &plotfig.Figure{Rows: len(rows), Cols: len(f.Metrics), ShareY: f.ByFamily}
	// Sequential figures have different curves per row, and family rows
	// different algorithms: each row gets its own legend.
	if f.Sequential || f.ByFamily {
		pf.Legend = plotfig.LegendPerRow
	}
	maxT := t.maxT()
	for _, pr := range rows {
		pf.RowTitles = append(pf.RowTitles, pr.family)
		for mi, m := range f.Metrics {
			title, _ := MetricLabel(m)
			pf.Panels = append(pf.Panels, t.panel(pr, mi, titled(pr.title, title), maxT))
		}
	}
	t.markScale(pf)
	return pf
}

// yRange returns the union of the y extents of panels (data, bands,
// reference lines and YInclude).
func yRange(panels []plotfig.Panel) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	add := func(v float64) {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	for _, p := range panels {
		for _, s := range p.Series {
			for i := range s.Y {
				add(s.Y[i])
				if s.Lo != nil && s.Hi != nil && !math.IsNaN(s.Lo[i]) && !math.IsNaN(s.Hi[i]) {
					add(s.Lo[i])
					add(s.Hi[i])
				}
			}
		}
		for _, r := range p.Refs {
			add(r.Y)
		}
		for _, v := range p.YInclude {
			add(v)
		}
	}
	return lo, hi
}

// PrintPart is one figure of a table's print layout (PrintLayout).
type PrintPart struct {
	// Title names what the part shows when the table is split into parts
	// that each show one row of panels ("" otherwise: the panels' titles
	// say it).
	Title  string
	Figure *plotfig.Figure
}

// RowPlacement is where a print layout puts a figure's rows of panels
// (its Rows, or their families): captions that say "Square (top) and Sine
// (bottom)" of Plot's layout read "left" and "right" in a layout that
// makes them columns.
type RowPlacement int

const (
	// RowsAsRows keeps them rows of panels, as Plot does.
	RowsAsRows RowPlacement = iota
	// RowsAsColumns makes each a column of panels.
	RowsAsColumns
	// RowsAsParts gives each its own figure (PrintPart.Title names it).
	RowsAsParts
)

// Print limits: a printed figure has at most printCols columns and
// printRows rows of panels.
const (
	printCols = 3
	printRows = 4
)

// PrintLayout lays the table out for a printed page of the given text
// width, where the landscape layout of Plot (every metric in one row) would
// have to shrink: each figure is width wide, has at most three columns and
// four rows of panels, and one legend below. Rows of panels (problems,
// settings, algorithm families) become columns and metrics rows; when there
// are more rows than columns allow, metrics stay columns instead, whichever
// takes fewer figures. A table with a single row of panels is a grid of its
// metrics. Sequential rows with different curves (d = 5, 10, … in one row,
// K = 5, 10, … in the next) are never mixed in one figure, so each legend
// holds only its figure's curves. The panels of one metric in the family
// rows of a Row share one y range across figures, as Plot's ShareY does.
// Figures at a scale other than Paper are marked as in Plot. It returns
// the figures and where the rows of panels went (that of the first group
// of rows that share a legend).
func (t *Table) PrintLayout(width vg.Length) ([]PrintPart, RowPlacement) {
	f := t.Figure
	rows := t.panelRows()
	maxT := t.maxT()
	// panels[g][mi] with the row's title prefixed, and the bare metric
	// titles for grids of one row.
	panel := func(g, mi int, withRow bool) plotfig.Panel {
		title, _ := MetricLabel(f.Metrics[mi])
		if withRow {
			title = titled(rowTitle(rows[g]), title)
		}
		return t.panel(rows[g], mi, title, maxT)
	}
	// Shared y ranges of family rows: per Row and metric.
	shared := map[[2]int][2]float64{}
	if f.ByFamily {
		for mi := range f.Metrics {
			byRow := map[int][]plotfig.Panel{}
			for g, pr := range rows {
				byRow[pr.row] = append(byRow[pr.row], panel(g, mi, false))
			}
			for ri, ps := range byRow {
				lo, hi := yRange(ps)
				shared[[2]int{ri, mi}] = [2]float64{lo, hi}
			}
		}
	}
	share := func(p *plotfig.Panel, g, mi int) {
		if r, ok := shared[[2]int{rows[g].row, mi}]; ok && r[1] > r[0] {
			p.YMin, p.YMax = r[0], r[1]
		}
	}
	var parts []PrintPart
	placement, placed := RowsAsRows, false
	place := func(p RowPlacement) {
		if !placed {
			placement, placed = p, true
		}
	}
	for _, class := range t.legendClasses(rows) {
		M := len(f.Metrics)
		if len(class) == 1 {
			place(RowsAsParts)
			g := class[0]
			cols := gridCols(M)
			for _, ms := range chunks(M, cols*printRows) {
				pf := &plotfig.Figure{Cols: min(cols, len(ms)), Legend: plotfig.LegendBelow}
				pf.Rows = (len(ms) + pf.Cols - 1) / pf.Cols
				for _, mi := range ms {
					p := panel(g, mi, false)
					share(&p, g, mi)
					pf.Panels = append(pf.Panels, p)
				}
				title := ""
				if len(rows) > 1 {
					title = rowTitle(rows[g])
				}
				parts = append(parts, PrintPart{Title: title, Figure: pf})
			}
			continue
		}
		G := len(class)
		partsA := ceilDiv(G, printCols) * ceilDiv(M, printRows) // rows of panels as columns
		partsB := ceilDiv(M, printCols) * ceilDiv(G, printRows) // metrics as columns
		if partsA <= partsB {
			place(RowsAsColumns)
			for _, gs := range chunks(G, printCols) {
				for _, ms := range chunks(M, printRows) {
					pf := &plotfig.Figure{Rows: len(ms), Cols: len(gs), Legend: plotfig.LegendBelow}
					for _, mi := range ms {
						for _, gi := range gs {
							p := panel(class[gi], mi, true)
							share(&p, class[gi], mi)
							pf.Panels = append(pf.Panels, p)
						}
					}
					parts = append(parts, PrintPart{Figure: pf})
				}
			}
			continue
		}
		place(RowsAsRows)
		for _, ms := range chunks(M, printCols) {
			for _, gs := range chunks(G, printRows) {
				pf := &plotfig.Figure{Rows: len(gs), Cols: len(ms), Legend: plotfig.LegendBelow}
				for _, gi := range gs {
					for _, mi := range ms {
						p := panel(class[gi], mi, true)
						share(&p, class[gi], mi)
						pf.Panels = append(pf.Panels, p)
					}
				}
				parts = append(parts, PrintPart{Figure: pf})
			}
		}
	}
	for _, p := range parts {
		p.Figure.Width = width
		t.markScale(p.Figure)
	}
	return parts, placement
}

// rowTitle is the title of a row of panels: its family's, for family rows.
func rowTitle(pr panelRow) string {
	if pr.family != "" {
		return pr.family
	}
	return pr.title
}

// legendClasses groups the rows of panels that may share a figure: all of
// them, except that Sequential rows go together only with rows of the same
// curve labels (their styles are by position, so one legend cannot serve
// rows with different labels).
func (t *Table) legendClasses(rows []panelRow) [][]int {
	f := t.Figure
	labels := func(pr panelRow) string {
		var ls []string
		for _, ci := range pr.curves {
			ls = append(ls, f.Rows[pr.row].Curves[ci].Label)
		}
		return strings.Join(ls, "\x00")
	}
	if !f.Sequential {
		all := make([]int, len(rows))
		for i := range all {
			all[i] = i
		}
		return [][]int{all}
	}
	var classes [][]int
	for g, pr := range rows {
		if n := len(classes); n > 0 && labels(rows[classes[n-1][0]]) == labels(pr) {
			classes[n-1] = append(classes[n-1], g)
			continue
		}
		classes = append(classes, []int{g})
	}
	return classes
}

// gridCols is the number of columns of a grid of n metrics: 2 or 3,
// whichever leaves fewer empty cells (2 on a tie), and n itself below 2.
func gridCols(n int) int {
	if n <= 2 {
		return max(n, 1)
	}
	if (3-n%3)%3 < (2-n%2)%2 {
		return 3
	}
	return 2
}

// chunks splits 0..n−1 into consecutive chunks of at most size elements,
// as equal in length as possible.
func chunks(n, size int) [][]int {
	k := ceilDiv(n, size)
	var out [][]int
	for c, start := 0, 0; c < k; c++ {
		l := n / k
		if c < n%k {
			l++
		}
		var idx []int
		for i := start; i < start+l; i++ {
			idx = append(idx, i)
		}
		out = append(out, idx)
		start += l
	}
	return out
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
