package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The lock-on study's committed tables (nadb lockon; experiments/lockon).
const (
	lockonMain        = "figures/lockon/main.csv"
	lockonSeeds30     = "figures/lockon/seeds30/main.csv"
	lockonSensitivity = "figures/lockon/sensitivity.csv"
	lockonMechanism   = "figures/lockon/mechanism.csv"
	seeds30Command    = "the command in figures/lockon/seeds30/README.md"
)

// lockon writes lockon-main.tex and lockon-seeds30.tex (the study's main
// tables at 10 and 30 seeds), lockon-sensitivity.tex (the open readings),
// and the lockon/… macros, mechanism and calibration ranges among them.
func (g *gen) lockon() error {
	for _, t := range []struct{ rel, key, file, cmd string }{
		{lockonMain, "main", "lockon-main.tex", "nadb lockon"},
		{lockonSeeds30, "seeds30", "lockon-seeds30.tex", seeds30Command},
	} {
		tab, err := g.src.readCSV(t.rel, "problem", "algorithm", "seeds", "distinct", "top_share", "mean_gap", "mean_gap_ci", "worst_gap", "worst_gap_ci", "holm_less_mean", "holm_less_worst", "passes_bar")
		if err != nil {
			if err := g.placeholder(t.file, err, t.rel, t.cmd, "lockon/"+t.key+"/"); err != nil {
				return err
			}
			continue
		}
		if err := g.lockonTable(tab, t.key, t.file); err != nil {
			return err
		}
	}
	if err := g.mechanism(); err != nil {
		return err
	}
	return g.sensitivity()
}

// numCol formats column c of a record: m ± half-width when the table has
// c_ci, a p-value for p_… and holm_… columns, a number otherwise.
func numCol(t *table, rec []string, c string) (string, error) {
	x, err := t.num(rec, c)
	if err != nil {
		return "", err
	}
	switch {
	case t.has(c + "_ci"):
		h, err := t.num(rec, c+"_ci")
		if err != nil {
			return "", err
		}
		return PM(x, h), nil
	case strings.HasPrefix(c, "p_") || strings.HasPrefix(c, "holm_"):
		return P(x), nil
	}
	return Num(x), nil
}

func (g *gen) lockonTable(t *table, key, file string) error {
	skip := map[string]bool{"problem": true, "algorithm": true, "comparator": true, "repair": true, "passes_bar": true}
	b := g.file(file)
	b.WriteString("\\begin{tabular*}{\\linewidth}{@{\\extracolsep{\\fill}}lrrrrrrl@{}}\n\\toprule\n")
	b.WriteString("algorithm & distinct & top share (\\%) & mean gap & worst gap & Holm $p$, mean & Holm $p$, worst & bar \\\\\n")
	prev := ""
	for _, rec := range t.rows {
		prob, algo := t.str(rec, "problem"), t.str(rec, "algorithm")
		base := fmt.Sprintf("lockon/%s/%s/%s", key, Slug(prob), algo)
		for _, c := range t.header {
			if skip[c] || strings.HasSuffix(c, "_ci") {
				continue
			}
			v, err := numCol(t, rec, c)
			if err != nil {
				return err
			}
			g.macros.math(base+"/"+c, v)
			if strings.HasPrefix(c, "p_") || strings.HasPrefix(c, "holm_") {
				x, _ := t.num(rec, c)
				g.macros.math(base+"/"+c+"/rel", PRel(x))
			}
			if t.has(c + "_ci") {
				x, _ := t.num(rec, c)
				g.macros.math(base+"/"+c+"/mean", Num(x))
			}
		}
		if prob != prev {
			pt, err := Escape(strings.ToUpper(prob[:1]) + prob[1:])
			if err != nil {
				return err
			}
			fmt.Fprintf(b, "\\midrule\n\\multicolumn{8}{@{}l}{\\emph{%s}} \\\\\n", pt)
		}
		prev = prob
		a, err := Code(algo)
		if err != nil {
			return err
		}
		cells := []string{a}
		for _, c := range []string{"distinct", "top_share", "mean_gap", "worst_gap"} {
			v, err := numCol(t, rec, c)
			if err != nil {
				return err
			}
			if c == "top_share" { // as a percentage
				x, _ := t.num(rec, c)
				h := math.NaN()
				if t.has(c + "_ci") {
					h, _ = t.num(rec, c+"_ci")
				}
				v = PM(100*x, 100*h)
			}
			cells = append(cells, "$"+v+"$")
		}
		bar := "--"
		if t.str(rec, "repair") == "true" {
			for _, c := range []string{"holm_less_mean", "holm_less_worst"} {
				v, err := numCol(t, rec, c)
				if err != nil {
					return err
				}
				cells = append(cells, "$"+v+"$")
			}
			bar = map[string]string{"true": "passes", "false": "no"}[t.str(rec, "passes_bar")]
		} else {
			cells = append(cells, "--", "--")
		}
		b.WriteString(strings.Join(append(cells, bar), " & ") + " \\\\\n")
	}
	b.WriteString("\\bottomrule\n\\end{tabular*}\n")
	g.calibration(t, key)
	return nil
}

// calibration sets lockon/KEY/calibration/COL/{min,max}: the range of the
// calibration columns over the rule as written (rows that are not repairs
// and not random-context comparators).
func (g *gen) calibration(t *table, key string) {
	for _, c := range []string{"coverage", "median_err_over_sigma", "nu95", "spearman"} {
		if !t.has(c) {
			continue
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, rec := range t.rows {
			algo := t.str(rec, "algorithm")
			if t.str(rec, "repair") == "true" || strings.HasSuffix(algo, "-randctx") {
				continue
			}
			if x, err := t.num(rec, c); err == nil && !math.IsNaN(x) {
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
		}
		if lo > hi {
			continue
		}
		k := fmt.Sprintf("lockon/%s/calibration/%s", key, c)
		if c == "coverage" {
			g.macros.math(k+"/min", Percent(lo))
			g.macros.math(k+"/max", Percent(hi))
			continue
		}
		g.macros.math(k+"/min", Num(lo))
		g.macros.math(k+"/max", Num(hi))
	}
}

// mechanism sets the lockon/mechanism/… macros from mechanism.csv: the
// number of runs, the ranges of distinct contexts, top-context share and
// duels of the arm rule's own pair, the most duels any run gave the locked
// context's largest-norm pair, and how many runs never queried it.
func (g *gen) mechanism() error {
	t, err := g.src.readCSV(lockonMechanism, "distinct", "top_share", "max_pair_duels", "queried_pair_duels")
	if err != nil {
		return g.pend(err, lockonMechanism, "nadb lockon", "lockon/mechanism/")
	}
	type rng struct{ lo, hi float64 }
	r := map[string]*rng{}
	never := 0
	for _, rec := range t.rows {
		for _, c := range []string{"distinct", "top_share", "max_pair_duels", "queried_pair_duels"} {
			x, err := t.num(rec, c)
			if err != nil {
				return err
			}
			if r[c] == nil {
				r[c] = &rng{x, x}
			}
			r[c].lo, r[c].hi = math.Min(r[c].lo, x), math.Max(r[c].hi, x)
		}
		if x, _ := t.num(rec, "max_pair_duels"); x == 0 {
			never++
		}
	}
	g.macros.math("lockon/mechanism/runs", strconv.Itoa(len(t.rows)))
	g.macros.math("lockon/mechanism/never_queried", strconv.Itoa(never))
	for c, x := range r {
		f := Num
		if c == "top_share" {
			f = Percent
		}
		g.macros.math("lockon/mechanism/"+c+"/min", f(x.lo))
		g.macros.math("lockon/mechanism/"+c+"/max", f(x.hi))
	}
	return nil
}

// sensitivity writes lockon-sensitivity.tex: the rule as written under
// every open reading against random contexts.
func (g *gen) sensitivity() error {
	t, err := g.src.readCSV(lockonSensitivity, "reading", "problem", "distinct", "top_share", "mean_gap", "mean_gap_ci", "randctx_mean_gap", "randctx_mean_gap_ci", "p_randctx_better_mean")
	if err != nil {
		return g.placeholder("lockon-sensitivity.tex", err, lockonSensitivity, "nadb lockon", "lockon/sensitivity/")
	}
	b := g.file("lockon-sensitivity.tex")
	b.WriteString("\\begin{xltabular}{\\linewidth}{@{}Llrrrrr@{}}\n")
	b.WriteString(longHead("lockon-sensitivity", 7, "reading & problem & distinct & top share & mean gap & random contexts & $p$"))
	for _, rec := range t.rows {
		reading, err := Escape(t.str(rec, "reading"))
		if err != nil {
			return fmt.Errorf("report: %s: %w", lockonSensitivity, err)
		}
		cells := []string{reading, t.str(rec, "problem")}
		for _, c := range []string{"distinct", "top_share", "mean_gap", "randctx_mean_gap", "p_randctx_better_mean"} {
			v, err := numCol(t, rec, c)
			if err != nil {
				return err
			}
			cells = append(cells, "$"+v+"$")
			g.macros.math(fmt.Sprintf("lockon/sensitivity/%s/%s/%s", Slug(t.str(rec, "reading")), Slug(t.str(rec, "problem")), c), v)
		}
		b.WriteString(strings.Join(cells, " & ") + " \\\\\n")
	}
	b.WriteString("\\bottomrule\n\\end{xltabular}\n")
	return nil
}
