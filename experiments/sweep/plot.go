package sweep

import (
	"fmt"
	"strings"

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
	maxT := 0
	for _, pr := range rows {
		for _, ci := range pr.curves {
			for _, pts := range t.Points[pr.row][ci] {
				for _, p := range pts {
					maxT = max(maxT, p.T)
				}
			}
		}
	}
	for _, pr := range rows {
		pf.RowTitles = append(pf.RowTitles, pr.family)
		r := f.Rows[pr.row]
		for mi, m := range f.Metrics {
			title, axis := MetricLabel(m)
			if pr.title != "" {
				title = pr.title + "\n" + title
			}
			panel := plotfig.Panel{Title: title, XLabel: "T (number of duels)", YLabel: axis, IntX: true, IntY: IsCount(m), XMin: 0, XMax: float64(maxT)}
			for _, ref := range f.References[m] {
				panel.Refs = append(panel.Refs, plotfig.RefLine{Y: ref.Value, Label: ref.Label})
			}
			for k, ci := range pr.curves {
				c := r.Curves[ci]
				s := plotfig.Series{Label: c.Label, Style: StyleFor(c.Spec.Algorithm)}
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
			pf.Panels = append(pf.Panels, panel)
		}
	}
	if f.Scale != "" && f.Scale != Paper.Name {
		pf.Title = fmt.Sprintf("%s scale (%d seeds, T = %d): a check of the pipeline, not a result; bands are 95%% t-intervals over %d seeds", f.Scale, f.Seeds, maxT, f.Seeds)
		pf.Watermark = strings.ToUpper(f.Scale) + " SCALE"
	}
	return pf
}
