package report

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// source reads the committed inputs below a repository root.
type source struct{ root string }

// read returns the bytes of the file at rel (a slash-separated path from the
// root); a missing file is errMissing.
func (s source) read(rel string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(s.root, filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, missing(rel)
	}
	return b, err
}

// errMissing marks an input that has not been made yet: the generator
// writes a placeholder for what needs it instead of failing.
var errMissing = errors.New("not yet generated")

func missing(rel string) error { return fmt.Errorf("%s: %w", rel, errMissing) }

// table is a CSV file: its header and records, with the file's path for
// error messages.
type table struct {
	path   string
	header []string
	col    map[string]int
	rows   [][]string
}

// readCSV reads the CSV at rel; the columns named in need must be present.
func (s source) readCSV(rel string, need ...string) (*table, error) {
	b, err := s.read(rel)
	if err != nil {
		return nil, err
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("report: %s: %w", rel, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("report: %s: empty file", rel)
	}
	t := &table{path: rel, header: recs[0], col: map[string]int{}, rows: recs[1:]}
	for i, h := range t.header {
		t.col[h] = i
	}
	for _, n := range need {
		if _, ok := t.col[n]; !ok {
			return nil, fmt.Errorf("report: %s: no column %q (header %s)", rel, n, strings.Join(t.header, ","))
		}
	}
	return t, nil
}

// has reports whether the table has the column.
func (t *table) has(name string) bool { _, ok := t.col[name]; return ok }

// str returns a record's value in a column ("" if the column is absent).
func (t *table) str(rec []string, name string) string {
	i, ok := t.col[name]
	if !ok || i >= len(rec) {
		return ""
	}
	return rec[i]
}

// num parses a record's value in a column; "", "NaN", "n/a" and
// "undefined" are NaN.
func (t *table) num(rec []string, name string) (float64, error) {
	v := t.str(rec, name)
	switch v {
	case "", "NaN", "n/a", "undefined":
		return math.NaN(), nil
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, fmt.Errorf("report: %s: column %s: %q is not a number", t.path, name, v)
	}
	return x, nil
}

// mdTable is a table of a Markdown file: header cells and rows of cells,
// as written (Markdown inline markup kept).
type mdTable struct {
	header []string
	rows   [][]string
}

// markdownTables returns the pipe tables of a Markdown document in order.
func markdownTables(doc string) []mdTable {
	var out []mdTable
	lines := strings.Split(doc, "\n")
	for i := 0; i+1 < len(lines); i++ {
		if !isRow(lines[i]) || !isRule(lines[i+1]) {
			continue
		}
		t := mdTable{header: cells(lines[i])}
		j := i + 2
		for ; j < len(lines) && isRow(lines[j]); j++ {
			t.rows = append(t.rows, cells(lines[j]))
		}
		out = append(out, t)
		i = j - 1
	}
	return out
}

func isRow(l string) bool {
	l = strings.TrimSpace(l)
	return strings.HasPrefix(l, "|") && strings.HasSuffix(l, "|") && len(l) > 1
}

func isRule(l string) bool {
	if !isRow(l) {
		return false
	}
	return strings.Trim(strings.TrimSpace(l), "|-: ") == ""
}

// cells splits a table row at its unescaped pipes.
func cells(l string) []string {
	l = strings.TrimSpace(l)
	l = l[1 : len(l)-1]
	var out []string
	var cur strings.Builder
	for i := 0; i < len(l); i++ {
		switch {
		case l[i] == '\\' && i+1 < len(l) && l[i+1] == '|':
			cur.WriteString(`\|`)
			i++
		case l[i] == '|':
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(l[i])
		}
	}
	return append(out, strings.TrimSpace(cur.String()))
}
