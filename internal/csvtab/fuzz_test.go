package csvtab

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzReader: the Reader never panics, refuses with an *Error or gives
// rows as wide as the header, fields within MaxField, identifiers that are
// UTF-8; Read (the whole table) agrees with it. Run with
// "go test -fuzz FuzzReader ./internal/csvtab"; interesting inputs are kept
// under testdata/fuzz/.
func FuzzReader(f *testing.F) {
	for _, s := range []string{
		"a,b\n1,2\n", "\xef\xbb\xbfa,b\r\n\"x\ny\",2\n", "a,A\n", "a,b\n1\n", "a,b\nZ\xfcrich,1\n", "a\n\"\"\"\n", "a,b\n\x00,1\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		tab, terr := Read(strings.NewReader(in), "f.csv")
		rd, err := NewReader(strings.NewReader(in), "f.csv")
		var rows [][]string
		for err == nil {
			var ok bool
			if ok, err = rd.Next(); err != nil || !ok {
				break
			}
			for col := range rd.Header {
				if len(rd.Field(col)) > MaxField {
					t.Fatalf("field of %d bytes accepted", len(rd.Field(col)))
				}
				if id, ierr := rd.ID(col); ierr == nil && !utf8.ValidString(id) {
					t.Fatalf("identifier %q is not UTF-8", id)
				}
			}
			if len(rd.rec) != len(rd.Header) {
				t.Fatalf("row of %d fields under a header of %d", len(rd.rec), len(rd.Header))
			}
			rows = append(rows, slices.Clone(rd.rec))
		}
		if (err == nil) != (terr == nil) || err != nil && err.Error() != terr.Error() {
			t.Fatalf("Reader error %v, Read error %v", err, terr)
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		if !slices.EqualFunc(rows, tab.Rows, slices.Equal) {
			t.Fatalf("Reader rows %q, Read rows %q", rows, tab.Rows)
		}
	})
}
