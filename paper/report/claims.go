package report

import (
	"fmt"
	"slices"
	"strings"
)

// claimsCSV is the machine-readable claims table that make verify writes
// (verify.WriteCSV).
const claimsCSV = "figures/claims.csv"

// claim is one row of the claims CSV.
type claim struct {
	id, base, reading           string // base: the id without the reading's suffix
	verdict, recorded           string
	agrees                      bool
	text, source, result, power string
	why, err                    string
}

func (s source) readClaims() ([]claim, error) {
	t, err := s.readCSV(claimsCSV, "id", "reading", "verdict", "recorded", "agrees", "claim", "source", "result", "why")
	if err != nil {
		return nil, err
	}
	var out []claim
	for _, r := range t.rows {
		c := claim{
			id: t.str(r, "id"), reading: t.str(r, "reading"), verdict: t.str(r, "verdict"), recorded: t.str(r, "recorded"),
			agrees: t.str(r, "agrees") == "true", text: t.str(r, "claim"), source: t.str(r, "source"),
			result: t.str(r, "result"), power: t.str(r, "power"), why: t.str(r, "why"), err: t.str(r, "error"),
		}
		c.base = strings.TrimSuffix(c.id, "-"+c.reading)
		if c.reading == "fresh" {
			c.text = strings.TrimSuffix(c.text, " — under the fresh-context reading")
		}
		out = append(out, c)
	}
	return out, nil
}

// group is the claim number of an id ("2b" → "2").
func group(id string) string {
	i := 0
	for i < len(id) && id[i] >= '0' && id[i] <= '9' {
		i++
	}
	return id[:i]
}

// verdictTeX is the mark of a verdict (macros of the preamble), flagged
// when it differs from the recorded one.
func verdictTeX(c claim) string {
	var m string
	switch c.verdict {
	case "holds":
		m = `\nadbholds{}`
	case "does not hold":
		m = `\nadbfails{}`
	case "not resolved":
		m = `\nadbnotresolved{}`
	case "undecided":
		m = `\nadbundecided{}`
	default:
		m = `\nadbnotevaluated{}`
	}
	if !c.agrees {
		m += `\nadbdiffers{}`
	}
	return m
}

// claims writes verdict.tex (the verdict grid of page 1), claims.tex (the
// claims table), claims-full.tex (every result in full) and the claim/…
// macros from figures/claims.csv.
func (g *gen) claims() error {
	cs, err := g.src.readClaims()
	if err != nil {
		for _, f := range []string{"verdict.tex", "claims.tex", "claims-full.tex"} {
			if err := g.placeholder(f, err, claimsCSV, "make verify", "claim/"); err != nil {
				return err
			}
		}
		return nil
	}
	for _, c := range cs {
		res, err := Escape(c.result)
		if err != nil {
			return fmt.Errorf("report: %s, claim %s: %w", claimsCSV, c.id, err)
		}
		g.macros.text("claim/"+c.id+"/verdict", c.verdict)
		g.macros.text("claim/"+c.id+"/result", res)
	}
	if err := g.verdictGrid(cs); err != nil {
		return err
	}
	if err := g.claimsTable(cs); err != nil {
		return err
	}
	return g.claimsFull(cs)
}

// verdictGrid: one line per claim number, the verdicts of its claims under
// each reading; the claim numbers' short names are \nadbclaimgroup{N}
// (paper/sections/claimgroups.tex, written by hand).
func (g *gen) verdictGrid(cs []claim) error {
	var groups []string
	cells := map[[2]string][]string{}
	for _, c := range cs {
		gr := group(c.base)
		if !slices.Contains(groups, gr) {
			groups = append(groups, gr)
		}
		k := [2]string{gr, c.reading}
		cells[k] = append(cells[k], c.base+"\\,"+verdictTeX(c))
	}
	b := g.file("verdict.tex")
	b.WriteString("\\begin{tabularx}{\\linewidth}{@{}rL>{\\raggedright\\arraybackslash}p{0.27\\linewidth}>{\\raggedright\\arraybackslash}p{0.2\\linewidth}@{}}\n")
	b.WriteString("& claim of the paper (and ours) & fixed pool & fresh contexts \\\\\n\\midrule\n")
	for _, gr := range groups {
		fixed, fresh := strings.Join(cells[[2]string{gr, "fixed"}], " "), strings.Join(cells[[2]string{gr, "fresh"}], " ")
		if fresh == "" {
			fresh = "--"
		}
		fmt.Fprintf(b, "%s & \\nadbclaimgroup{%s} & %s & %s \\\\\n", gr, gr, fixed, fresh)
	}
	b.WriteString("\\end{tabularx}\n")
	return nil
}

// claimsTable: one row per claim (both readings' verdicts side by side).
func (g *gen) claimsTable(cs []claim) error {
	b := g.file("claims.tex")
	b.WriteString("\\begin{xltabular}{\\linewidth}{@{}lL>{\\raggedright\\arraybackslash}p{0.2\\linewidth}cc@{}}\n")
	b.WriteString(longHead("claims", 5, "id & claim & source & fixed & fresh"))
	fresh := map[string]claim{}
	for _, c := range cs {
		if c.reading == "fresh" {
			fresh[c.base] = c
		}
	}
	for _, c := range cs {
		if c.reading != "fixed" {
			continue
		}
		text, err := Markdown(c.text)
		if err != nil {
			return fmt.Errorf("report: %s, claim %s: %w", claimsCSV, c.id, err)
		}
		src, err := Markdown(c.source)
		if err != nil {
			return fmt.Errorf("report: %s, claim %s: %w", claimsCSV, c.id, err)
		}
		fr := "--"
		if f, ok := fresh[c.base]; ok {
			fr = verdictTeX(f)
		}
		fmt.Fprintf(b, "%s & %s & %s & %s & %s \\\\\n", c.id, text, src, verdictTeX(c), fr)
	}
	b.WriteString("\\bottomrule\n\\end{xltabular}\n")
	return nil
}

// claimsFull: every claim's computed result, the power of its test and the
// recorded verdict with its explanation.
func (g *gen) claimsFull(cs []claim) error {
	b := g.file("claims-full.tex")
	b.WriteString("\\begin{xltabular}{\\linewidth}{@{}l>{\\raggedright\\arraybackslash}p{0.16\\linewidth}L@{}}\n")
	b.WriteString(longHead("claims-full", 3, "id & verdict & result; recorded verdict and why"))
	for _, c := range cs {
		res := c.result
		if c.power != "" {
			res += "; power: " + c.power
		}
		if c.err != "" {
			res = "error: " + c.err
		}
		r, err := Markdown(res)
		if err != nil {
			return fmt.Errorf("report: %s, claim %s: %w", claimsCSV, c.id, err)
		}
		why, err := Markdown(c.recorded + ": " + c.why)
		if err != nil {
			return fmt.Errorf("report: %s, claim %s: %w", claimsCSV, c.id, err)
		}
		v, _ := Escape(c.verdict)
		fmt.Fprintf(b, "%s & %s %s & %s \\newline \\emph{Recorded:} %s \\\\\n", c.id, verdictTeX(c), v, r, why)
	}
	b.WriteString("\\bottomrule\n\\end{xltabular}\n")
	return nil
}
