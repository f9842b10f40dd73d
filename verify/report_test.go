package verify

import (
	"bytes"
	"encoding/csv"
	"errors"
	"strings"
	"testing"
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
