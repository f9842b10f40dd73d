package report

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// realData are the real-data benchmarks whose summaries (written beside
// their figures by sweep's Tables hook) the report shows.
var realData = []struct{ name, figure string }{
	{"cems", "real-cems"},
	{"shuttle", "real-shuttle"},
}

// realdata writes realdata-NAME.tex (the summary's table at the largest T
// and its reference rows, rendered from the committed Markdown) and the
// real/NAME/… macros (the summary CSV at its largest T).
func (g *gen) realdata() error {
	for _, r := range realData {
		md := "figures/realdata/" + r.figure + "-summary.md"
		file := "realdata-" + r.name + ".tex"
		doc, err := g.src.read(md)
		if err != nil {
			if err := g.placeholder(file, err, md, "nadb figures -only "+r.figure, "real/"+r.name+"/ref/"); err != nil {
				return err
			}
			continue
		}
		if err := g.summaryTables(file, md, string(doc)); err != nil {
			return err
		}
		if err := g.summaryMacros(r.name, "figures/realdata/"+r.figure+"-summary.csv", r.figure); err != nil {
			return err
		}
	}
	return nil
}

// summaryTables renders the results table with the largest T (its first
// header cell "algorithm (T = …") and the references table (first header
// cell "reference") of a summary.
func (g *gen) summaryTables(file, rel, doc string) error {
	var final, refs *mdTable
	bestT := -1
	for _, t := range markdownTables(doc) {
		h := t.header[0]
		switch {
		case h == "reference":
			refs = &t
		case strings.HasPrefix(h, "algorithm (T = ") && strings.Contains(strings.Join(t.header, " "), "Held-out"):
			n, _ := strconv.Atoi(strings.TrimRight(strings.Fields(strings.TrimPrefix(h, "algorithm (T = "))[0], ",)"))
			if n > bestT {
				bestT, final = n, &t
			}
		}
	}
	if final == nil {
		return fmt.Errorf("report: %s: no table headed \"algorithm (T = …)\" with held-out metrics", rel)
	}
	if refs != nil {
		name := strings.TrimSuffix(strings.TrimPrefix(file, "realdata-"), ".tex")
		for _, r := range refs.rows {
			for i := 1; i < len(r) && i < len(refs.header); i++ {
				v, err := Markdown(r[i])
				if err != nil {
					return fmt.Errorf("report: %s: %w", rel, err)
				}
				g.macros.text(fmt.Sprintf("real/%s/ref/%s/%s", name, Slug(r[0]), Slug(refs.header[i])), v)
			}
		}
	}
	b := g.file(file)
	for _, t := range []*mdTable{final, refs} {
		if t == nil {
			continue
		}
		if err := writeMarkdownTable(b, t); err != nil {
			return fmt.Errorf("report: %s: %w", rel, err)
		}
	}
	return nil
}

// writeMarkdownTable renders a Markdown table: a wrapping first column and
// right-aligned numbers.
func writeMarkdownTable(b *bytes.Buffer, t *mdTable) error {
	fmt.Fprintf(b, "\\begin{tabularx}{\\linewidth}{@{}L*{%d}{r}@{}}\n\\toprule\n", len(t.header)-1)
	row := func(cs []string) error {
		var out []string
		for i, c := range cs {
			if i >= len(t.header) {
				break
			}
			m, err := Markdown(c)
			if err != nil {
				return err
			}
			out = append(out, m)
		}
		for len(out) < len(t.header) {
			out = append(out, "")
		}
		b.WriteString(strings.Join(out, " & ") + " \\\\\n")
		return nil
	}
	if err := row(t.header); err != nil {
		return err
	}
	b.WriteString("\\midrule\n")
	for _, r := range t.rows {
		if err := row(r); err != nil {
			return err
		}
	}
	b.WriteString("\\bottomrule\n\\end{tabularx}\n\n")
	return nil
}

// summaryMacros sets real/NAME/ALGO/METRIC (mean ± half-width at the
// largest T) and its /mean from a summary CSV.
func (g *gen) summaryMacros(name, rel, figure string) error {
	t, err := g.src.readCSV(rel, "algorithm", "t", "metric", "mean", "ci95_half")
	if err != nil {
		return g.pend(err, rel, "nadb figures -only "+figure, "real/"+name+"/")
	}
	last := 0
	for _, rec := range t.rows {
		if n, err := strconv.Atoi(t.str(rec, "t")); err == nil {
			last = max(last, n)
		}
	}
	g.macros.math("real/"+name+"/T", strconv.Itoa(last))
	for _, rec := range t.rows {
		if t.str(rec, "t") != strconv.Itoa(last) {
			continue
		}
		m, err := t.num(rec, "mean")
		if err != nil {
			return err
		}
		h, err := t.num(rec, "ci95_half")
		if err != nil {
			return err
		}
		k := fmt.Sprintf("real/%s/%s/%s", name, curveKey(t.str(rec, "algorithm")), t.str(rec, "metric"))
		g.macros.math(k, PM(m, h))
		g.macros.math(k+"/mean", Num(m))
	}
	return nil
}
