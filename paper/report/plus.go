package report

import (
	"fmt"
	"strings"
)

// plusSummaries are the summaries of the neural-adb-plus figures (sweep's
// Tables hook writes them beside the figures in figures/plus) that the
// report shows as tables: per problem, the results at the largest T.
var plusSummaries = []string{"plus-main", "plus-fresh", "plus-ablation"}

// plus writes plus-ID.tex for the synthetic plus figures (one table per
// "## problem" section of the summary, under its heading) and
// plus-real-NAME.tex for the held-out real-data ones (as realdata does).
func (g *gen) plus() error {
	for _, id := range plusSummaries {
		rel := "figures/plus/" + id + "-summary.md"
		file := id + ".tex"
		doc, err := g.src.read(rel)
		if err != nil {
			if err := g.placeholder(file, err, rel, "nadb figures -only "+id, "fig/"+id+"/"); err != nil {
				return err
			}
			continue
		}
		sections := strings.Split(string(doc), "\n## ")
		if len(sections) < 2 {
			return fmt.Errorf("report: %s: no \"## problem\" sections", rel)
		}
		b := g.file(file)
		for _, sec := range sections[1:] {
			heading, body, _ := strings.Cut(sec, "\n")
			tables := markdownTables(body)
			if len(tables) == 0 {
				return fmt.Errorf("report: %s: section %q has no table", rel, heading)
			}
			h, err := Escape(strings.TrimSpace(heading))
			if err != nil {
				return fmt.Errorf("report: %s: %w", rel, err)
			}
			fmt.Fprintf(b, "\\par\\smallskip\\noindent\\textit{%s}\\par\\nopagebreak\n", h)
			if err := writeMarkdownTable(b, &tables[0]); err != nil {
				return fmt.Errorf("report: %s: %w", rel, err)
			}
		}
	}
	for _, name := range []string{"cems", "shuttle"} {
		rel := "figures/plus/plus-real-" + name + "-summary.md"
		file := "plus-real-" + name + ".tex"
		doc, err := g.src.read(rel)
		if err != nil {
			if err := g.placeholder(file, err, rel, "nadb figures -only plus-real-"+name, "fig/plus-real-"+name+"/"); err != nil {
				return err
			}
			continue
		}
		if err := g.summaryTables(file, rel, string(doc)); err != nil {
			return err
		}
	}
	return nil
}
