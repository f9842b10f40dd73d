//go:build unix

package fsutil

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteFileHonoursUmask: written files get 0666 less the umask (0644
// under the usual 022), as files made by any other tool, not the 0600 of a
// temporary file.
func TestWriteFileHonoursUmask(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		umask int
		want  os.FileMode
	}{
		{0o022, 0o644},
		{0o027, 0o640},
		{0o002, 0o664},
	} {
		old := syscall.Umask(tc.umask)
		path := filepath.Join(dir, "sub", "f.txt")
		err := WriteFile(path, []byte("x"))
		syscall.Umask(old)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != tc.want {
			t.Errorf("umask %03o: mode %03o, want %03o", tc.umask, got, tc.want)
		}
	}
}
