package experiments

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHashedRefusesNonRegular checks that a device given as a run's pool or
// answers file is refused at once, naming the file, instead of being read
// for ever (/dev/zero) or hashed once and read differently the next time.
func TestHashedRefusesNonRegular(t *testing.T) {
	if _, err := os.Stat(os.DevNull); err != nil {
		t.Skip(err)
	}
	if _, err := HashFile("pool", os.DevNull, ""); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("HashFile(%s) = %v, want a not-a-regular-file error", os.DevNull, err)
	}
	if _, _, err := ReadHashed("answers", os.DevNull, ""); err == nil || !strings.Contains(err.Error(), "answers: "+os.DevNull) {
		t.Errorf("ReadHashed(%s) = %v, want an error naming the field and file", os.DevNull, err)
	}
	path := filepath.Join(t.TempDir(), "ok.csv")
	if err := os.WriteFile(path, []byte("a,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := ParseHashed("pool", path, "", func(r io.Reader) error { _, err := io.ReadAll(r); return err })
	if err != nil || len(sum) != 64 {
		t.Errorf("ParseHashed(regular file) = %q, %v", sum, err)
	}
	if _, err := ParseHashed("pool", path, sum, func(io.Reader) error { return io.ErrUnexpectedEOF }); err != io.ErrUnexpectedEOF {
		t.Errorf("ParseHashed with the right hash returned %v, want the parse error", err)
	}
}
