package verify

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"slices"
	"strings"
)

// Merging a partial evaluation into an existing claims table.
//
// A claim evaluated on its own (nadb verify -only … -merge) replaces its
// rows in the table files of a whole evaluation and leaves every other
// claim's rows as they were, so that a claim registered later (or run again
// after its runs finished) joins figures/claims.md without recomputing the
// others. The three files are merged by claim id: the Markdown table's row,
// the CSV's row and the per-seed CSV's rows. The merged rows follow the
// claims table's order (Table); a row of an id the table no longer has is
// kept, after them.

// MergeMarkdown returns the Markdown claims table old with the rows of
// fresh (the output of WriteMarkdown for the claims just evaluated) in place
// of old's rows of the same ids. Both must be of the same scale (their first
// lines equal).
func MergeMarkdown(old, fresh []byte) ([]byte, error) {
	oh, orows, err := splitMarkdown(old)
	if err != nil {
		return nil, fmt.Errorf("the existing table: %w", err)
	}
	nh, nrows, err := splitMarkdown(fresh)
	if err != nil {
		return nil, err
	}
	if firstLine(oh) != firstLine(nh) {
		return nil, fmt.Errorf("the existing table is %q, the claims just evaluated %q: merge only tables of the same scale and seeds", firstLine(oh), firstLine(nh))
	}
	if oh != nh {
		return nil, fmt.Errorf("the existing table's introduction differs from this evaluation's (another first seed?): merge only tables of the same scale and seeds")
	}
	var b bytes.Buffer
	b.WriteString(oh)
	for _, row := range mergeByID(orows, nrows) {
		b.WriteString(row[0])
	}
	return b.Bytes(), nil
}

// splitMarkdown splits a claims table into its text up to and including the
// table's rule line and its rows, grouped by claim id.
func splitMarkdown(md []byte) (head string, rows [][]string, err error) {
	s := string(md)
	i := strings.Index(s, "\n|---|")
	if i < 0 {
		return "", nil, fmt.Errorf("not a claims table (no table)")
	}
	j := strings.IndexByte(s[i+1:], '\n')
	if j < 0 {
		return "", nil, fmt.Errorf("not a claims table (no rows)")
	}
	head = s[:i+1+j+1]
	for line := range strings.SplitAfterSeq(s[len(head):], "\n") {
		if line == "" {
			continue
		}
		id, _, ok := strings.Cut(strings.TrimPrefix(line, "| "), " |")
		if !strings.HasPrefix(line, "| ") || !ok {
			return "", nil, fmt.Errorf("a line after the table is not a row: %.60q", line)
		}
		rows = append(rows, []string{line, id})
	}
	return head, rows, nil
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// MergeCSV merges two CSV files of the claims table (WriteCSV) or of its
// per-seed values (WriteSeedsCSV): old's records of the claims fresh has
// are replaced by fresh's, by the id in the first column. The headers must
// be equal; for the claims CSV, so must the scale column.
func MergeCSV(old, fresh []byte) ([]byte, error) {
	ohdr, orecs, err := readRecords(old)
	if err != nil {
		return nil, fmt.Errorf("the existing file: %w", err)
	}
	nhdr, nrecs, err := readRecords(fresh)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(ohdr, nhdr) {
		return nil, fmt.Errorf("the existing file's columns differ from this evaluation's (%s): regenerate it whole", strings.Join(nhdr, ","))
	}
	if k := slices.Index(nhdr, "scale"); k >= 0 && len(orecs) > 0 && len(nrecs) > 0 && orecs[0][k] != nrecs[0][k] {
		return nil, fmt.Errorf("the existing table is of %s scale, the claims just evaluated of %s scale", orecs[0][k], nrecs[0][k])
	}
	group := func(recs [][]string) [][]string { // one entry per record: the record's line, its id
		var g [][]string
		for _, r := range recs {
			var b bytes.Buffer
			w := csv.NewWriter(&b)
			w.Write(r)
			w.Flush()
			g = append(g, []string{b.String(), r[0]})
		}
		return g
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(nhdr)
	w.Flush()
	for _, row := range mergeByID(group(orecs), group(nrecs)) {
		b.WriteString(row[0])
	}
	return b.Bytes(), nil
}

func readRecords(b []byte) ([]string, [][]string, error) {
	r := csv.NewReader(bytes.NewReader(b))
	recs, err := r.ReadAll()
	if err != nil {
		return nil, nil, err
	}
	if len(recs) == 0 {
		return nil, nil, fmt.Errorf("empty (no header)")
	}
	return recs[0], recs[1:], nil
}

// mergeByID merges rows (each {text, id}; an id may have several rows):
// every id of fresh takes fresh's rows, every other id keeps old's; ids in
// the claims table's order, then old's others in their order.
func mergeByID(old, fresh [][]string) [][]string {
	byID := map[string][][]string{}
	var seen []string
	add := func(rows [][]string) {
		for _, r := range rows {
			if _, ok := byID[r[1]]; !ok {
				seen = append(seen, r[1])
			}
			byID[r[1]] = append(byID[r[1]], r)
		}
	}
	add(old)
	for id := range ids(fresh) {
		delete(byID, id)
	}
	add(fresh)
	var out [][]string
	for _, c := range Table() {
		out = append(out, byID[c.ID]...)
		delete(byID, c.ID)
	}
	for _, id := range seen {
		out = append(out, byID[id]...)
		delete(byID, id)
	}
	return out
}

func ids(rows [][]string) map[string]bool {
	m := map[string]bool{}
	for _, r := range rows {
		m[r[1]] = true
	}
	return m
}
