package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/experiments/sweep"
)

// committedManifest reads a committed paper-scale manifest (read only).
func committedManifest(t *testing.T, rel string) sweep.Manifest {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "figures", rel))
	if err != nil {
		t.Fatal(err)
	}
	var man sweep.Manifest
	if err := json.Unmarshal(data, &man); err != nil {
		t.Fatal(err)
	}
	return man
}

// writeManifest writes man as JSON to path, creating its directory.
func writeManifest(t *testing.T, path string, man sweep.Manifest) {
	t.Helper()
	data, err := json.Marshal(man)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPaperManifestRecognised: a paper-scale manifest is recognised by its
// seeds and its runs' T and problem, whichever learners are registered
// today (a learner registered after the figure was made adds runs to the
// real-data figures, which the manifest lacks), and a manifest at another
// scale is not.
func TestPaperManifestRecognised(t *testing.T) {
	figs, err := sweep.Figures(sweep.Paper, []string{"real-cems"})
	if err != nil {
		t.Fatal(err)
	}
	f := figs[0]
	committed := committedManifest(t, filepath.Join("realdata", "real-cems.manifest.json"))
	first := committed.Runs[0].Spec.Algorithm
	for _, tc := range []struct {
		name  string
		edit  func(m *sweep.Manifest)
		paper bool
	}{
		{"committed", func(*sweep.Manifest) {}, true},
		{"a learner registered since", func(m *sweep.Manifest) {
			// Today's jobs have a learner the manifest lacks: as if the
			// first learner had been registered after the figure was made.
			var kept []sweep.RunRecord
			for _, r := range m.Runs {
				if r.Spec.Algorithm != first {
					kept = append(kept, r)
				}
			}
			m.Runs = kept
		}, true},
		{"a learner removed since", func(m *sweep.Manifest) {
			r := m.Runs[0]
			r.Spec.Algorithm = "removed-learner"
			m.Runs = append(m.Runs, r)
		}, true},
		{"quick seeds", func(m *sweep.Manifest) { m.Seeds = sweep.Quick.Seeds }, false},
		{"a run at another T", func(m *sweep.Manifest) { m.Runs[3].Spec.T = sweep.Quick.T }, false},
		{"a run on another problem", func(m *sweep.Manifest) { m.Runs[3].Spec.Problem.Name = "square" }, false},
		{"no runs", func(m *sweep.Manifest) { m.Runs = nil }, false},
	} {
		man := committedManifest(t, filepath.Join("realdata", "real-cems.manifest.json"))
		tc.edit(&man)
		path := filepath.Join(t.TempDir(), "real-cems.manifest.json")
		writeManifest(t, path, man)
		if got := paperManifest(path, f); got != tc.paper {
			t.Errorf("%s: recognised as paper scale %v, want %v", tc.name, got, tc.paper)
		}
	}
	if paperManifest(filepath.Join(t.TempDir(), "missing.json"), f) {
		t.Error("a missing manifest is recognised as paper scale")
	}
}

// TestPaperTreeRefusesOutputs: outputs that are not paper-scale figures
// are refused in a tree of paper-scale figures (at its root, in a figure's
// directory or below, whichever figures -only names, and whether or not
// today's learners match the manifest's), with an error naming the flag
// and a manifest; below the tree's quick/ directory and outside the tree
// they are accepted.
func TestPaperTreeRefusesOutputs(t *testing.T) {
	dir := t.TempDir()
	figs := filepath.Join(dir, "figures")
	// The tree: Figure 1 at its root and the real-data CEMS figure in
	// realdata/, whose manifest lacks one learner's runs (a learner
	// registered since the figure was made).
	writeManifest(t, filepath.Join(figs, "fig1-main.manifest.json"), committedManifest(t, "fig1-main.manifest.json"))
	cems := committedManifest(t, filepath.Join("realdata", "real-cems.manifest.json"))
	first := cems.Runs[0].Spec.Algorithm
	var kept []sweep.RunRecord
	for _, r := range cems.Runs {
		if r.Spec.Algorithm != first {
			kept = append(kept, r)
		}
	}
	cems.Runs = kept
	writeManifest(t, filepath.Join(figs, "realdata", "real-cems.manifest.json"), cems)
	csv := filepath.Join(figs, "fig1-main.csv")
	const committedCSV = "committed\n"
	if err := os.WriteFile(csv, []byte(committedCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	small := []string{"run", "-algo", "random", "-T", "20", "-d", "3", "-K", "3", "-contexts", "5", "-q"}
	with := func(args ...string) []string { return append(append([]string{}, small...), args...) }
	for _, tc := range []struct {
		args []string
		flag string // "" when accepted
	}{
		{[]string{"figures", "-quick", "-list", "-only", "real-cems", "-out", figs}, "-out"},
		{[]string{"figures", "-quick", "-list", "-only", "fig4-compare-d", "-out", figs}, "-out"},
		{[]string{"figures", "-quick", "-list", "-only", "real-cems", "-out", filepath.Join(figs, "realdata")}, "-out"},
		{[]string{"figures", "-quick", "-list", "-only", "real-cems", "-out", filepath.Join(figs, "realdata", "sub")}, "-out"},
		{[]string{"figures", "-quick", "-list", "-only", "real-cems", "-out", filepath.Join(figs, "scratch")}, "-out"},
		{[]string{"figures", "-quick", "-list", "-only", "real-cems", "-out", filepath.Join(figs, "quick")}, ""},
		{[]string{"figures", "-quick", "-list", "-only", "real-cems", "-out", filepath.Join(dir, "elsewhere")}, ""},
		{with("-out", csv), "-out"},
		{with("-out", filepath.Join(figs, "realdata", "x.csv")), "-out"},
		{with("-out", filepath.Join(figs, "new", "x.csv")), "-out"},
		{with("-references", filepath.Join(figs, "refs.csv")), "-references"},
		{[]string{"suggest", "-algo", "random", "-out", filepath.Join(figs, "next.csv")}, "-out"},
		{[]string{"export", "-algo", "random", "-out", filepath.Join(figs, "policy.csv")}, "-out"},
		{with("-out", filepath.Join(figs, "quick", "x.csv")), ""},
		{with("-out", filepath.Join(dir, "x.csv")), ""},
	} {
		var stdout bytes.Buffer
		err := run(context.Background(), &stdout, io.Discard, tc.args)
		if tc.flag == "" {
			if err != nil {
				t.Errorf("%v: %v, want it accepted", tc.args, err)
			}
			continue
		}
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.flag+":") || !strings.Contains(err.Error(), ".manifest.json") {
			t.Errorf("%v: error %v, want a usage error naming %s and a paper-scale manifest", tc.args, err, tc.flag)
		}
	}
	if b, _ := os.ReadFile(csv); string(b) != committedCSV {
		t.Errorf("the committed CSV was overwritten: %q", b)
	}
	for _, p := range []string{filepath.Join(figs, "realdata", "x.csv"), filepath.Join(figs, "new"), filepath.Join(figs, "refs.csv"), filepath.Join(figs, "realdata", "sub")} {
		if exists(p) {
			t.Errorf("%s was written", p)
		}
	}
}
