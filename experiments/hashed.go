package experiments

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// ParseHashed is ReadHashed for files too large to hold as text: it streams
// the file named by field (for messages) through parse while hashing it, and
// returns the sha256. A recorded hash want that no longer matches is the
// error, whatever parse returned; otherwise parse's error is. Only regular
// files are read: a device, pipe or socket cannot be hashed and read again
// for a replay (and /dev/zero never ends), so it is refused at once.
func ParseHashed(field, path, want string, parse func(io.Reader) error) (string, error) {
	f, err := openRegular(field, path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	tee := io.TeeReader(f, h)
	perr := parse(tee)
	if perr != nil && want == "" {
		return "", perr // the rest of a file that does not parse is not worth hashing
	}
	if _, err := io.Copy(io.Discard, tee); err != nil {
		return "", fmt.Errorf("%s: %w", field, err)
	}
	got := hex.EncodeToString(h.Sum(nil))
	if want != "" && want != got {
		return "", fmt.Errorf("%s: %s has changed since the run was specified (sha256 %s, spec records %s)", field, path, got, want)
	}
	return got, perr
}

// HashFile returns the sha256 of the file named by field, checked against
// want as ReadHashed does, without holding the file in memory.
func HashFile(field, path, want string) (string, error) {
	return ParseHashed(field, path, want, func(io.Reader) error { return nil })
}

// openRegular opens a user file for a run, refusing anything but a regular
// file: a device, pipe or socket cannot be hashed and read again for a
// replay (and /dev/zero never ends).
func openRegular(field, path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is %s, not a regular file: a run hashes its files and reads them again to replay; copy the data into a file", path, fileKind(fi.Mode()))
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	return f, nil
}

// fileKind names a non-regular file's type for a message.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}
