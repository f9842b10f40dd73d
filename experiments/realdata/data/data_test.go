package data

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readmeChecksums parses the checksum block of README.md.
func readmeChecksums(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open("README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sums := map[string]string{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "<!-- checksums:begin"):
			in = true
		case strings.HasPrefix(line, "<!-- checksums:end"):
			in = false
		case in && line != "":
			sum, path, ok := strings.Cut(line, "  ")
			if !ok || len(sum) != 64 {
				t.Fatalf("README.md: malformed checksum line %q", line)
			}
			sums[path] = sum
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return sums
}

// TestChecksums: every shipped file is listed in README.md with its sha256,
// on disk and in the binary, and nothing listed is missing.
func TestChecksums(t *testing.T) {
	want := readmeChecksums(t)
	if len(want) != 4 {
		t.Errorf("README.md lists %d checksums, want 4", len(want))
	}
	var embedded []string
	err := fs.WalkDir(Shipped(), ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			embedded = append(embedded, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	listed := slices.Sorted(func(yield func(string) bool) {
		for k := range want {
			if !yield(k) {
				return
			}
		}
	})
	if !slices.Equal(embedded, listed) {
		t.Errorf("embedded files %v, README lists %v", embedded, listed)
	}
	if all := append(slices.Clone(CEMS), Shuttle...); !slices.Equal(slices.Sorted(slices.Values(all)), listed) {
		t.Errorf("CEMS+Shuttle = %v, README lists %v", all, listed)
	}
	for path, sum := range want {
		disk, err := os.ReadFile(filepath.FromSlash(path))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		emb, err := fs.ReadFile(Shipped(), path)
		if err != nil {
			t.Errorf("%s: not embedded: %v", path, err)
			continue
		}
		for what, b := range map[string][]byte{"on disk": disk, "embedded": emb} {
			got := sha256.Sum256(b)
			if hex.EncodeToString(got[:]) != sum {
				t.Errorf("%s %s: sha256 %x, README says %s", path, what, got, sum)
			}
		}
	}
}

func TestOpen(t *testing.T) {
	if fsys, err := Open("", CEMS); err != nil || fsys != Shipped() {
		t.Fatalf(`Open("") = %v, %v; want the shipped data`, fsys, err)
	}
	// This folder has the layout itself.
	fsys, err := Open(".", append(slices.Clone(CEMS), Shuttle...))
	if err != nil {
		t.Fatal(err)
	}
	a, err := Hash(fsys, CEMS)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Hash(Shipped(), CEMS)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Errorf("hash of the folder %s differs from the shipped data's %s", a, b)
	}
	if c, _ := Hash(Shipped(), Shuttle); c == b {
		t.Error("CEMS and Shuttle hash alike")
	}

	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "cems"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cems", "CEMSChoice_subjects.csv"), []byte("subject\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir  string
		want string
	}{
		{dir, filepath.Join(dir, "cems", "CEMSChoice_items.csv")},
		{filepath.Join(dir, "nope"), filepath.Join(dir, "nope")},
		{filepath.Join(dir, "cems", "CEMSChoice_subjects.csv"), "is not a folder"},
	} {
		_, err := Open(tc.dir, CEMS)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%s) error = %v, want it to name %s", tc.dir, err, tc.want)
		}
	}
}
