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
// error, whatever parse returned; otherwise parse's error is.
func ParseHashed(field, path, want string, parse func(io.Reader) error) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", field, err)
	}
	defer f.Close()
	h := sha256.New()
	tee := io.TeeReader(f, h)
	perr := parse(tee)
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
