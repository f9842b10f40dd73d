package verify

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/neural-adb/nadb/algorithms"
)

// WriteMarkdown prints the evaluated claims as a Markdown table.
func WriteMarkdown(w io.Writer, rows []Row) error {
	scale := ""
	if len(rows) > 0 {
		scale = rows[0].Scale
	}
	fmt.Fprintf(w, "# Claims of the paper, tested (%s scale)\n\n", scale)
	if len(rows) > 0 && rows[0].FirstSeed > 1 {
		fmt.Fprintf(w, "A confirmation on seeds %d onwards (each claim with its own number of seeds, stated in its result), which no figure runs: the last column is the verdict recorded from seeds 1 onwards, shown for comparison; a different verdict here is a result, not a failure.\n\n", rows[0].FirstSeed)
	}
	fmt.Fprintln(w, "Every verdict below was computed from fresh runs (or their cache) by `nadb verify`. The last column is the verdict recorded in the claims table (`verify/table.go`) from earlier runs, with its explanation: a regression guard, not a preregistration (it was written after the runs; `nadb verify` and `go test ./verify` fail when a computed verdict differs from it). A claim *holds* when its test supports it and *does not hold* when the data contradict it: for a claim that every one-sided test of a family is significant, the reverse test of some part is significant (Holm-corrected over the same family); for an interval claim, the interval lies entirely on the wrong side of the bound. It is *not resolved* when the test neither supports nor contradicts it at the seeds run (a family in which not every test is significant and no reverse test is, an interval that contains the bound, an ANOVA that does not reject). Claims 5a, 5b and 7 (refuted by a significant counter-test) keep their rules, and claims 9a–10c the rules their registrations in `verify/prereg` name: holds or does not hold, except 10b's, which names not resolved. A claim is *undecided* when a statistic its test needs is not a number. Claims 0a and 0b are sanity guards: they fail if the learners the other claims are about do not learn.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| id | claim | source | statistic | result | verdict | recorded verdict (regression guard) |")
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
			mark = " (differs from the recorded verdict)"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s. %s | %s | **%s**%s | %s: %s |\n", r.ID, esc(r.Claim.Claim), esc(r.Source), esc(r.Claim.Statistic), esc(r.Test), esc(res), r.Verdict, mark, r.Recorded[r.Scale], esc(r.Why))
	}
	return nil
}

// CSVHeader is the header of WriteCSV's table.
const CSVHeader = "id,reading,scale,verdict,recorded,agrees,claim,source,statistic,test,result,power,why,error"

// WriteCSV writes the evaluated claims as CSV, one row per claim with the
// columns of CSVHeader, for programs (the report generator of
// paper/report): the same rows as WriteMarkdown. reading is "fixed" for
// the paper's fixed pool and "fresh" for the fresh-context rows; agrees is
// whether the verdict is the recorded one; error is empty unless the claim
// could not be evaluated. ReadCSV reads it back.
func WriteCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	cw.Write(strings.Split(CSVHeader, ","))
	for _, r := range rows {
		reading := "fixed"
		if strings.HasSuffix(r.ID, freshSuffix) || strings.HasSuffix(r.Claim.Claim, freshMark) {
			reading = "fresh"
		}
		errText := ""
		if r.Err != nil {
			errText = r.Err.Error()
		}
		cw.Write([]string{r.ID, reading, r.Scale, string(r.Verdict), string(r.Recorded[r.Scale]), strconv.FormatBool(r.Agrees()),
			r.Claim.Claim, r.Source, r.Statistic, r.Test, r.Result, r.Power, r.Why, errText})
	}
	cw.Flush()
	return cw.Error()
}

// ReadCSV reads a claims table written by WriteCSV (such as the committed
// figures/claims.csv) back into rows, for printing it again with
// WriteBrief or WriteMarkdown without running anything. Each row gets what
// those print: the claim's id, statement, source, statistic and test, the
// verdict, result and power, the scale, the recorded verdict (at that
// scale only), its explanation, and the error, if any. What the CSV does
// not hold stays empty: the claim's runs and test, its recorded verdicts at
// other scales, its per-seed values and its first seed (0, seeds from 1;
// the CSV of a confirmation on later seeds reads as one from seed 1).
//
// The header must be CSVHeader, every row of one scale, and each row's
// agrees column what its verdict, recorded verdict and error imply: a file
// of other columns, or edited by hand into contradiction, is an error that
// names the line.
func ReadCSV(r io.Reader) ([]Row, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("empty: no header (want %s)", CSVHeader)
	}
	if err != nil {
		return nil, err
	}
	if got := strings.Join(header, ","); got != CSVHeader {
		return nil, fmt.Errorf("header %q is not a claims table's %q", got, CSVHeader)
	}
	col := make(map[string]int, len(header))
	for i, h := range header {
		col[h] = i
	}
	var rows []Row
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		line, _ := cr.FieldPos(0)
		get := func(name string) string { return rec[col[name]] }
		row := Row{
			Claim: Claim{ID: get("id"), Claim: get("claim"), Source: get("source"), Statistic: get("statistic"), Test: get("test"),
				Recorded: map[string]Verdict{get("scale"): Verdict(get("recorded"))}, Why: get("why")},
			Outcome: Outcome{Verdict: Verdict(get("verdict")), Result: get("result"), Power: get("power")},
			Scale:   get("scale"),
		}
		if e := get("error"); e != "" {
			row.Err = errors.New(e)
		}
		if row.ID == "" {
			return nil, fmt.Errorf("line %d: no claim id", line)
		}
		if len(rows) > 0 && row.Scale != rows[0].Scale {
			return nil, fmt.Errorf("line %d (claim %s): scale %q, but the rows before are of %q: one table holds one scale", line, row.ID, row.Scale, rows[0].Scale)
		}
		if want := strconv.FormatBool(row.Agrees()); get("agrees") != want {
			return nil, fmt.Errorf("line %d (claim %s): agrees is %q, but verdict %q, recorded %q and error %q make it %s", line, row.ID, get("agrees"), row.Verdict, get("recorded"), get("error"), want)
		}
		rows = append(rows, row)
	}
}

func esc(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

// WriteBrief writes the claims table for a terminal: one block per claim
// with its id, its verdict (and the recorded one when they differ) and the
// claim wrapped to width columns; the statistics, results and explanations
// are WriteMarkdown's.
func WriteBrief(w io.Writer, rows []Row, width int) error {
	scale := ""
	if len(rows) > 0 {
		scale = rows[0].Scale
	}
	fmt.Fprintf(w, "Claims of the paper, tested at %s scale\n(statistics and explanations: the same nadb verify without -brief)\n\n", scale)
	const idW, verdictW = 9, 15
	text := max(30, width-idW-verdictW-2)
	for _, r := range rows {
		verdict := string(r.Verdict)
		if r.Err != nil {
			verdict = "error"
		}
		lines := wrapWords(r.Claim.Claim, text)
		if !r.Agrees() {
			lines = append(lines, fmt.Sprintf("(recorded verdict: %s)", r.Recorded[r.Scale]))
		}
		if r.Err != nil {
			lines = append(lines, wrapWords("error: "+r.Err.Error(), text)...)
		}
		for i, l := range lines {
			id, v := "", ""
			if i == 0 {
				id, v = r.ID, verdict
			}
			if _, err := fmt.Fprintf(w, "%-*s %-*s %s\n", idW, id, verdictW, v, l); err != nil {
				return err
			}
		}
	}
	return nil
}

// wrapWords breaks s into lines of at most width runes at spaces (a longer
// word gets a line of its own).
func wrapWords(s string, width int) []string {
	var lines []string
	var cur []rune
	for word := range strings.FieldsSeq(s) {
		wr := []rune(word)
		if len(cur) > 0 && len(cur)+1+len(wr) > width {
			lines = append(lines, string(cur))
			cur = cur[:0]
		}
		if len(cur) > 0 {
			cur = append(cur, ' ')
		}
		cur = append(cur, wr...)
	}
	if len(cur) > 0 {
		lines = append(lines, string(cur))
	}
	return lines
}

// SeedsCSVHeader is the header of WriteSeedsCSV's table.
const SeedsCSVHeader = "claim,algorithm,collect,problem,d,K,contexts,candidates,width,depth,config,T,seed,t,metric,value"

// WriteSeedsCSV writes every per-seed value the claims' tests read (Row.Values)
// as CSV with the columns of SeedsCSVHeader: the run (algorithm, collection
// rule, problem and its size, network width and depth, the other
// configuration fields that differ from their defaults as name=value, T,
// seed), the checkpoint t and the metric. Every test of the claims table can
// be recomputed from it and internal/stats alone.
func WriteSeedsCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	cw.Write(strings.Split(SeedsCSVHeader, ","))
	def := algorithms.Default()
	for _, r := range rows {
		for _, v := range r.Values {
			s := v.Spec
			var diff []string
			for _, f := range algorithms.Fields() {
				if f.Name == "width" || f.Name == "depth" || f.Name == "collect" {
					continue
				}
				a, _ := s.Config.Get(f.Name)
				if b, _ := def.Get(f.Name); a != b {
					diff = append(diff, f.Name+"="+a)
				}
			}
			itoa := strconv.Itoa
			cw.Write([]string{r.ID, s.Algorithm, string(s.Config.Collect.Rule()), s.Problem.Name, itoa(s.Problem.Dim), itoa(s.Problem.Arms), itoa(s.Problem.Contexts), itoa(s.Problem.Candidates),
				itoa(s.Config.Width), itoa(s.Config.Depth), strings.Join(diff, ";"), itoa(s.T), strconv.FormatUint(s.Seed, 10), itoa(v.T), v.Metric, strconv.FormatFloat(v.Value, 'g', -1, 64)})
		}
	}
	cw.Flush()
	return cw.Error()
}
