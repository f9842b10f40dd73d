// Package fsutil writes files atomically: through a temporary file in the
// target's directory and a rename, so that a reader (or a resumed sweep) never
// sees a partially written file, whatever interrupts the writer.
//
// Files are created with mode 0666 and directories with 0777, both reduced by
// the process's umask as for any ordinary file (0644 and 0755 under the usual
// umask 022). CheckFile and CheckDir test an output path before any work is
// done, so that a long computation does not end in an error about its target.
package fsutil

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
)

// tmpCounter numbers the temporary files of this process.
var tmpCounter atomic.Uint64

// createTemp creates a new file next to path, with mode 0666 less the umask
// (os.CreateTemp would always use 0600, and the rename would keep it).
func createTemp(dir, base string) (*os.File, error) {
	prefix := "." + base + ".tmp-" + strconv.Itoa(os.Getpid()) + "-"
	for {
		name := filepath.Join(dir, prefix+strconv.FormatUint(tmpCounter.Add(1), 10))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
}

// WriteWith creates path's directory if needed and writes the file with
// write, atomically.
func WriteWith(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	tmp, err := createTemp(dir, filepath.Base(path))
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// WriteFile writes data to path atomically.
func WriteFile(path string, data []byte) error {
	return WriteWith(path, func(w io.Writer) error {
		_, err := io.Copy(w, bytes.NewReader(data))
		return err
	})
}

// CheckFile reports whether WriteWith could write path: path is not a
// directory, and the nearest of its ancestors that exists is a directory.
func CheckFile(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return fmt.Errorf("%s is a directory, not a file", path)
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	return checkAncestors(path)
}

// CheckDir reports whether path is a directory or could be created as one:
// path is not an existing file, and the nearest of its ancestors that exists
// is a directory.
func CheckDir(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err == nil && !fi.IsDir():
		return fmt.Errorf("%s is a file, not a directory", path)
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	return checkAncestors(path)
}

// checkAncestors walks up from path's parent to the first ancestor that
// exists and reports an error unless it is a directory.
func checkAncestors(path string) error {
	for dir := filepath.Dir(filepath.Clean(path)); ; dir = filepath.Dir(dir) {
		fi, err := os.Stat(dir)
		switch {
		case err == nil && fi.IsDir():
			return nil
		case err == nil:
			return fmt.Errorf("cannot create %s: %s is a file, not a directory", path, dir)
		case !errors.Is(err, fs.ErrNotExist):
			return err
		}
		if parent := filepath.Dir(dir); parent == dir {
			return nil
		}
	}
}
