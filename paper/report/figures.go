package report

import (
	"encoding/json"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments/sweep"
)

// figurePath is the committed stem of a figure's files (figures/ID or
// figures/DIR/ID), slash-separated from the repository root.
func figurePath(f sweep.Figure) string { return path.Join("figures", f.Dir, f.ID) }

// curveKey is the key form of a curve label: the registered algorithm it
// names (sweep.DisplayName), an algorithm name followed by a parenthetical
// such as "(ours)" for one not registered in this build, else Slug(label).
func curveKey(label string) string {
	for _, n := range algorithms.Names() {
		if sweep.TwinLabel(n) == label {
			return n + "-twin" // the passive twin, beside its learner
		}
	}
	for _, n := range algorithms.Names() {
		if sweep.DisplayName(n) == label {
			return n
		}
	}
	if i := strings.Index(label, " ("); i > 0 && strings.HasSuffix(label, ")") && !strings.ContainsAny(label[:i], " ,") {
		return label[:i]
	}
	return Slug(label)
}

// point is one (row, curve, metric) of a figure's CSV at its first and its
// last checkpoint.
type point struct {
	first, last   float64 // means
	lo, hi        float64 // the last checkpoint's interval
	tFirst, tLast int
	n             int
}

// series of a figure's CSV in order of first appearance.
type figureCSV struct {
	rows    []string
	curves  map[string][]string // by row
	metrics []string
	pts     map[[3]string]*point
}

func (s source) readFigureCSV(rel string) (*figureCSV, error) {
	t, err := s.readCSV(rel, "row", "curve", "metric", "t", "mean", "ci_low", "ci_high", "n")
	if err != nil {
		return nil, err
	}
	fc := &figureCSV{curves: map[string][]string{}, pts: map[[3]string]*point{}}
	seenRow, seenMetric := map[string]bool{}, map[string]bool{}
	for _, rec := range t.rows {
		row, curve, metric := t.str(rec, "row"), t.str(rec, "curve"), t.str(rec, "metric")
		tt, err := strconv.Atoi(t.str(rec, "t"))
		if err != nil {
			return nil, fmt.Errorf("report: %s: t %q is not an integer", rel, t.str(rec, "t"))
		}
		var v [4]float64
		for i, c := range []string{"mean", "ci_low", "ci_high", "n"} {
			if v[i], err = t.num(rec, c); err != nil {
				return nil, err
			}
		}
		if !seenRow[row] {
			seenRow[row] = true
			fc.rows = append(fc.rows, row)
		}
		if !seenMetric[metric] {
			seenMetric[metric] = true
			fc.metrics = append(fc.metrics, metric)
		}
		k := [3]string{row, curve, metric}
		p, ok := fc.pts[k]
		if !ok {
			p = &point{first: v[0], tFirst: tt, tLast: -1}
			fc.pts[k] = p
			if !slices.Contains(fc.curves[row], curve) {
				fc.curves[row] = append(fc.curves[row], curve)
			}
		}
		if tt < p.tFirst {
			p.first, p.tFirst = v[0], tt
		}
		if tt > p.tLast {
			p.last, p.lo, p.hi, p.tLast, p.n = v[0], v[1], v[2], tt, int(v[3])
		}
	}
	return fc, nil
}

// half is the half-width of the last checkpoint's interval (NaN if none).
func (p *point) half() float64 { return (p.hi - p.lo) / 2 }

// figures writes, for every figure of sweep.FigureSpecs at paper scale,
// figure-ID.tex (the figure with its caption) and, for figures without
// summary tables of their own, final-ID.tex (the final values of every
// curve, one table per row of panels), the fig/… macros, and
// reproduce.tex (one command per figure).
func (g *gen) figures() error {
	figs, err := sweep.Figures(sweep.Paper, nil)
	if err != nil {
		return err
	}
	for _, f := range figs {
		if err := g.figure(f); err != nil {
			return err
		}
	}
	if err := g.theoryFigureMacros(); err != nil {
		return err
	}
	return g.reproduce(figs)
}

func (g *gen) figure(f sweep.Figure) error {
	stem := figurePath(f)
	caption, err := Escape(f.Caption)
	if err != nil {
		return fmt.Errorf("report: caption of %s: %w", f.ID, err)
	}
	src, _ := Code(stem + ".csv")
	paper := "ours"
	if f.Paper != "ours" {
		paper = "the paper's " + f.Paper
	}
	paperTeX, err := Escape(paper)
	if err != nil {
		return err
	}
	caption = fmt.Sprintf("%s (%s; numbers in %s).", strings.TrimSuffix(caption, "."), paperTeX, src)
	cmd := "nadb figures -only " + f.ID
	fc, err := g.src.readFigureCSV(stem + ".csv")
	if err != nil {
		if err := g.pend(err, stem+".csv", cmd, "fig/"+f.ID+"/"); err != nil {
			return err
		}
		g.figurePlaceholder(f.ID, caption, pendingText(stem+".csv", cmd))
		if f.Tables != nil { // its summary tables stand in for final values
			return nil
		}
		return g.placeholder("final-"+f.ID+".tex", err, stem+".csv", cmd, "fig/"+f.ID+"/")
	}
	if err := g.printFigure(f, caption); err != nil {
		// The CSV is well formed but not the figure's (made before a curve
		// was added or after one was removed): the figure waits for the
		// next run; its values are still reported.
		if err := g.pend(missing(stem+".csv"), stem+".csv", cmd, "fig/"+f.ID+"/"); err != nil {
			return err
		}
		p, _ := Code(cmd)
		e, _ := Escape(err.Error())
		g.figurePlaceholder(f.ID, caption, fmt.Sprintf("the figure cannot be drawn from its CSV (%s); %s makes it again.", e, p))
	}
	g.figureMacros(f.ID, fc)
	if f.Tables == nil {
		return g.finalTables(f.ID, fc)
	}
	return nil
}

// figurePlaceholder writes figure-ID.tex as a float with the caption and a
// placeholder saying why the figure is missing.
func (g *gen) figurePlaceholder(id, caption, why string) {
	fmt.Fprintf(g.file("figure-"+id+".tex"), "\\nadbfigbegin\\centering\n\\nadbplaceholder{%s}\n\\caption{%s}\\label{fig:%s}\n\\end{figure}\n", why, caption, id)
}

// figureMacros: fig/ID/T and fig/ID/seeds, and per row, curve and metric
// the final mean ± half-width, the final mean (/mean) and the first
// checkpoint's mean (/t0).
func (g *gen) figureMacros(id string, fc *figureCSV) {
	T, n := 0, 0
	for _, row := range fc.rows {
		for _, c := range fc.curves[row] {
			for _, m := range fc.metrics {
				p, ok := fc.pts[[3]string{row, c, m}]
				if !ok {
					continue
				}
				T, n = max(T, p.tLast), max(n, p.n)
				k := fmt.Sprintf("fig/%s/%s/%s/%s", id, Slug(row), curveKey(c), m)
				g.macros.math(k, PM(p.last, p.half()))
				g.macros.math(k+"/mean", Num(p.last))
				g.macros.math(k+"/t0", Num(p.first))
			}
		}
	}
	g.macros.math("fig/"+id+"/T", strconv.Itoa(T))
	g.macros.math("fig/"+id+"/seeds", strconv.Itoa(n))
}

// finalTables writes final-ID.tex: per row of panels a table of every
// curve's final value of every metric (mean ± 95% t-interval).
func (g *gen) finalTables(id string, fc *figureCSV) error {
	b := g.file("final-" + id + ".tex")
	for _, row := range fc.rows {
		rowTeX, err := Escape(row)
		if err != nil {
			return err
		}
		T, n := 0, 0
		for _, c := range fc.curves[row] {
			for _, m := range fc.metrics {
				if p, ok := fc.pts[[3]string{row, c, m}]; ok {
					T, n = max(T, p.tLast), max(n, p.n)
				}
			}
		}
		fmt.Fprintf(b, "\\begin{nadbvalues}{Figure~\\ref{fig:%s}, %s: final values at $T = %d$ (mean $\\pm$ 95\\%% t-interval, %d seeds)}\n", id, rowTeX, T, n)
		fmt.Fprintf(b, "\\begin{tabularx}{\\linewidth}{@{}L*{%d}{r}@{}}\n\\toprule\n", len(fc.metrics))
		b.WriteString("curve")
		for _, m := range fc.metrics {
			title, _ := sweep.MetricLabel(m)
			t, err := Escape(title)
			if err != nil {
				return err
			}
			fmt.Fprintf(b, " & %s", t)
		}
		b.WriteString(" \\\\\n\\midrule\n")
		for _, c := range fc.curves[row] {
			ct, err := Escape(c)
			if err != nil {
				return err
			}
			b.WriteString(ct)
			for _, m := range fc.metrics {
				p, ok := fc.pts[[3]string{row, c, m}]
				switch {
				case !ok:
					b.WriteString(" & --")
				case math.IsNaN(p.last):
					b.WriteString(" & n/a")
				default:
					fmt.Fprintf(b, " & $%s$", PM(p.last, p.half()))
				}
			}
			b.WriteString(" \\\\\n")
		}
		b.WriteString("\\bottomrule\n\\end{tabularx}\n\\end{nadbvalues}\n")
	}
	return nil
}

// reproduce writes reproduce.tex: the command that makes each figure, its
// files and its number of distinct runs (as nadb figures -list counts them:
// a configuration and seed that two panels or curves of the figure share is
// one run), then the other results.
func (g *gen) reproduce(figs []sweep.Figure) error {
	b := g.file("reproduce.tex")
	b.WriteString("\\begin{longtable}{@{}p{0.42\\linewidth}p{0.42\\linewidth}r@{}}\n")
	b.WriteString(longHead("reproduce", 3, "command & writes & runs"))
	for _, f := range figs {
		cmd, _ := Code("nadb figures -only " + f.ID)
		out, _ := Code(figurePath(f) + ".*")
		fmt.Fprintf(b, "%s & %s & %d \\\\\n", cmd, out, g.figureRuns(f))
	}
	for _, r := range []struct{ cmd, out string }{
		{"nadb theory", "figures/theory/"},
		{"nadb lockon", "figures/lockon/*.{md,csv}"},
		{"make verify", "figures/claims.{md,csv}"},
		{"make paper", "paper/generated/*.tex, paper/report.pdf"},
	} {
		cmd, _ := Code(r.cmd)
		out, _ := Code(r.out)
		fmt.Fprintf(b, "%s & %s & \\\\\n", cmd, out)
	}
	b.WriteString("\\bottomrule\n\\end{longtable}\n")
	return nil
}

// figureRuns is the number of runs of figure f: those its committed
// manifest records for a figure with a curve for every registered algorithm
// (sweep.Figure.Registered; an algorithm registered since is not in the
// committed figure), else, and when the manifest cannot be read, the
// figure's distinct runs (as nadb figures -list counts them: a
// configuration and seed that two panels or curves share is one run).
func (g *gen) figureRuns(f sweep.Figure) int {
	if f.Registered {
		if data, err := g.src.read(figurePath(f) + ".manifest.json"); err == nil {
			var man sweep.Manifest
			if json.Unmarshal(data, &man) == nil {
				return len(man.Runs)
			}
		}
	}
	runs := map[string]bool{}
	for _, j := range f.Jobs() {
		runs[j.Spec.Key()] = true
	}
	return len(runs)
}
