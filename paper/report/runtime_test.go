package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRuntimeMacros: the speed table gives each algorithm's ratio to the
// random-context learner and says whether neural-adb-plus is within the bar;
// the cost table gives a configuration's time only where one row describes it.
func TestRuntimeMacros(t *testing.T) {
	const costs = "# a comment\n# another\nkey,figure,algorithm,problem,candidates,T,runs,cpu_s,gflop\n" +
		"a,fig1-fresh,neural-adb-ucb,square,20,1000,1,1.601,130.379\n" +
		"b,lockon-fresh,neural-adb-ucb,square,300,1000,1,9.571,747.664\n" +
		"c,choice-ucb,neural-adb-ucb,square,20,1000,1,1.601,130.379\n" +
		"d,choice-ucb,neural-adb-ucb,square,20,1000,1,0.665,54.178\n"
	for _, tc := range []struct {
		plus      string
		ratio, to string
	}{
		{"1.03", "2.9", "within"},
		{"1.05", "3.0", "within"},
		{"1.20", "3.4", "more than"},
	} {
		dir := t.TempDir()
		speed := "# Speed\n\n| algorithm | CPU s | peak MB |\n|---|---|---|\n" +
			"| neural-adb-ucb-randctx | 0.35 | 69 |\n| neural-adb-plus | " + tc.plus + " | 43 |\n"
		for rel, text := range map[string]string{"figures/speed.md": speed, "experiments/sweep/costs.csv": costs} {
			p := filepath.Join(dir, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		fs, err := Generate(dir)
		if err != nil {
			t.Fatal(err)
		}
		m := byName(fs)["macros.tex"]
		for _, want := range []string{
			`\nadbdef{speed/neural-adb-plus/per-randctx}{` + tc.ratio + `}`,
			`\nadbdef{speed/neural-adb-ucb-randctx/per-randctx}{1.0}`,
			`\nadbdef{speed/neural-adb-plus/bar}{` + tc.to + `}`,
			`\nadbdef{costs/fig1-fresh/neural-adb-ucb/square/m20/cpu}{\ensuremath{1.60}}`,
			`\nadbdef{costs/lockon-fresh/neural-adb-ucb/square/m300/cpu}{\ensuremath{9.57}}`,
		} {
			if !strings.Contains(m, want) {
				t.Errorf("plus %s s: macros.tex lacks %s", tc.plus, want)
			}
		}
		if strings.Contains(m, `costs/choice-ucb/`) {
			t.Errorf("macros.tex defines a cost that two rows of the table describe")
		}
	}
}
