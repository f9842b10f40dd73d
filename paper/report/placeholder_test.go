package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// files returns the generated files by name.
func byName(fs []File) map[string]string {
	out := map[string]string{}
	for _, f := range fs {
		out[f.Name] = string(f.Data)
	}
	return out
}

// TestMissingInputsArePlaceholders: with no results at all the generation
// succeeds, every file that needs a missing input holds a placeholder, and
// the title page's list names the inputs and the commands that make them.
func TestMissingInputsArePlaceholders(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "figures"), 0o755); err != nil {
		t.Fatal(err)
	}
	fs, err := Generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := byName(fs)
	for _, name := range []string{"final-fig1-main.tex", "claims.tex", "verdict.tex", "lockon-main.tex", "realdata-cems.tex", "theory-verdicts.tex", "theory-counterexample.tex"} {
		if !strings.Contains(files[name], `\nadbplaceholder{`) {
			t.Errorf("%s has no placeholder:\n%s", name, files[name])
		}
	}
	pending := files["pending.tex"]
	for _, want := range []string{`figures/\allowbreak{}claims.csv`, `make verify`, `figures/\allowbreak{}fig1-\allowbreak{}main.csv`, `nadb theory`} {
		if !strings.Contains(pending, want) {
			t.Errorf("pending.tex does not mention %q:\n%s", want, pending)
		}
	}
	if strings.Contains(files["macros.tex"], `\nadbdef{fig/`) {
		t.Error("macros.tex defines figure values without any figure")
	}
	// Values that come from the code are there regardless.
	for _, k := range []string{`\nadbdef{scale/paper/T}`, `\nadbdef{config/width/default}`} {
		if !strings.Contains(files["macros.tex"], k) {
			t.Errorf("macros.tex lacks %s", k)
		}
	}
}

// TestMalformedInputNamesFile: a figure CSV without its columns is an
// error naming the file, not a placeholder.
func TestMalformedInputNamesFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "figures"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "figures", "fig1-main.csv"), []byte("row,curve\nSquare,x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Generate(dir)
	if err == nil || !strings.Contains(err.Error(), "figures/fig1-main.csv") {
		t.Errorf("error %v, want one naming figures/fig1-main.csv", err)
	}
}

// TestFigureValues: a figure CSV becomes the final-value macros and table
// of its figure (the last checkpoint, mean ± half-width, and the first).
func TestFigureValues(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "figures"), 0o755); err != nil {
		t.Fatal(err)
	}
	csv := "row,curve,metric,t,mean,ci_low,ci_high,n\n" +
		"Square,neural-adb-ucb,mean_gap,0,8.98825,8.6,9.4,10\n" +
		"Square,neural-adb-ucb,mean_gap,1000,7.02328,6.436867,7.609693,10\n" +
		"Square,\"neural-adb-ucb, random contexts (ours)\",mean_gap,1000,0.113989,0.0909405,0.1370375,10\n"
	if err := os.WriteFile(filepath.Join(dir, "figures", "fig1-main.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{
		"fig/fig1-main/square/neural-adb-ucb/mean_gap":         `\ensuremath{7.02 \pm 0.59}`,
		"fig/fig1-main/square/neural-adb-ucb/mean_gap/mean":    `\ensuremath{7.02}`,
		"fig/fig1-main/square/neural-adb-ucb/mean_gap/t0":      `\ensuremath{8.99}`,
		"fig/fig1-main/square/neural-adb-ucb-randctx/mean_gap": `\ensuremath{0.114 \pm 0.023}`,
		"fig/fig1-main/T": `\ensuremath{1000}`,
	} {
		if got := g.macros.vals[k]; got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	table := g.files["final-fig1-main.tex"].String()
	if !strings.Contains(table, `neural-adb-ucb, random contexts (ours) & $0.114 \pm 0.023$`) {
		t.Errorf("final-fig1-main.tex lacks the random-context row:\n%s", table)
	}
}
