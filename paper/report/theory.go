package report

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The theory checks' committed outputs (nadb theory; package theory).
const (
	theorySummary        = "figures/theory/theorem1_summary.csv"
	theoryEffDim         = "figures/theory/effective_dimension.csv"
	theoryKappa          = "figures/theory/kappa.csv"
	theoryCounterexample = "figures/theory/counterexample.txt"
)

// theory writes theory-verdicts.tex (Theorem 1's verdict per generator and
// reading), theory-counterexample.tex (counterexample.txt) and the theory/…
// macros.
func (g *gen) theory() error {
	if err := g.theoremVerdicts(); err != nil {
		return err
	}
	if err := g.effDim(); err != nil {
		return err
	}
	if err := g.kappa(); err != nil {
		return err
	}
	return g.counterexamples()
}

func (g *gen) theoremVerdicts() error {
	t, err := g.src.readCSV(theorySummary, "generator", "dim", "empirical_slope", "empirical_slope_ci", "claim", "verdict", "first_fail_T")
	if err != nil {
		return g.placeholder("theory-verdicts.tex", err, theorySummary, "nadb theory", "theory/theorem1/")
	}
	var gens, claims []string
	cell := map[[2]string]string{}
	slope := map[string]string{}
	for _, rec := range t.rows {
		gn, c := t.str(rec, "generator"), t.str(rec, "claim")
		if !slices.Contains(gens, gn) {
			gens = append(gens, gn)
			s, err := numCol(t, rec, "empirical_slope")
			if err != nil {
				return err
			}
			slope[gn] = fmt.Sprintf("%s & $%s$", t.str(rec, "dim"), s)
		}
		if !slices.Contains(claims, c) {
			claims = append(claims, c)
		}
		v := t.str(rec, "verdict")
		switch v {
		case "fails":
			v = `\nadbfails{} from ` + t.str(rec, "first_fail_T")
		case "holds":
			v = `\nadbholds{}`
		}
		cell[[2]string{gn, c}] = v
		g.macros.text("theory/theorem1/"+gn+"/"+c, v)
	}
	b := g.file("theory-verdicts.tex")
	fmt.Fprintf(b, "\\begin{tabularx}{\\linewidth}{@{}Lrr*{%d}{l}@{}}\n\\toprule\n", len(claims))
	b.WriteString("sequence & $d$ & slope")
	for _, c := range claims {
		cc, _ := Code(c)
		b.WriteString(" & " + cc)
	}
	b.WriteString(" \\\\\n\\midrule\n")
	for _, gn := range gens {
		name, _ := Code(gn)
		b.WriteString(name + " & " + slope[gn])
		for _, c := range claims {
			b.WriteString(" & " + cell[[2]string{gn, c}])
		}
		b.WriteString(" \\\\\n")
	}
	b.WriteString("\\bottomrule\n\\end{tabularx}\n")
	return nil
}

// effDim sets theory/effdim/ALGO/… at each algorithm's largest T.
func (g *gen) effDim() error {
	t, err := g.src.readCSV(theoryEffDim, "algorithm", "T", "d_tilde", "d_tilde_ci", "max_norm_pool", "max_norm_pool_ci", "literal_bound_L2I", "distinct_contexts")
	if err != nil {
		return g.pend(err, theoryEffDim, "nadb theory", "theory/effdim/")
	}
	last := map[string][]string{}
	lastT := map[string]int{}
	for _, rec := range t.rows {
		a := t.str(rec, "algorithm")
		n, err := strconv.Atoi(t.str(rec, "T"))
		if err != nil {
			return fmt.Errorf("report: %s: T %q is not an integer", theoryEffDim, t.str(rec, "T"))
		}
		if n >= lastT[a] {
			lastT[a], last[a] = n, rec
		}
	}
	for a, rec := range last {
		k := "theory/effdim/" + a
		g.macros.math(k+"/T", strconv.Itoa(lastT[a]))
		for _, c := range []string{"d_tilde", "max_norm_pool", "literal_bound_L2I", "distinct_contexts"} {
			v, err := numCol(t, rec, c)
			if err != nil {
				return err
			}
			if t.str(rec, c) == "undefined" {
				v = `\text{undefined}`
			}
			g.macros.math(k+"/"+c, v)
		}
	}
	return nil
}

// kappa sets theory/kappa/PROBLEM/COLUMN for every column of kappa.csv.
func (g *gen) kappa() error {
	t, err := g.src.readCSV(theoryKappa, "problem")
	if err != nil {
		return g.pend(err, theoryKappa, "nadb theory", "theory/kappa/")
	}
	for _, rec := range t.rows {
		for _, c := range t.header[1:] {
			v, err := numCol(t, rec, c)
			if err != nil {
				return err
			}
			g.macros.math("theory/kappa/"+t.str(rec, "problem")+"/"+c, v)
		}
	}
	return nil
}

var (
	ceBlock = regexp.MustCompile(`^\[([A-Za-z0-9-]+)\] (.*)$`)
	ceFails = regexp.MustCompile(`fails for d = (\d+), T = (\d+)`)
	ceBound = regexp.MustCompile(`^Bound L/G_T = ([0-9.e+-]+) < ([0-9.e+-]+) = max`)
	ceAll   = regexp.MustCompile(`^T = (\d+): violated by (\d+) of (\d+) sequences`)
	ceMStar = regexp.MustCompile(`^T = (\d+): M\* = ([0-9.e+-]+)`)
	ceParam = regexp.MustCompile(`λ = ([0-9.]+), L = ([0-9.]+), δ = ([0-9.]+)`)
	ceDim   = regexp.MustCompile(`^d = (\d+), λ = `)
)

// counterexamples writes counterexample.txt as LaTeX text, block by block,
// and sets theory/counterexample/BLOCK/…: d and T of a failing sequence,
// its bound and maximum norm; for sampled sequences the first T from which
// every sequence violates the statement (/all-from) and their number; for
// the monotonicity table M* per T (/T=N/mstar, and /mstar, /mstar-T at the
// largest T); and theory/counterexample/{lambda,L,delta} of the checks.
func (g *gen) counterexamples() error {
	doc, err := g.src.read(theoryCounterexample)
	if err != nil {
		return g.placeholder("theory-counterexample.tex", err, theoryCounterexample, "nadb theory", "theory/counterexample/")
	}
	b := g.file("theory-counterexample.tex")
	b.WriteString("\\begin{nadbtext}\n")
	block := ""
	allFrom, seen := map[string]bool{}, map[string]bool{}
	params := false
	for line := range strings.SplitSeq(strings.TrimRight(string(doc), "\n"), "\n") {
		if m := ceBlock.FindStringSubmatch(line); m != nil {
			block = m[1]
			seen[block] = true
			title, err := Escape(m[2])
			if err != nil {
				return fmt.Errorf("report: %s: %w", theoryCounterexample, err)
			}
			fmt.Fprintf(b, "\\nadbtexthead{%s}{%s}\n", block, title)
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		k := "theory/counterexample/" + block
		if m := ceFails.FindStringSubmatch(line); m != nil && block != "" {
			g.macros.math(k+"/d", m[1])
			g.macros.math(k+"/T", m[2])
		}
		if m := ceBound.FindStringSubmatch(line); m != nil && block != "" {
			bound, _ := strconv.ParseFloat(m[1], 64)
			norm, _ := strconv.ParseFloat(m[2], 64)
			g.macros.math(k+"/bound", sig(bound, 4))
			g.macros.math(k+"/maxnorm", sig(norm, 4))
		}
		if m := ceAll.FindStringSubmatch(line); m != nil && block != "" && m[2] == m[3] && !allFrom[block] {
			allFrom[block] = true
			g.macros.math(k+"/all-from", m[1])
			g.macros.math(k+"/sequences", m[3])
		}
		if m := ceMStar.FindStringSubmatch(line); m != nil && block != "" {
			x, _ := strconv.ParseFloat(m[2], 64)
			g.macros.math(k+"/T="+m[1]+"/mstar", sig(x, 3))
			g.macros.math(k+"/mstar", sig(x, 3)) // the last, largest T wins
			g.macros.math(k+"/mstar-T", m[1])
		}
		if m := ceParam.FindStringSubmatch(line); m != nil && !params {
			params = true
			g.macros.math("theory/counterexample/lambda", m[1])
			g.macros.math("theory/counterexample/L", m[2])
			g.macros.math("theory/counterexample/delta", m[3])
		}
		if m := ceDim.FindStringSubmatch(line); m != nil && block != "" {
			g.macros.math(k+"/d", m[1])
		}
		text, err := Escape(strings.TrimLeft(line, " "))
		if err != nil {
			return fmt.Errorf("report: %s: %w", theoryCounterexample, err)
		}
		indent := ""
		if strings.HasPrefix(line, "  ") {
			indent = "\\quad "
		}
		fmt.Fprintf(b, "%s%s\\par\n", indent, text)
	}
	b.WriteString("\\end{nadbtext}\n")
	// A counterexample.txt written before the theory code had a block the
	// prose cites is stale: the block is pending until nadb theory reruns.
	for _, blk := range ceBlocks {
		if !seen[blk] {
			rel := theoryCounterexample + " (block [" + blk + "])"
			if err := g.pend(missing(rel), rel, "nadb theory", "theory/counterexample/"+blk+"/"); err != nil {
				return err
			}
		}
	}
	return nil
}

// ceBlocks are the blocks of counterexample.txt whose numbers the prose
// cites (theory.Results.writeCounterexamples and writeRobust write them).
var ceBlocks = []string{"literal", "non-degenerate", "continuous-random", "monotonicity"}
