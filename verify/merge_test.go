package verify

import (
	"bytes"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/experiments"
)

// TestMergeEqualsWhole: merging the claims evaluated on their own into the
// table of a whole evaluation gives the files the whole evaluation would
// have written with their new rows, in the table's order, for the Markdown
// table, its CSV and the per-seed CSV; tables of another scale are refused.
func TestMergeEqualsWhole(t *testing.T) {
	tab := Table()
	row := func(i int, verdict Verdict, v float64) Row {
		r := Row{Claim: tab[i], Outcome: Outcome{Verdict: verdict, Result: "mean, with a comma | and a bar"}, Scale: "paper"}
		r.Values = []SeedValue{{Spec: experiments.Spec{Algorithm: "random", Seed: 1}, Metric: "mean_gap", T: 1000, Value: v},
			{Spec: experiments.Spec{Algorithm: "random", Seed: 2}, Metric: "mean_gap", T: 1000, Value: v + 1}}
		return r
	}
	before := []Row{row(0, Holds, 1), row(1, Holds, 2), row(2, DoesNotHold, 3)}
	partial := []Row{row(1, DoesNotHold, 20)} // claim 1 again, another verdict and values
	late := []Row{row(3, Holds, 4)}           // a claim the table did not have
	after := []Row{row(0, Holds, 1), row(1, DoesNotHold, 20), row(2, DoesNotHold, 3), row(3, Holds, 4)}

	for _, w := range []struct {
		name  string
		write func(*bytes.Buffer, []Row) error
		merge func(old, fresh []byte) ([]byte, error)
	}{
		{"markdown", func(b *bytes.Buffer, r []Row) error { return WriteMarkdown(b, r) }, MergeMarkdown},
		{"csv", func(b *bytes.Buffer, r []Row) error { return WriteCSV(b, r) }, MergeCSV},
		{"seeds", func(b *bytes.Buffer, r []Row) error { return WriteSeedsCSV(b, r) }, MergeCSV},
	} {
		out := func(rows []Row) []byte {
			var b bytes.Buffer
			if err := w.write(&b, rows); err != nil {
				t.Fatal(err)
			}
			return b.Bytes()
		}
		got, err := w.merge(out(before), out(partial))
		if err == nil {
			got, err = w.merge(got, out(late))
		}
		if err != nil {
			t.Errorf("%s: %v", w.name, err)
			continue
		}
		if want := out(after); !bytes.Equal(got, want) {
			t.Errorf("%s: merged\n%s\nwant\n%s", w.name, got, want)
		}
	}

	reduced := []Row{row(1, Holds, 2)}
	reduced[0].Scale = "reduced"
	var old, fresh bytes.Buffer
	WriteMarkdown(&old, before)
	WriteMarkdown(&fresh, reduced)
	if _, err := MergeMarkdown(old.Bytes(), fresh.Bytes()); err == nil || !strings.Contains(err.Error(), "same scale") {
		t.Errorf("MergeMarkdown(paper, reduced) = %v, want a same-scale error", err)
	}
	old.Reset()
	fresh.Reset()
	WriteCSV(&old, before)
	WriteCSV(&fresh, reduced)
	if _, err := MergeCSV(old.Bytes(), fresh.Bytes()); err == nil || !strings.Contains(err.Error(), "scale") {
		t.Errorf("MergeCSV(paper, reduced) = %v, want a scale error", err)
	}
	if _, err := MergeMarkdown([]byte("# notes\n\nno table here\n"), fresh.Bytes()); err == nil {
		t.Error("MergeMarkdown accepted a file without a table")
	}
}
