package experiments

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// InputError is a problem with a user's data file, located as precisely as
// the problem allows: a whole file (Line 0), a row (Column 0) or one field.
type InputError struct {
	File   string // the file name as given
	Line   int    // 1-based line of the row in the file; 0 for the whole file
	Column int    // 1-based CSV column; 0 for the whole row
	Name   string // header name of Column, if known
	Msg    string // what is wrong and, where it helps, what to do
}

func (e *InputError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, " line %d", e.Line)
	}
	if e.Column > 0 {
		fmt.Fprintf(&b, ", column %d", e.Column)
		if e.Name != "" {
			fmt.Fprintf(&b, " (%s)", e.Name)
		}
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// csvTable is a small CSV file read whole: a header and rows of equal length,
// with each row's line number kept for messages. Fields are trimmed of
// surrounding white space; a UTF-8 byte-order mark before the header is
// ignored; blank lines are skipped (encoding/csv's rule).
type csvTable struct {
	file       string
	header     []string
	headerLine int
	rows       [][]string
	lines      []int
}

// readCSV reads a CSV file and checks its shape: a header of distinct,
// non-empty names and data rows with as many fields as the header.
func readCSV(r io.Reader, file string) (*csvTable, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &InputError{File: file, Msg: err.Error()}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	t := &csvTable{file: file}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, &InputError{File: file, Line: pe.Line, Msg: fmt.Sprintf("malformed CSV at byte %d of the line: %v", pe.Column, pe.Err)}
			}
			return nil, &InputError{File: file, Msg: err.Error()}
		}
		line, _ := cr.FieldPos(0)
		for i := range rec {
			rec[i] = strings.TrimSpace(rec[i])
		}
		if t.header == nil {
			if err := t.setHeader(rec, line); err != nil {
				return nil, err
			}
			continue
		}
		if len(rec) != len(t.header) {
			return nil, &InputError{File: file, Line: line, Msg: fmt.Sprintf("%d fields, but the header has %d columns", len(rec), len(t.header))}
		}
		t.rows = append(t.rows, rec)
		t.lines = append(t.lines, line)
	}
	if t.header == nil {
		return nil, &InputError{File: file, Msg: "empty file: want a header line and data rows"}
	}
	return t, nil
}

func (t *csvTable) setHeader(rec []string, line int) error {
	for i, name := range rec {
		if name == "" {
			return &InputError{File: t.file, Line: line, Column: i + 1, Msg: "empty column name in the header"}
		}
		for j, prev := range rec[:i] {
			if strings.EqualFold(prev, name) { // the rule column uses
				return &InputError{File: t.file, Line: line, Column: i + 1, Name: name,
					Msg: fmt.Sprintf("column name repeats column %d (%s); names are compared ignoring case", j+1, prev)}
			}
		}
	}
	t.header, t.headerLine = rec, line
	return nil
}

// column returns the index of the column named name (ignoring case), or −1.
func (t *csvTable) column(name string) int {
	for i, h := range t.header {
		if strings.EqualFold(h, name) {
			return i
		}
	}
	return -1
}

// require returns the indices of the named columns, or an error naming the
// first one missing.
func (t *csvTable) require(names ...string) ([]int, error) {
	idx := make([]int, len(names))
	for k, name := range names {
		if idx[k] = t.column(name); idx[k] < 0 {
			return nil, &InputError{File: t.file, Line: t.headerLine, Msg: fmt.Sprintf("missing column %q (the header must name %s)", name, strings.Join(names, ", "))}
		}
	}
	return idx, nil
}

// errAt returns an InputError at row r, column col.
func (t *csvTable) errAt(r, col int, format string, args ...any) *InputError {
	e := &InputError{File: t.file, Line: t.lines[r], Msg: fmt.Sprintf(format, args...)}
	if col >= 0 {
		e.Column, e.Name = col+1, t.header[col]
	}
	return e
}

// float parses the field at row r, column col as a finite number.
func (t *csvTable) float(r, col int) (float64, error) {
	s := t.rows[r][col]
	if s == "" {
		return 0, t.errAt(r, col, "empty value, want a number")
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, t.errAt(r, col, "%q is not a number", s)
	}
	if math.IsNaN(x) || math.IsInf(x, 0) || err != nil {
		return 0, t.errAt(r, col, "%q is not a finite number", s)
	}
	return x, nil
}

// id returns the field at row r, column col, which must not be empty.
func (t *csvTable) id(r, col int) (string, error) {
	s := t.rows[r][col]
	if s == "" {
		return "", t.errAt(r, col, "empty %s", t.header[col])
	}
	return s, nil
}
