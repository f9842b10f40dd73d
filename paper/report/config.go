package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments/sweep"
)

// config writes config.tex, every configuration field (every open reading
// of the paper) with its default, where the default comes from and what it
// means, from algorithms.Fields, and the config/NAME/default macros.
func (g *gen) config() error {
	b := g.file("config.tex")
	b.WriteString("\\begin{xltabular}{\\linewidth}{@{}>{\\raggedright\\arraybackslash}p{0.17\\linewidth}>{\\raggedright\\arraybackslash}p{0.1\\linewidth}lL@{}}\n")
	b.WriteString(longHead("config", 4, "flag & default & source & meaning"))
	for _, f := range algorithms.Fields() {
		flag, err := Code("-" + f.Name)
		if err != nil {
			return err
		}
		def, err := Code(f.Default)
		if err != nil {
			return err
		}
		help, err := Escape(f.Help)
		if err != nil {
			return fmt.Errorf("report: help of config field %s: %w", f.Name, err)
		}
		if len(f.Enum) > 1 {
			vals, err := Code(strings.Join(f.Enum, ", "))
			if err != nil {
				return err
			}
			help += " (one of " + vals + ")"
		}
		fmt.Fprintf(b, "%s & %s & \\nadbsource{%s} & %s \\\\\n", flag, def, f.Source, help)
		if f.Kind == algorithms.KindInt || f.Kind == algorithms.KindFloat {
			g.macros.math("config/"+f.Name+"/default", f.Default)
		} else {
			g.macros.text("config/"+f.Name+"/default", `\text{`+def+`}`)
		}
	}
	b.WriteString("\\bottomrule\n\\end{xltabular}\n")
	g.scales()
	return nil
}

// scales sets scale/NAME/… for the paper's and the reduced scale
// (sweep.Paper, sweep.Reduced): seeds, T, d, K, contexts, width, the
// network's number of parameters p, and the fresh-context candidates M.
func (g *gen) scales() {
	for _, sc := range []sweep.Scale{sweep.Paper, sweep.Reduced} {
		cfg := algorithms.Default()
		cfg.Width = sc.Width
		k := "scale/" + sc.Name + "/"
		for name, v := range map[string]int{
			"seeds": sc.Seeds, "T": sc.T, "d": sc.Problem.Dim, "K": sc.Problem.Arms, "contexts": sc.Problem.Contexts,
			"width": sc.Width, "depth": cfg.Depth, "p": cfg.Arch(sc.Problem.Dim).NumParams(), "freshM": sc.FreshM(),
		} {
			g.macros.math(k+name, strconv.Itoa(v))
		}
		var ms []string
		for _, m := range sc.Candidates {
			ms = append(ms, strconv.Itoa(m))
		}
		g.macros.math(k+"candidates", strings.Join(ms, ", "))
	}
}
