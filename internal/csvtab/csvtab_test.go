package csvtab

import (
	"slices"
	"strings"
	"testing"
)

// TestReaderAndRead: Read (the whole table) and Reader (a record at a time)
// accept the same files with the same fields and line numbers, and refuse
// the same files with the same located errors.
func TestReaderAndRead(t *testing.T) {
	for _, in := range []string{
		"a,b\n1,2\n\n 3 , 4\n",
		"\xef\xbb\xbfa,b\r\n1,2\r\n",
		"a,b\n\"x\ny\",2\n5,6\n",
		"",
		"a,A\n",
		"a,,b\n",
		"a,b\n1\n",
		"a,b\n1,\"2\n",
		"a,b\n1,2\"x\n",
		"a,b\n",
	} {
		tab, terr := Read(strings.NewReader(in), "f.csv")
		rd, rerr := NewReader(strings.NewReader(in), "f.csv")
		var rows [][]string
		var lines []int
		for rerr == nil {
			ok, err := rd.Next()
			if err != nil {
				rerr = err
				break
			}
			if !ok {
				break
			}
			rows = append(rows, slices.Clone(rd.rec))
			lines = append(lines, rd.Line())
		}
		if (terr == nil) != (rerr == nil) || (terr != nil && terr.Error() != rerr.Error()) {
			t.Errorf("%q: Read error %v, Reader error %v", in, terr, rerr)
			continue
		}
		if terr != nil {
			if _, ok := terr.(*Error); !ok {
				t.Errorf("%q: error %v is not an *Error", in, terr)
			}
			continue
		}
		if !slices.Equal(tab.Header, rd.Header) || tab.HeaderLine != rd.HeaderLine || !slices.Equal(tab.Lines, lines) || len(tab.Rows) != len(rows) {
			t.Errorf("%q: Read %+v, Reader header %v rows %v lines %v", in, tab, rd.Header, rows, lines)
			continue
		}
		for i := range rows {
			if !slices.Equal(tab.Rows[i], rows[i]) {
				t.Errorf("%q: row %d: Read %q, Reader %q", in, i, tab.Rows[i], rows[i])
			}
		}
	}
	tab, err := Read(strings.NewReader("a,b\n1,2\n\n 3 , 4\n"), "f.csv")
	if err != nil || !slices.Equal(tab.Lines, []int{2, 4}) || tab.Rows[1][0] != "3" {
		t.Errorf("Read = %+v, %v", tab, err)
	}
}
