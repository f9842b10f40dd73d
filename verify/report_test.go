package verify

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWriteCSV: one record per row with the columns of CSVHeader, the
// reading told from the id, agreement and errors written out, and text with
// commas, quotes and newlines kept intact.
func TestWriteCSV(t *testing.T) {
	claim := func(id string) Claim {
		return Claim{ID: id, Claim: `gaps fall, "sub-linearly"`, Source: "Theorem 2", Statistic: "slope\nof log gap", Test: "t-test", Recorded: both(Holds), Why: "because"}
	}
	rows := []Row{
		{Claim: claim("1a"), Outcome: Outcome{Verdict: Holds, Result: "slope −0.5 ± 0.1", Power: "0.06"}, Scale: "paper"},
		{Claim: claim("1a-fresh"), Outcome: Outcome{Verdict: DoesNotHold, Result: "slope 0.0"}, Scale: "paper"},
		{Claim: claim("5a"), Outcome: Outcome{Verdict: notEvaluated}, Scale: "paper", Err: errors.New("no runs, cancelled")},
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(recs[0], ","); got != CSVHeader {
		t.Fatalf("header %q, want %q", got, CSVHeader)
	}
	if len(recs) != len(rows)+1 {
		t.Fatalf("%d records, want %d", len(recs)-1, len(rows))
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for i, want := range []struct{ id, reading, verdict, agrees, errText string }{
		{"1a", "fixed", "holds", "true", ""},
		{"1a-fresh", "fresh", "does not hold", "false", ""},
		{"5a", "fixed", "not evaluated", "false", "no runs, cancelled"},
	} {
		r := recs[i+1]
		got := struct{ id, reading, verdict, agrees, errText string }{r[col["id"]], r[col["reading"]], r[col["verdict"]], r[col["agrees"]], r[col["error"]]}
		if got != want {
			t.Errorf("row %d: got %+v, want %+v", i, got, want)
		}
		if r[col["claim"]] != rows[i].Claim.Claim || r[col["statistic"]] != rows[i].Statistic || r[col["recorded"]] != "holds" || r[col["scale"]] != "paper" {
			t.Errorf("row %d: text columns changed: %q", i, r)
		}
	}
}

// TestWriteBrief: each claim's id and verdict on its first line, the claim
// wrapped within the width, a verdict that differs from the recorded one
// flagged with the recorded verdict.
func TestWriteBrief(t *testing.T) {
	long := strings.Repeat("word ", 40)
	rows := []Row{
		{Claim: Claim{ID: "1a", Claim: long, Recorded: both(Holds)}, Outcome: Outcome{Verdict: Holds}, Scale: "reduced"},
		{Claim: Claim{ID: "2b", Claim: "short", Recorded: both(Holds)}, Outcome: Outcome{Verdict: DoesNotHold}, Scale: "reduced"},
	}
	var buf bytes.Buffer
	if err := WriteBrief(&buf, rows, 80); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
	for _, l := range lines {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("line of %d runes > 80: %q", n, l)
		}
	}
	if !strings.HasPrefix(lines[3], "1a        holds           word word") {
		t.Errorf("first claim line %q", lines[3])
	}
	var found bool
	for i, l := range lines {
		if strings.HasPrefix(l, "2b        does not hold   short") {
			found = i+1 < len(lines) && strings.Contains(lines[i+1], "(recorded verdict: holds)")
		}
	}
	if !found {
		t.Errorf("the differing verdict of 2b is not flagged:\n%s", buf.String())
	}
}

// TestReadCSVRoundTrip: what WriteCSV writes, ReadCSV reads back into rows
// that WriteBrief and WriteMarkdown print exactly as they print the
// original rows: agreeing and differing verdicts, an error, power, text
// with commas, quotes, pipes and newlines.
func TestReadCSVRoundTrip(t *testing.T) {
	claim := func(id string, rec Verdict) Claim {
		return Claim{ID: id, Claim: `gaps fall, "sub-linearly" | fast`, Source: "Theorem 2", Statistic: "slope\nof log gap", Test: "t-test, one-sided", Recorded: map[string]Verdict{"paper": rec, "reduced": DoesNotHold}, Why: "because, mostly"}
	}
	rows := []Row{
		{Claim: claim("1a", Holds), Outcome: Outcome{Verdict: Holds, Result: "slope −0.5 ± 0.1", Power: "0.06"}, Scale: "paper", FirstSeed: 1},
		{Claim: claim("1a-fresh", Holds), Outcome: Outcome{Verdict: DoesNotHold, Result: "slope 0.0"}, Scale: "paper", FirstSeed: 1},
		{Claim: claim("9f", Pending), Outcome: Outcome{Verdict: Undecided, Result: "NaN"}, Scale: "paper", FirstSeed: 1},
		{Claim: claim("5a", Holds), Outcome: Outcome{Verdict: notEvaluated}, Scale: "paper", FirstSeed: 1, Err: errors.New("no runs, cancelled")},
	}
	var csvb bytes.Buffer
	if err := WriteCSV(&csvb, rows); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCSV(&csvb)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(rows) {
		t.Fatalf("read %d rows, want %d", len(got), len(rows))
	}
	for _, w := range []struct {
		name  string
		write func(io.Writer, []Row) error
	}{
		{"WriteBrief", func(w io.Writer, r []Row) error { return WriteBrief(w, r, 80) }},
		{"WriteMarkdown", WriteMarkdown},
	} {
		var want, again bytes.Buffer
		if err := w.write(&want, rows); err != nil {
			t.Fatal(err)
		}
		if err := w.write(&again, got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.String(), again.String()); diff != "" {
			t.Errorf("%s of the rows read back differs from that of the rows written (-want +got):\n%s", w.name, diff)
		}
	}
}

// TestReadCSVRejects: a file that is not a claims table of WriteCSV, or
// contradicts itself, is an error naming what is wrong, never rows.
func TestReadCSVRejects(t *testing.T) {
	const row = "1a,fixed,paper,holds,holds,true,claim,source,statistic,test,result,,why,\n"
	for _, c := range []struct{ name, in, want string }{
		{"empty", "", "empty: no header"},
		{"other columns", "id,verdict\n1a,holds\n", "is not a claims table's"},
		{"an older header", strings.Replace(CSVHeader, ",power", "", 1) + "\n", "is not a claims table's"},
		{"short row", CSVHeader + "\n1a,fixed,paper,holds\n", "wrong number of fields"},
		{"no id", CSVHeader + "\n" + strings.TrimPrefix(row, "1a"), "line 2: no claim id"},
		{"two scales", CSVHeader + "\n" + row + strings.Replace(strings.Replace(row, "paper", "reduced", 1), "1a", "1b", 1), `line 3 (claim 1b): scale "reduced"`},
		{"agrees contradicted", CSVHeader + "\n" + strings.Replace(row, "holds,holds,true", "holds,does not hold,true", 1), `line 2 (claim 1a): agrees is "true"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			rows, err := ReadCSV(strings.NewReader(c.in))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ReadCSV: rows %v, error %v; want an error containing %q", rows, err, c.want)
			}
		})
	}
	rows, err := ReadCSV(strings.NewReader(CSVHeader + "\n" + row))
	if err != nil || len(rows) != 1 || rows[0].ID != "1a" || rows[0].Verdict != Holds || !rows[0].Agrees() {
		t.Errorf("a well-formed row: %+v, %v", rows, err)
	}
}

// ExampleReadCSV prints a committed claims table (here two of its rows,
// the columns WriteBrief does not print left empty) for a terminal without
// running anything, as nadb verify -from does.
func ExampleReadCSV() {
	const committed = CSVHeader + `
3a,fixed,paper,holds,holds,true,Neural-ADB (UCB and TS) performs worse as d grows,"Section 4, Figures 2 and 3",,,,,,
7,fixed,paper,does not hold,does not hold,true,Neural-ADB's context rule explores the context space (queries at least as many distinct contexts as uniformly random context choice),"Section 1, eq. (3)",,,,,,
`
	rows, err := ReadCSV(strings.NewReader(committed))
	if err != nil {
		fmt.Println(err)
		return
	}
	WriteBrief(os.Stdout, rows, 80)
	// Output:
	// Claims of the paper, tested at paper scale
	// (statistics and explanations: the same nadb verify without -brief)
	//
	// 3a        holds           Neural-ADB (UCB and TS) performs worse as d grows
	// 7         does not hold   Neural-ADB's context rule explores the context space
	//                           (queries at least as many distinct contexts as
	//                           uniformly random context choice)
}
