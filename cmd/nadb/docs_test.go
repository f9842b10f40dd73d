package main

import (
	"encoding/csv"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/verify"
)

// root is the repository root, seen from this package.
var root = filepath.Join("..", "..")

// docFiles returns the hand-written documents of the repository (relative
// to root): every Markdown file outside .git, bin and figures/quick, except
// figures/claims.md, which verify.Table generates (its strings are checked
// instead); every package documentation file doc.go; and the report's LaTeX.
func docFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch rel {
			case ".git", "bin", ".cache", "figures/quick":
				return filepath.SkipDir
			}
			return nil
		}
		if (strings.HasSuffix(rel, ".md") && rel != "figures/claims.md") || d.Name() == "doc.go" || strings.HasSuffix(rel, ".tex") {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// unresolvable matches references to things a clone of the repository does
// not have: issue numbers, notes, tools and paths of the place it was made.
// The alternatives are joined from parts so that this file does not itself
// hold the references it forbids.
var unresolvable = regexp.MustCompile(`(?i)` + strings.Join([]string{
	`\bissues? #?\d+\b`,
	`measured` + `-facts`,
	`project` + ` notes`,
	`another` + ` helper`,
	`help` + `er'?s\b`,
	`help` + `er session`,
	`sub` + `agent`,
	`/wo` + `rk/`,
	`\.\./sha` + `red`,
	`farm` + `-(bench|studio)`,
}, "|"))

// repoPath matches a path into the repository's top-level folders.
var repoPath = regexp.MustCompile("(?:^|[\\s(`\"'])((?:figures|experiments|internal|theory|verify|cmd|algorithms|paper)/[A-Za-z0-9_.*{},/-]*)")

// expandBraces expands one level of {a,b} alternatives.
func expandBraces(p string) []string {
	i, j := strings.Index(p, "{"), strings.Index(p, "}")
	if i < 0 || j < i {
		return []string{p}
	}
	var out []string
	for alt := range strings.SplitSeq(p[i+1:j], ",") {
		out = append(out, p[:i]+alt+p[j+1:])
	}
	return out
}

// checkReferences reports the unresolvable references of text and its
// repository paths that do not exist.
func checkReferences(t *testing.T, name, text string) {
	t.Helper()
	for _, m := range unresolvable.FindAllString(text, -1) {
		t.Errorf("%s: %q refers to something outside the repository", name, m)
	}
	for _, m := range repoPath.FindAllStringSubmatch(text, -1) {
		p := strings.TrimRight(m[1], ".,:;)")
		if p == "" || strings.HasPrefix(p, "figures/quick") || strings.HasPrefix(p, "paper/build") {
			continue // gitignored outputs of make figures-quick and make paper
		}
		found := false
		for _, alt := range expandBraces(p) {
			matches, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(alt)))
			if len(matches) > 0 {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: %q does not exist in the repository", name, p)
		}
	}
}

// TestReferencesResolve: every reference in the documents (and in the
// claims table, which generates figures/claims.md) resolves inside the
// repository: no issue numbers, notes or outside paths, and every path into
// the repository exists.
func TestReferencesResolve(t *testing.T) {
	for _, rel := range docFiles(t) {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		if strings.HasSuffix(rel, ".tex") {
			text = strings.ReplaceAll(text, `\_`, "_") // LaTeX's escaped underscore in paths
		}
		checkReferences(t, rel, text)
	}
	for _, c := range verify.Table() {
		checkReferences(t, "claim "+c.ID, strings.Join([]string{c.Claim, c.Source, c.Statistic, c.Test, c.Why}, "\n"))
	}
}

// TestFiguresIndexComplete: figures/README.md lists every committed result,
// and everything it lists exists, so that no result is kept without the
// text that relies on it.
func TestFiguresIndexComplete(t *testing.T) {
	index, err := os.ReadFile(filepath.Join(root, "figures", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, m := range regexp.MustCompile("`(figures/[^`]+)`").FindAllStringSubmatch(string(index), -1) {
		if !strings.HasSuffix(m[1], "/") {
			patterns = append(patterns, m[1])
		}
	}
	used := map[string]bool{}
	err = filepath.WalkDir(filepath.Join(root, "figures"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "figures/quick" {
				return filepath.SkipDir
			}
			return nil
		}
		if rel == "figures/README.md" {
			return nil
		}
		for _, p := range patterns {
			if ok, _ := filepath.Match(p, rel); ok {
				used[p] = true
				return nil
			}
		}
		t.Errorf("%s is not listed in figures/README.md", rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range patterns {
		if !used[p] {
			t.Errorf("figures/README.md lists %s, which matches no file", p)
		}
	}
}

// TestREADMERealDataNumbers: the CEMSChoice numbers the README quotes are
// the committed results at T = 1000 (figures/realdata/real-cems.csv) under
// the metric they are named for.
func TestREADMERealDataNumbers(t *testing.T) {
	f, err := os.Open(filepath.Join(root, "figures", "realdata", "real-cems.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	final := map[[2]string]float64{} // (curve, metric) → mean at T = 1000
	for _, r := range recs[1:] {
		if r[3] == "1000" {
			v, _ := strconv.ParseFloat(r[4], 64)
			final[[2]string{r[1], r[2]}] = v
		}
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Join(strings.Fields(string(readme)), " ")
	for _, tc := range []struct {
		phrase, curve, metric string
	}{
		{"accuracy 0.690", "random", "test_accuracy"},
		{"log-loss 0.590", "random", "test_logloss"},
		{"Neural-ADB as written reaches an accuracy of only 0.575", "neural-adb-ucb", "test_accuracy"},
	} {
		if !strings.Contains(s, tc.phrase) {
			t.Errorf("README does not say %q", tc.phrase)
			continue
		}
		num := tc.phrase[strings.LastIndex(tc.phrase, " ")+1:]
		want, _ := strconv.ParseFloat(num, 64)
		if got, ok := final[[2]string{tc.curve, tc.metric}]; !ok || math.Abs(got-want) > 0.0005 {
			t.Errorf("README %q: %s %s at T = 1000 is %.4f", tc.phrase, tc.curve, tc.metric, got)
		}
	}
}
