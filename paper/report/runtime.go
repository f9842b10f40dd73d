package report

import "fmt"

// runtime writes runtime.tex: the table of figures/speed.md (make speed),
// one paper-scale run per algorithm on one core, and the macros
// speed/ALGO/cpu and speed/ALGO/mb.
func (g *gen) runtime() error {
	const rel = "figures/speed.md"
	doc, err := g.src.read(rel)
	if err != nil {
		return g.placeholder("runtime.tex", err, rel, "make speed", "speed/")
	}
	tables := markdownTables(string(doc))
	if len(tables) == 0 || len(tables[0].header) < 3 || tables[0].header[0] != "algorithm" {
		return fmt.Errorf("report: %s: no table headed \"algorithm | CPU s | peak MB\"", rel)
	}
	t := tables[0]
	for _, r := range t.rows {
		if len(r) < 3 {
			return fmt.Errorf("report: %s: row %q has fewer than 3 cells", rel, r[0])
		}
		g.macros.text("speed/"+Slug(r[0])+"/cpu", r[1])
		g.macros.text("speed/"+Slug(r[0])+"/mb", r[2])
	}
	if err := writeMarkdownTable(g.file("runtime.tex"), &t); err != nil {
		return fmt.Errorf("report: %s: %w", rel, err)
	}
	return nil
}
