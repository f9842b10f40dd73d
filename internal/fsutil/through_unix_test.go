//go:build unix

package fsutil

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// TestWriteThrough: a symbolic link is followed and stays a link (also a
// dangling one, and a chain), a named pipe and /dev/null are written in
// place and stay what they are, a directory is refused, and "-" is stdout.
func TestWriteThrough(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.csv")
	if err := WriteFile(real, []byte("old")); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.csv")
	chain := filepath.Join(dir, "chain.csv")
	dangling := filepath.Join(dir, "dangling.csv")
	for _, l := range [][2]string{{"real.csv", link}, {"link.csv", chain}, {"sub/new.csv", dangling}} {
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
	for path, want := range map[string]string{link: real, chain: real, dangling: filepath.Join(dir, "sub", "new.csv")} {
		if err := WriteWith(path, writeString("via "+filepath.Base(path))); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link (%v)", path, err)
		}
		if b, err := os.ReadFile(want); err != nil || string(b) != "via "+filepath.Base(path) {
			t.Errorf("%s: the file it names holds %q, %v", path, b, err)
		}
	}

	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan string)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	if err := WriteWith(fifo, writeString("through the pipe")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe" {
		t.Errorf("the pipe's reader got %q", s)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the named pipe was replaced: %v, %v", fi.Mode(), err)
	}

	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Logf("%s is not a device on this machine (%v): not written", os.DevNull, err)
	} else {
		if err := WriteWith(os.DevNull, writeString("nothing")); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
			t.Fatalf("%s is no longer a device: %v, %v", os.DevNull, fi.Mode(), err)
		}
	}

	if err := WriteWith(dir, writeString("x")); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("writing a directory: %v", err)
	}
	var out bytes.Buffer
	if err := WriteOut("-", &out, writeString("to stdout")); err != nil || out.String() != "to stdout" {
		t.Errorf(`WriteOut("-") wrote %q, %v`, out.String(), err)
	}
	if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
		t.Error(`WriteOut("-") made a file named -`)
	}
	if CheckFile("-") != nil {
		t.Error(`CheckFile("-") refuses standard output`)
	}
}
