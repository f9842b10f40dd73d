package verify

import (
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown prints the evaluated claims as a Markdown table.
func WriteMarkdown(w io.Writer, rows []Row) error {
	scale := ""
	if len(rows) > 0 {
		scale = rows[0].Scale
	}
	fmt.Fprintf(w, "# Claims of the paper, tested (%s scale)\n\n", scale)
	fmt.Fprintln(w, "Every verdict below was computed from fresh runs (or their cache) by `nadb verify`; the expected verdict is the one recorded in the claims table in `verify/table.go`, with its justification.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| id | claim | source | statistic | result | verdict | expected |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, r := range rows {
		res := r.Result
		if r.Power != "" {
			res += "; power: " + r.Power
		}
		if r.Err != nil {
			res = "error: " + r.Err.Error()
		}
		mark := ""
		if !r.Agrees() {
			mark = " (differs from expected)"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s. %s | %s | **%s**%s | %s: %s |\n", r.ID, esc(r.Claim.Claim), esc(r.Source), esc(r.Claim.Statistic), esc(r.Test), esc(res), r.Verdict, mark, r.Expected[r.Scale], esc(r.Why))
	}
	return nil
}

func esc(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
