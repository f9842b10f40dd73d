// Package csvtab reads the small CSV data files of the project (pools,
// recorded answers, the shipped real data) whole, with every row's line
// number kept, and reports problems as an Error that locates them: file,
// line, column and column name.
package csvtab

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

// Error is a problem with a user's data file, located as precisely as
// the problem allows: a whole file (Line 0), a row (Column 0) or one field.
type Error struct {
	File   string // the file name as given
	Line   int    // 1-based line of the row in the file; 0 for the whole file
	Column int    // 1-based CSV column; 0 for the whole row
	Name   string // header name of Column, if known
	Msg    string // what is wrong and, where it helps, what to do
}

func (e *Error) Error() string {
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

// Table is a small CSV file read whole: a header and rows of equal length,
// with each row's line number kept for messages. Fields are trimmed of
// surrounding white space; a UTF-8 byte-order mark before the header is
// ignored; blank lines are skipped (encoding/csv's rule).
type Table struct {
	File       string     // the file name as given, for messages
	Header     []string   // column names, trimmed
	HeaderLine int        // 1-based line of the header
	Rows       [][]string // data rows, as many fields as the header
	Lines      []int      // 1-based line of every row
}

// Read reads a CSV file and checks its shape: a header of distinct,
// non-empty names and data rows with as many fields as the header.
func Read(r io.Reader, file string) (*Table, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &Error{File: file, Msg: err.Error()}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	t := &Table{File: file}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, &Error{File: file, Line: pe.Line, Msg: fmt.Sprintf("malformed CSV at byte %d of the line: %v", pe.Column, pe.Err)}
			}
			return nil, &Error{File: file, Msg: err.Error()}
		}
		line, _ := cr.FieldPos(0)
		for i := range rec {
			rec[i] = strings.TrimSpace(rec[i])
		}
		if t.Header == nil {
			if err := t.setHeader(rec, line); err != nil {
				return nil, err
			}
			continue
		}
		if len(rec) != len(t.Header) {
			return nil, &Error{File: file, Line: line, Msg: fmt.Sprintf("%d fields, but the header has %d columns", len(rec), len(t.Header))}
		}
		t.Rows = append(t.Rows, rec)
		t.Lines = append(t.Lines, line)
	}
	if t.Header == nil {
		return nil, &Error{File: file, Msg: "empty file: want a header line and data rows"}
	}
	return t, nil
}

func (t *Table) setHeader(rec []string, line int) error {
	for i, name := range rec {
		if name == "" {
			return &Error{File: t.File, Line: line, Column: i + 1, Msg: "empty column name in the header"}
		}
		for j, prev := range rec[:i] {
			if strings.EqualFold(prev, name) { // the rule column uses
				return &Error{File: t.File, Line: line, Column: i + 1, Name: name,
					Msg: fmt.Sprintf("column name repeats column %d (%s); names are compared ignoring case", j+1, prev)}
			}
		}
	}
	t.Header, t.HeaderLine = rec, line
	return nil
}

// Column returns the index of the column named name (ignoring case), or −1.
func (t *Table) Column(name string) int {
	for i, h := range t.Header {
		if strings.EqualFold(h, name) {
			return i
		}
	}
	return -1
}

// Require returns the indices of the named columns, or an error naming the
// first one missing.
func (t *Table) Require(names ...string) ([]int, error) {
	idx := make([]int, len(names))
	for k, name := range names {
		if idx[k] = t.Column(name); idx[k] < 0 {
			return nil, &Error{File: t.File, Line: t.HeaderLine, Msg: fmt.Sprintf("missing column %q (the header must name %s)", name, strings.Join(names, ", "))}
		}
	}
	return idx, nil
}

// ErrAt returns an Error at row r, column col.
func (t *Table) ErrAt(r, col int, format string, args ...any) *Error {
	e := &Error{File: t.File, Line: t.Lines[r], Msg: fmt.Sprintf(format, args...)}
	if col >= 0 {
		e.Column, e.Name = col+1, t.Header[col]
	}
	return e
}

// Float parses the field at row r, column col as a finite number.
func (t *Table) Float(r, col int) (float64, error) {
	s := t.Rows[r][col]
	if s == "" {
		return 0, t.ErrAt(r, col, "empty value, want a number")
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, t.ErrAt(r, col, "%q is not a number", s)
	}
	if math.IsNaN(x) || math.IsInf(x, 0) || err != nil {
		return 0, t.ErrAt(r, col, "%q is not a finite number", s)
	}
	return x, nil
}

// ID returns the field at row r, column col, which must not be empty.
func (t *Table) ID(r, col int) (string, error) {
	s := t.Rows[r][col]
	if s == "" {
		return "", t.ErrAt(r, col, "empty %s", t.Header[col])
	}
	return s, nil
}
