package csvtab

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Reader reads a CSV file a record at a time with the checks of Read: a
// header of distinct, non-empty names, then data rows with as many fields as
// the header. Fields are trimmed of surrounding white space; a UTF-8
// byte-order mark before the header is ignored; blank lines are skipped.
// Memory does not grow with the file: the fields of a record are valid until
// the next call of Next (clone what you keep: a field shares the memory of
// its whole line). A record longer than MaxRecord bytes, a field longer than
// MaxField bytes, and header names that are not valid UTF-8 are refused.
type Reader struct {
	File       string   // the file name as given, for messages
	Header     []string // column names, trimmed
	HeaderLine int      // 1-based line of the header

	cr   *csv.Reader
	lim  *limitReader
	rec  []string
	line int
	end  int // the line the last record ended on
}

// NewReader reads the header of a CSV file.
func NewReader(r io.Reader, file string) (*Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if b, err := br.Peek(3); err == nil && string(b) == "\xef\xbb\xbf" {
		br.Discard(3)
	}
	lim := &limitReader{r: br, max: MaxRecord}
	cr := csv.NewReader(lim)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true
	rd := &Reader{File: file, cr: cr, lim: lim}
	ok, err := rd.read()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &Error{File: file, Msg: "empty file: want a header line and data rows"}
	}
	if err := rd.setHeader(); err != nil {
		return nil, err
	}
	return rd, nil
}

// read reads the next record, trimmed; false at the end of the file.
func (rd *Reader) read() (bool, error) {
	rec, err := rd.cr.Read()
	if err == io.EOF {
		return false, nil
	}
	if errors.Is(err, errRecordTooLong) {
		return false, &Error{File: rd.File, Line: rd.end + 1, Msg: fmt.Sprintf(
			"a record longer than %d MB, the limit of one CSV record (is this a CSV file? a binary or NUL-filled file has no line breaks)", MaxRecord>>20)}
	}
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return false, &Error{File: rd.File, Line: pe.Line, Msg: fmt.Sprintf("malformed CSV at byte %d of the line: %v", pe.Column, pe.Err)}
		}
		return false, &Error{File: rd.File, Msg: err.Error()}
	}
	rd.lim.reset()
	rd.line, _ = rd.cr.FieldPos(0)
	rd.end, _ = rd.cr.FieldPos(len(rec) - 1)
	for i := range rec {
		rec[i] = strings.TrimSpace(rec[i])
		if len(rec[i]) > MaxField {
			e := &Error{File: rd.File, Line: rd.line, Column: i + 1, Msg: fmt.Sprintf(
				"a field of %d bytes, beyond the limit of %d kB per field: %s", len(rec[i]), MaxField>>10, Quote(rec[i]))}
			if i < len(rd.Header) {
				e.Name = rd.Header[i]
			}
			return false, e
		}
	}
	rd.rec = rec
	return true, nil
}

func (rd *Reader) setHeader() error {
	rec := rd.rec
	for i, name := range rec {
		if name == "" {
			return &Error{File: rd.File, Line: rd.line, Column: i + 1, Msg: "empty column name in the header"}
		}
		if err := CheckUTF8(name); err != nil {
			return &Error{File: rd.File, Line: rd.line, Column: i + 1, Msg: "the column name " + err.Error()}
		}
		for j, prev := range rec[:i] {
			if strings.EqualFold(prev, name) { // the rule column uses
				return &Error{File: rd.File, Line: rd.line, Column: i + 1, Name: name,
					Msg: fmt.Sprintf("column name repeats column %d (%s); names are compared ignoring case", j+1, prev)}
			}
		}
	}
	for i := range rec {
		rec[i] = strings.Clone(rec[i])
	}
	rd.Header, rd.HeaderLine = append([]string(nil), rec...), rd.line
	return nil
}

// Next reads the next data row; it returns false at the end of the file.
func (rd *Reader) Next() (bool, error) {
	ok, err := rd.read()
	if !ok || err != nil {
		return false, err
	}
	if len(rd.rec) != len(rd.Header) {
		return false, &Error{File: rd.File, Line: rd.line, Msg: fmt.Sprintf("%d fields, but the header has %d columns", len(rd.rec), len(rd.Header))}
	}
	return true, nil
}

// Line returns the 1-based line of the current row.
func (rd *Reader) Line() int { return rd.line }

// Field returns the current row's field in column col.
func (rd *Reader) Field(col int) string { return rd.rec[col] }

// Column returns the index of the column named name (ignoring case), or −1.
func (rd *Reader) Column(name string) int { return column(rd.Header, name) }

// Require returns the indices of the named columns, or an error naming the
// first one missing.
func (rd *Reader) Require(names ...string) ([]int, error) {
	return require(rd.File, rd.Header, rd.HeaderLine, names)
}

// ErrAt returns an Error at the current row, column col (−1: the whole row).
func (rd *Reader) ErrAt(col int, format string, args ...any) *Error {
	return errAt(rd.File, rd.Header, rd.line, col, format, args...)
}

// Float parses the current row's field in column col as a finite number.
func (rd *Reader) Float(col int) (float64, error) {
	return parseFloat(rd.File, rd.Header, rd.line, col, rd.rec[col])
}

// ID returns the current row's field in column col, which must be
// non-empty, valid UTF-8 text.
// It shares the memory of the row's line: clone it to keep it.
func (rd *Reader) ID(col int) (string, error) {
	return id(rd.File, rd.Header, rd.line, col, rd.rec[col])
}
