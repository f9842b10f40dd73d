// Package csvtab reads the CSV data files of the project (pools, recorded
// answers, the shipped real data), whole (Read, a Table) or a record at a
// time (Reader, for files too large to hold as text), with every row's line
// number kept, and reports problems as an Error that locates them: file,
// line, column and column name. Both apply the same checks, among them the
// limits of limits.go: a record of at most MaxRecord bytes and fields of at
// most MaxField bytes, so that a file that is not CSV is refused before it
// fills the memory, and identifiers that are valid UTF-8 (a Latin-1 file is
// refused at the first identifier it garbles, by line and column). Values
// quoted in messages are shortened (Quote).
package csvtab

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
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
	rd, err := NewReader(r, file)
	if err != nil {
		return nil, err
	}
	t := &Table{File: file, Header: rd.Header, HeaderLine: rd.HeaderLine}
	for {
		ok, err := rd.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return t, nil
		}
		t.Rows = append(t.Rows, slices.Clone(rd.rec))
		t.Lines = append(t.Lines, rd.line)
	}
}

// Column returns the index of the column named name (ignoring case), or −1.
func (t *Table) Column(name string) int { return column(t.Header, name) }

// Require returns the indices of the named columns, or an error naming the
// first one missing.
func (t *Table) Require(names ...string) ([]int, error) {
	return require(t.File, t.Header, t.HeaderLine, names)
}

// ErrAt returns an Error at row r, column col.
func (t *Table) ErrAt(r, col int, format string, args ...any) *Error {
	return errAt(t.File, t.Header, t.Lines[r], col, format, args...)
}

// Float parses the field at row r, column col as a finite number.
func (t *Table) Float(r, col int) (float64, error) {
	return parseFloat(t.File, t.Header, t.Lines[r], col, t.Rows[r][col])
}

// ID returns the field at row r, column col, which must be non-empty,
// valid UTF-8 text.
func (t *Table) ID(r, col int) (string, error) {
	return id(t.File, t.Header, t.Lines[r], col, t.Rows[r][col])
}

func column(header []string, name string) int {
	for i, h := range header {
		if strings.EqualFold(h, name) {
			return i
		}
	}
	return -1
}

func require(file string, header []string, line int, names []string) ([]int, error) {
	idx := make([]int, len(names))
	for k, name := range names {
		if idx[k] = column(header, name); idx[k] < 0 {
			return nil, &Error{File: file, Line: line, Msg: fmt.Sprintf("missing column %q (the header must name %s)", name, strings.Join(names, ", "))}
		}
	}
	return idx, nil
}

func errAt(file string, header []string, line, col int, format string, args ...any) *Error {
	e := &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	if col >= 0 {
		e.Column, e.Name = col+1, header[col]
	}
	return e
}

func parseFloat(file string, header []string, line, col int, s string) (float64, error) {
	if s == "" {
		return 0, errAt(file, header, line, col, "empty value, want a number")
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, errAt(file, header, line, col, "%s is not a number", Quote(s))
	}
	if math.IsNaN(x) || math.IsInf(x, 0) || err != nil {
		return 0, errAt(file, header, line, col, "%s is not a finite number", Quote(s))
	}
	return x, nil
}

func id(file string, header []string, line, col int, s string) (string, error) {
	if s == "" {
		return "", errAt(file, header, line, col, "empty %s", header[col])
	}
	if err := CheckUTF8(s); err != nil {
		return "", errAt(file, header, line, col, "the %s %v", header[col], err)
	}
	return s, nil
}
