package csvtab

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// Limits of what a data file may hold. They are far beyond any real pool or
// answers file (a pool row of 100,000 features is about 2 MB) and stop a
// file that is not CSV (a binary or NUL-filled file has no line breaks)
// before it takes the memory of its size.
const (
	// MaxRecord bounds the bytes of one CSV record (a line, or several
	// when a quoted field holds line breaks), give or take the 4 kB that
	// encoding/csv reads ahead.
	MaxRecord = 16 << 20
	// MaxField bounds the bytes of one field (an identifier, a number or a
	// column name).
	MaxField = 64 << 10
)

// errRecordTooLong is returned by limitReader past MaxRecord.
var errRecordTooLong = errors.New("record too long")

// limitReader passes at most max bytes between calls of reset, so that an
// overlong record is refused before it is held in memory.
type limitReader struct {
	r   io.Reader
	n   int64 // bytes since reset
	max int64
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.n >= l.max {
		return 0, errRecordTooLong
	}
	if rest := l.max - l.n; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := l.r.Read(p)
	l.n += int64(n)
	return n, err
}

func (l *limitReader) reset() { l.n = 0 }

// Quote returns s quoted as Go does (%q), shortened to its first 40
// characters and its length in bytes when it has more than 48, so that a
// message about a huge field stays short.
func Quote(s string) string {
	const keep, most = 40, 48
	cut, n := -1, 0
	for i := range s {
		if n == keep {
			cut = i
		}
		if n == most {
			return strconv.Quote(s[:cut]) + fmt.Sprintf("… (%d bytes)", len(s))
		}
		n++
	}
	return strconv.Quote(s)
}

// CheckUTF8 reports where s is not valid UTF-8 (the byte and its offset,
// with what to do), or nil.
func CheckUTF8(s string) error {
	if utf8.ValidString(s) {
		return nil
	}
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		i += size
	}
	return fmt.Errorf("is not valid UTF-8 (byte 0x%02x at byte %d of %s): save the file as UTF-8 (for example iconv -f latin1 -t utf-8, if it is Latin-1)", s[i], i+1, Quote(s))
}
