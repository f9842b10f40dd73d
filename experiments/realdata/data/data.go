// Package data ships the real data sets of the benchmarks inside the binary
// and opens a user-given folder with the same layout in their place.
//
// The layout (see README.md in this folder for provenance, licences and
// checksums):
//
//	cems/CEMSChoice_subjects.csv   students and their covariates
//	cems/CEMSChoice_items.csv      the six schools and their covariates
//	cems/CEMSChoice_pairs.csv      every student's answer to every school pair
//	shuttle/shuttle.csv            Statlog Shuttle: 9 features and a class label
//
// Open returns the shipped copy for an empty folder name, so a fresh clone runs
// every benchmark from any working directory; a folder given by the user is
// checked for the files a benchmark needs, and a missing one is an error that
// names the path looked for.
package data

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed cems/*.csv shuttle/*.csv
var shipped embed.FS

// The files each benchmark reads, as slash-separated paths inside a data folder.
var (
	CEMS    = []string{"cems/CEMSChoice_subjects.csv", "cems/CEMSChoice_items.csv", "cems/CEMSChoice_pairs.csv"}
	Shuttle = []string{"shuttle/shuttle.csv"}
)

// Shipped returns the data compiled into the binary.
func Shipped() fs.FS { return shipped }

// Open returns the data folder dir, or the shipped data when dir is empty,
// after checking that every file in files is present. The error for a missing
// file names the full path looked for and the expected layout.
func Open(dir string, files []string) (fs.FS, error) {
	if dir == "" {
		return shipped, nil
	}
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("data: folder %s: %w", dir, errors.Unwrap(err))
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("data: %s is not a folder (want a folder holding cems/ and shuttle/ as in experiments/data)", dir)
	}
	fsys := os.DirFS(dir)
	for _, f := range files {
		if _, err := fs.Stat(fsys, f); err != nil {
			return nil, fmt.Errorf("data: %s: %w (a data folder has the layout of experiments/data: cems/, shuttle/; see its README.md)",
				filepath.Join(dir, filepath.FromSlash(f)), errors.Unwrap(err))
		}
	}
	return fsys, nil
}

// Hash returns a content hash of files in fsys: the hex sha256 of the lines
// "<sha256 of the file>  <path>\n" in the order given. Equal files give equal
// hashes wherever the folder is.
func Hash(fsys fs.FS, files []string) (string, error) {
	h := sha256.New()
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return "", fmt.Errorf("data: %w", err)
		}
		sum := sha256.Sum256(b)
		fmt.Fprintf(h, "%s  %s\n", hex.EncodeToString(sum[:]), f)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
