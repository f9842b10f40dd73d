// Package fsutil writes files atomically: through a temporary file in the
// target's directory and a rename, so that a reader (or a resumed sweep) never
// sees a partially written file, whatever interrupts the writer.
package fsutil

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
)

// WriteWith creates path's directory if needed and writes the file with
// write, atomically.
func WriteWith(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
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
