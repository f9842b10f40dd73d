// Package fsutil writes files atomically: through a temporary file in the
// target's directory and a rename, so that a reader (or a resumed sweep) never
// sees a partially written file, whatever interrupts the writer.
//
// A target that is not a regular file is written through, never replaced: a
// symbolic link is followed (the file it names is written, atomically, and
// the link stays), and a device, named pipe or socket (/dev/stdout,
// /dev/null) is opened and written in place. WriteOut also takes "-" for
// standard output.
//
// Files are created with mode 0666 and directories with 0777, both reduced by
// the process's umask as for any ordinary file (0644 and 0755 under the usual
// umask 022). CheckFile and CheckDir test an output path before any work is
// done, so that a long computation does not end in an error about its target.
package fsutil

import (
	"bufio"
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
// write: atomically when path is (or will be) a regular file, through a
// symbolic link to the file it names, and in place when path is a device, a
// named pipe or a socket. A directory is an error.
func WriteWith(path string, write func(io.Writer) error) error {
	target, direct, err := resolve(path)
	if err != nil {
		return err
	}
	if direct {
		return writeInPlace(target, write)
	}
	return writeAtomic(target, write)
}

// WriteBuffered is WriteWith through a 1 MiB buffer, for writers that
// make many small writes (a large array, a long list of lines).
func WriteBuffered(path string, write func(io.Writer) error) error {
	return WriteWith(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// WriteOut is WriteWith, except that path "-" writes to stdout.
func WriteOut(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "-" {
		return write(stdout)
	}
	return WriteWith(path, write)
}

// maxLinks bounds the symbolic links followed, as the kernel does (40).
const maxLinks = 40

// resolve returns the file WriteWith writes for path: path itself, or the
// file a chain of symbolic links ends at (which need not exist yet); direct
// is true when it exists and is not a regular file, so that it must be
// written in place.
func resolve(path string) (target string, direct bool, err error) {
	if fi, err := os.Stat(path); err == nil { // follows links, including /proc's
		switch {
		case fi.IsDir():
			return "", false, fmt.Errorf("%s is a directory, not a file", path)
		case !fi.Mode().IsRegular():
			return path, true, nil
		}
	}
	target = path
	for range maxLinks {
		fi, err := os.Lstat(target)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return target, false, nil
		case err != nil:
			return "", false, err
		case fi.Mode()&fs.ModeSymlink == 0:
			return target, false, nil
		}
		link, err := os.Readlink(target)
		if err != nil {
			return "", false, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(target), link)
		}
		target = link
	}
	return "", false, fmt.Errorf("%s: more than %d symbolic links", path, maxLinks)
}

// writeAtomic writes the regular file path through a temporary file and a
// rename.
func writeAtomic(path string, write func(io.Writer) error) error {
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

// writeInPlace writes to the existing device, pipe or socket path.
func writeInPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
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
// "-" (standard output for WriteOut) passes.
func CheckFile(path string) error {
	if path == "-" {
		return nil
	}
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
