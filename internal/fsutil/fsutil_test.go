package fsutil

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "a.txt")
	if err := WriteFile(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("two")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "two" {
		t.Fatalf("content %q", b)
	}
	// A failed write leaves the old file and no temporary behind.
	boom := errors.New("boom")
	if err := WriteWith(path, func(w io.Writer) error { w.Write([]byte("partial")); return boom }); err != boom {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "two" {
		t.Fatalf("content after failed write %q", b)
	}
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
		t.Fatalf("directory holds %d entries, want only a.txt", len(ents))
	}
}

func TestCheckFileAndDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	if err := WriteFile(file, []byte("x")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		check func(string) error
		path  string
		ok    bool
	}{
		{"file: new", CheckFile, filepath.Join(dir, "new.csv"), true},
		{"file: new in new dirs", CheckFile, filepath.Join(dir, "a", "b", "new.csv"), true},
		{"file: existing file", CheckFile, file, true},
		{"file: a directory", CheckFile, dir, false},
		{"file: below a file", CheckFile, filepath.Join(file, "x.csv"), false},
		{"dir: existing", CheckDir, dir, true},
		{"dir: new", CheckDir, filepath.Join(dir, "a", "b"), true},
		{"dir: a file", CheckDir, file, false},
		{"dir: below a file", CheckDir, filepath.Join(file, "sub"), false},
	} {
		err := tc.check(tc.path)
		if (err == nil) != tc.ok {
			t.Errorf("%s: %s: err = %v, want ok = %v", tc.name, tc.path, err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), dir) {
			t.Errorf("%s: error %q does not name the path", tc.name, err)
		}
	}
}
