package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
)

// speedBar is the bar we set for neural-adb-plus's cost: at most this many
// times the processor time of the random-context learner per paper-scale run.
const speedBar = 3

// speedBase is the algorithm the per-randctx ratios divide by.
const speedBase = "neural-adb-ucb-randctx"

// runtime writes runtime.tex: the table of figures/speed.md (make speed),
// one paper-scale run per algorithm on one core, and the macros
// speed/ALGO/cpu, speed/ALGO/mb, speed/ALGO/per-randctx (the CPU time over
// the random-context learner's, one decimal) and speed/neural-adb-plus/bar
// ("within" or "more than" the speedBar times we allowed ourselves); then
// the costs/ macros of experiments/sweep/costs.csv.
func (g *gen) runtime() error {
	if err := g.costs(); err != nil {
		return err
	}
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
	cpu := map[string]float64{}
	for _, r := range t.rows {
		if len(r) < 3 {
			return fmt.Errorf("report: %s: row %q has fewer than 3 cells", rel, r[0])
		}
		alg := Slug(r[0])
		g.macros.text("speed/"+alg+"/cpu", r[1])
		g.macros.text("speed/"+alg+"/mb", r[2])
		c, err := strconv.ParseFloat(r[1], 64)
		if err != nil {
			return fmt.Errorf("report: %s: row %q: CPU s %q is not a number", rel, r[0], r[1])
		}
		cpu[alg] = c
	}
	if base := cpu[speedBase]; base > 0 {
		for alg, c := range cpu {
			g.macros.text("speed/"+alg+"/per-randctx", strconv.FormatFloat(c/base, 'f', 1, 64))
		}
		if c, ok := cpu["neural-adb-plus"]; ok {
			word := "within"
			if c/base > speedBar+1e-9 { // the table's two decimals: 1.05 / 0.35 is 3
				word = "more than"
			}
			g.macros.text("speed/neural-adb-plus/bar", word)
		}
	}
	if err := writeMarkdownTable(g.file("runtime.tex"), &t); err != nil {
		return fmt.Errorf("report: %s: %w", rel, err)
	}
	return nil
}

// costs defines costs/FIGURE/ALGO/PROBLEM/mM/cpu, the processor time in
// seconds of seed 1 of a figure's configuration as experiments/sweep/costs.csv
// (make figure-costs) records it, M the candidates per round (0: the fixed
// pool); only for the configurations that one row of the file describes
// (a figure may run one algorithm in two configurations that these columns
// do not tell apart, such as a learner and its passive twin).
func (g *gen) costs() error {
	const rel = "experiments/sweep/costs.csv"
	b, err := g.src.read(rel)
	if err != nil {
		return g.pend(err, rel, "make figure-costs", "costs/")
	}
	r := csv.NewReader(bytes.NewReader(b))
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		return fmt.Errorf("report: %s: %w", rel, err)
	}
	if len(recs) == 0 {
		return fmt.Errorf("report: %s: empty file", rel)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, c := range []string{"figure", "algorithm", "problem", "candidates", "cpu_s"} {
		if _, ok := col[c]; !ok {
			return fmt.Errorf("report: %s: no column %q", rel, c)
		}
	}
	count := map[string]int{}
	val := map[string]float64{}
	for i, rec := range recs[1:] {
		key := "costs/" + strings.Join([]string{
			Slug(rec[col["figure"]]), Slug(rec[col["algorithm"]]), Slug(rec[col["problem"]]), "m" + rec[col["candidates"]],
		}, "/") + "/cpu"
		x, err := strconv.ParseFloat(rec[col["cpu_s"]], 64)
		if err != nil {
			return fmt.Errorf("report: %s: record %d: cpu_s %q is not a number", rel, i+1, rec[col["cpu_s"]])
		}
		count[key]++
		val[key] = x
	}
	for key, n := range count {
		if n == 1 {
			g.macros.math(key, Num(val[key]))
		}
	}
	return nil
}
