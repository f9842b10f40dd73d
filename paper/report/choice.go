package report

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// choiceSavings is the savings table of figures/choice (experiments/sweep:
// every learner against its passive twin).
const choiceSavings = "figures/choice/savings.csv"

// choice writes choice-savings.tex (per learner and problem, on the primary
// metric: the learner and its twin at T, labels-to-match with its interval,
// its share of the twin's labels, the verdict) and the macros
// choice/LEARNER/PROBLEM/{learner,twin,match,share,area,verdict}.
func (g *gen) choice() error {
	const file = "choice-savings.tex"
	t, err := g.src.readCSV(choiceSavings, "learner", "problem", "metric", "primary", "t", "seeds", "learner_mean", "learner_ci95_half", "twin_mean", "twin_ci95_half",
		"labels_to_match", "labels_to_match_lo95", "labels_to_match_hi95", "share_of_twin_labels", "area", "area_ci95_half", "verdict")
	if err != nil {
		return g.placeholder(file, err, choiceSavings, "make figures", "choice/")
	}
	var b bytes.Buffer
	b.WriteString("\\begin{tabularx}{\\linewidth}{@{}llrrrrrL@{}}\n\\toprule\n")
	b.WriteString("learner & problem & seeds & learner at $T$ & twin at $T$ & labels-to-match & share & verdict \\\\\n\\midrule\n")
	last := ""
	for _, rec := range t.rows {
		if t.str(rec, "primary") != "true" {
			continue
		}
		var v [10]float64
		for i, c := range []string{"learner_mean", "learner_ci95_half", "twin_mean", "twin_ci95_half", "labels_to_match", "labels_to_match_lo95", "labels_to_match_hi95", "share_of_twin_labels", "area", "area_ci95_half"} {
			if v[i], err = t.num(rec, c); err != nil {
				return err
			}
		}
		T, err := strconv.Atoi(t.str(rec, "t"))
		if err != nil {
			return fmt.Errorf("report: %s: column t: %w", choiceSavings, err)
		}
		learner, problem := t.str(rec, "learner"), t.str(rec, "problem")
		key := "choice/" + Slug(learner) + "/" + Slug(problem)
		match := matchTeX(v[4], v[5], v[6], T)
		share := "never"
		if !math.IsInf(v[4], 1) && !math.IsNaN(v[4]) {
			share = Num(v[7])
		}
		verdict, err := Escape(t.str(rec, "verdict"))
		if err != nil {
			return fmt.Errorf("report: %s: %w", choiceSavings, err)
		}
		g.macros.math(key+"/learner", PM(v[0], v[1]))
		g.macros.math(key+"/twin", PM(v[2], v[3]))
		g.macros.math(key+"/match", match)
		g.macros.text(key+"/share", share)
		g.macros.math(key+"/area", PM(v[8], v[9]))
		g.macros.text(key+"/verdict", verdict)
		name := ""
		if learner != last {
			if name, err = Code(learner); err != nil {
				return err
			}
			if last != "" {
				b.WriteString("\\addlinespace\n")
			}
			last = learner
		}
		p, err := Escape(problem)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s & %s & %s & $%s$ & $%s$ & $%s$ & %s & %s \\\\\n", name, p, t.str(rec, "seeds"), PM(v[0], v[1]), PM(v[2], v[3]), match, share, verdict)
	}
	b.WriteString("\\bottomrule\n\\end{tabularx}\n")
	g.file(file).Write(b.Bytes())
	return nil
}

// matchTeX writes labels-to-match with its interval: "180\ [120, 260]",
// "{>}\,1000" when not reached by T.
func matchTeX(est, lo, hi float64, T int) string {
	f := func(x float64) string {
		switch {
		case math.IsNaN(x):
			return `\text{n/a}`
		case math.IsInf(x, 1):
			return fmt.Sprintf(`{>}\,%d`, T)
		}
		return strconv.FormatFloat(math.Round(x), 'f', -1, 64)
	}
	return strings.Join([]string{f(est), `\ [`, f(lo), `, `, f(hi), `]`}, "")
}
