package xmath

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// viaExp matches a call of a function of package math that reaches
// math.Exp on amd64 (math's exp, erf, gamma, pow, sinh and tanh files).
var viaExp = regexp.MustCompile(`\bmath\.(Exp|Erf|Erfc|Gamma|Pow|Sinh|Cosh|Tanh)\(`)

// TestNoProcessorDependentMath keeps the module's code off those functions:
// every call outside this package and outside tests goes through Exp, Erfc
// and Pow here, so that no run's bytes depend on the processor.
func TestNoProcessorDependentMath(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root: %v", err)
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			// Hidden folders (caches), test data, this package, and the
			// assembly generator (a module of its own that runs nothing).
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "_asm" || path == filepath.Join(root, "internal", "xmath")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			code, _, _ := strings.Cut(line, "//")
			if m := viaExp.FindString(code); m != "" {
				t.Errorf("%s:%d: %s… reaches math.Exp, whose bits depend on the processor; call package xmath's Exp, Erfc or Pow", path, i+1, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
