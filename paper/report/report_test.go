package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite paper/generated from the committed results")

// root is the repository root, seen from this package.
var root = filepath.Join("..", "..")

var generatedDir = filepath.Join(root, "paper", "generated")

// committed is one generation from the committed results, shared by the
// tests that only read it (rendering the figures' print layouts makes a
// generation take about a second of CPU).
var committed struct {
	once sync.Once
	g    *gen
	err  error
}

// generated returns the shared generation from the committed results.
func generated(t *testing.T) (*gen, []File) {
	t.Helper()
	committed.once.Do(func() { committed.g, committed.err = generate(root) })
	if committed.err != nil {
		t.Fatal(committed.err)
	}
	return committed.g, committed.g.output()
}

// TestGeneratedUpToDate: the committed paper/generated/*.tex are what
// Generate makes of the committed results and code; -update rewrites them.
func TestGeneratedUpToDate(t *testing.T) {
	_, files := generated(t)
	if *update {
		if _, err := Write(generatedDir, files); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(generatedDir, f.Name))
		if err != nil {
			t.Errorf("paper/generated/%s: %v (run go test ./paper/report -update, or nadb paper)", f.Name, err)
			continue
		}
		if !strings.HasSuffix(f.Name, ".tex") {
			if !bytes.Equal(got, f.Data) {
				t.Errorf("paper/generated/%s is stale relative to the committed results (run go test ./paper/report -update, or nadb paper)", f.Name)
			}
			continue
		}
		if d := cmp.Diff(string(got), string(f.Data)); d != "" {
			t.Errorf("paper/generated/%s is stale relative to the committed results (run go test ./paper/report -update, or nadb paper); -committed +generated:\n%s", f.Name, d)
		}
	}
}

// Deterministic: two generations give the same files and bytes.
func TestGenerateDeterministic(t *testing.T) {
	_, a := generated(t)
	b, err := Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) {
		t.Fatalf("two generations make %d and %d files", len(a), len(b))
	}
	for i := range a {
		if a[i].Name != b[i].Name || !bytes.Equal(a[i].Data, b[i].Data) {
			t.Errorf("two generations differ: %s (%d bytes) and %s (%d bytes)", a[i].Name, len(a[i].Data), b[i].Name, len(b[i].Data))
		}
	}
}

// proseFiles are the hand-written LaTeX files of the report.
func proseFiles(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, pat := range []string{"paper/*.tex", "paper/sections/*.tex"} {
		ms, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pat)))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			b, err := os.ReadFile(m)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(root, m)
			out[filepath.ToSlash(rel)] = stripComments(string(b))
		}
	}
	if len(out) == 0 {
		t.Fatal("no prose files under paper/")
	}
	return out
}

// comment matches a LaTeX comment: an unescaped % to the end of the line.
var comment = regexp.MustCompile(`(^|[^\\])%.*`)

// stripComments removes the comments of LaTeX text.
func stripComments(s string) string { return comment.ReplaceAllString(s, "$1") }

var useKey = regexp.MustCompile(`\\nadb\{([^{}]+)\}`)

// TestProseKeysDefined: every \nadb{key} of the prose is defined by the
// committed results, or comes from an input that is not generated yet (a
// placeholder in the PDF, listed on its title page); a typo in a key fails.
func TestProseKeysDefined(t *testing.T) {
	g, _ := generated(t)
	for name, text := range proseFiles(t) {
		for _, m := range useKey.FindAllStringSubmatch(text, -1) {
			k := m[1]
			if _, ok := g.macros.vals[k]; ok {
				continue
			}
			pending := slices.ContainsFunc(g.pending, func(p pendingInput) bool { return strings.HasPrefix(k, p.keys) })
			if !pending {
				t.Errorf("%s: \\nadb{%s} is not defined by the committed results (paper/report/doc.go lists the keys)", name, k)
			}
		}
	}
}

var prosePath = regexp.MustCompile(`\\nadbpath\{([^{}]+)\}`)

// TestProsePathsExist: every repository path the prose names exists, or is
// an input not generated yet.
func TestProsePathsExist(t *testing.T) {
	g, _ := generated(t)
	for name, text := range proseFiles(t) {
		for _, m := range prosePath.FindAllStringSubmatch(text, -1) {
			p := m[1]
			if ms, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(p))); len(ms) > 0 {
				continue
			}
			if ms, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(p)+".*")); len(ms) > 0 {
				continue // a figure's stem
			}
			if slices.ContainsFunc(g.pending, func(q pendingInput) bool { return q.path == p }) {
				continue
			}
			t.Errorf("%s: \\nadbpath{%s} does not exist in the repository", name, p)
		}
	}
}

// TestEveryFigureInReport: every figure of sweep.FigureSpecs is shown
// somewhere in the report (a new figure needs a place in the prose).
func TestEveryFigureInReport(t *testing.T) {
	g, _ := generated(t)
	var all strings.Builder
	for _, text := range proseFiles(t) {
		all.WriteString(text)
	}
	for name := range g.files {
		if id, ok := strings.CutPrefix(name, "figure-"); ok {
			if !strings.Contains(all.String(), `\nadbinput{figure-`+strings.TrimSuffix(id, ".tex")+`}`) {
				t.Errorf("generated/%s is not \\nadbinput in paper/ or paper/sections/", name)
			}
		}
	}
}

// rawMath matches mathematics that reached the LaTeX as escaped source
// instead of being typeset: a subscript group or a variable's subscript
// written as text (Σ\_max, z\_s, \_\{V…\}), a caret escaped as text.
var rawMath = regexp.MustCompile(`\\_\\\{|(^|[^A-Za-z\\])[A-Za-z]\\_[A-Za-z0-9]|\\ensuremath\{\\[A-Za-z]+\}\\_|\\\^\{\}`)

// TestGeneratedTypesetsMath: no generated table or macro prints the source of
// a formula (the claims' statements are written in plain text with
// subscripts like Σ_max; Escape must typeset them).
func TestGeneratedTypesetsMath(t *testing.T) {
	_, files := generated(t)
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".tex") {
			continue
		}
		for i, line := range strings.Split(string(f.Data), "\n") {
			// \nadbcode{…} is typewriter text: code keeps its underscores.
			text := regexp.MustCompile(`\\nadbcode\{[^}]*\}`).ReplaceAllString(line, "")
			if m := rawMath.FindString(text); m != "" {
				t.Errorf("paper/generated/%s:%d prints formula source %q:\n%s", f.Name, i+1, m, line)
			}
		}
	}
}
