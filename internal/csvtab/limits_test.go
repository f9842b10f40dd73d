package csvtab

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// zeros is an endless stream of NUL bytes: a reader without limits would
// never return.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestLimits: a file without line breaks (endless NULs), an overlong quoted
// record, an overlong field and identifiers that are not UTF-8 are refused
// with an Error at their line and column, and the values in the messages
// are shortened.
func TestLimits(t *testing.T) {
	read := func(r io.Reader) error {
		rd, err := NewReader(r, "f.csv")
		if err != nil {
			return err
		}
		for {
			ok, err := rd.Next()
			if err != nil || !ok {
				return err
			}
			if _, err := rd.ID(0); err != nil {
				return err
			}
		}
	}
	long := strings.Repeat("x", MaxField+1)
	for _, tc := range []struct {
		name string
		in   io.Reader
		want string
	}{
		{"endless NULs", zeros{}, "f.csv line 1: a record longer than 16 MB"},
		{"NULs after a header", io.MultiReader(strings.NewReader("id,x\na,1\n"), zeros{}), "f.csv line 3: a record longer than 16 MB"},
		{"quoted line breaks", io.MultiReader(strings.NewReader("id,x\n\"a"), strings.NewReader(strings.Repeat("\n", MaxRecord+1))), "f.csv line 2: a record longer"},
		{"long field", strings.NewReader("id,x\n" + long + ",1\n"), `f.csv line 2, column 1 (id): a field of 65537 bytes, beyond the limit of 64 kB per field: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… (65537 bytes)`},
		{"Latin-1 identifier", strings.NewReader("id,x\nZ\xfcrich,1\n"), `f.csv line 2, column 1 (id): the id is not valid UTF-8 (byte 0xfc at byte 2 of "Z\xfcrich")`},
		{"Latin-1 header", strings.NewReader("id,gr\xf6\xdfe\na,1\n"), `f.csv line 1, column 2: the column name is not valid UTF-8 (byte 0xf6 at byte 3`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := read(tc.in)
			var e *Error
			if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v\nwant an *Error starting %q", err, tc.want)
			}
			if err != nil && len(err.Error()) > 400 {
				t.Errorf("message of %d bytes; want it short", len(err.Error()))
			}
		})
	}
	// Just below the limits, and UTF-8 text, are fine.
	ok := "id,x\n" + strings.Repeat("é", MaxField/2) + ",1\nZürich,2\n"
	if err := read(strings.NewReader(ok)); err != nil {
		t.Errorf("valid file refused: %v", err)
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"abc":                      `"abc"`,
		strings.Repeat("é", 30):    `"` + strings.Repeat("é", 30) + `"`,
		strings.Repeat("a", 48):    `"` + strings.Repeat("a", 48) + `"`,
		strings.Repeat("a", 49):    `"` + strings.Repeat("a", 40) + `"… (49 bytes)`,
		strings.Repeat("\xff", 60): `"` + strings.Repeat(`\xff`, 40) + `"… (60 bytes)`,
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%.20q…) = %s, want %s", in, got, want)
		}
	}
}
