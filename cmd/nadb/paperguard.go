package main

// The guards that keep runs at other scales off the committed paper-scale
// figures.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/neural-adb/nadb/experiments/sweep"
)

// scratchDir is the subdirectory of a tree of paper-scale figures that
// runs at other scales may write into (make figures-quick writes
// figures/quick, which git ignores).
const scratchDir = "quick"

// paperManifest reports whether the manifest at path records f as made at
// paper scale: the paper figure's seeds, and every run with the T and the
// problem of one of the paper-scale figure's runs. It does not compare the
// algorithms, so that a learner registered since (which the real-data
// figures add to their runs) leaves the figure recognised; nor cache keys,
// which change with experiments.CacheVersion.
func paperManifest(path string, f sweep.Figure) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var man sweep.Manifest
	if json.Unmarshal(data, &man) != nil || man.Seeds != f.Seeds || len(man.Runs) == 0 {
		return false
	}
	jobs := f.Jobs()
	for _, r := range man.Runs {
		if !slices.ContainsFunc(jobs, func(j sweep.Job) bool { return r.Spec.T == j.Spec.T && r.Spec.Problem == j.Spec.Problem }) {
			return false
		}
	}
	return true
}

// paperTree looks for a tree of paper-scale figures holding dir: it walks
// up from dir through its parents and returns the first directory root at
// which a paper-scale figure's manifest lies (root/Dir/ID.manifest.json,
// as nadb figures writes it) and that manifest's path; ok is false when
// there is none.
func paperTree(dir string) (root, manifest string, ok bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", false
	}
	paper, err := sweep.Figures(sweep.Paper, nil)
	if err != nil {
		return "", "", false
	}
	for a := abs; ; a = filepath.Dir(a) {
		for _, f := range paper {
			path := filepath.Join(a, f.Dir, f.ID+".manifest.json")
			if paperManifest(path, f) {
				return a, path, true
			}
		}
		if filepath.Dir(a) == a {
			return "", "", false
		}
	}
}

// guardPaperTree refuses an output directory dir (named by flagName, whose
// value is shown) that is a tree of paper-scale figures or lies inside one,
// other than below its scratchDir: a run that is not a paper-scale figure
// writes nothing there. what is the output's kind for the message ("a
// quick-scale sweep", "a single run").
func guardPaperTree(flagName, shown, dir, what string) error {
	root, manifest, ok := paperTree(dir)
	if !ok {
		return nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	rel, err := filepath.Rel(root, abs)
	if err == nil && rel != "." {
		if first, _, _ := strings.Cut(rel, string(filepath.Separator)); first == scratchDir {
			return nil
		}
	}
	return usageError{fmt.Errorf("-%s: %s lies in %s, which holds paper-scale figures (%s is one); %s writes outside it or below %s",
		flagName, shown, shortPath(root), shortPath(manifest), what, shortPath(filepath.Join(root, scratchDir)))}
}

// shortPath returns path relative to the working directory when it lies
// inside it, else path.
func shortPath(path string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, path); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return path
}

// guardRunOut refuses, besides what checkOutFile refuses, an output file
// of a single run (named by flagName) in a tree of paper-scale figures
// (guardPaperTree). "-" (stdout) passes.
func guardRunOut(flagName, path string) error {
	if path == "" || path == "-" {
		return nil
	}
	if err := checkOutFile(flagName, path); err != nil {
		return err
	}
	return guardPaperTree(flagName, path, filepath.Dir(path), "a single run")
}

// guardPaperFigures refuses, for a sweep that is not at paper scale, an
// output directory holding any of the figures figs as made at paper scale
// (paperManifest), or lying in a tree of paper-scale figures
// (guardPaperTree).
func guardPaperFigures(out string, sc sweep.Scale, figs []sweep.Figure) error {
	if sc.Name == sweep.Paper.Name {
		return nil
	}
	ids := make([]string, len(figs))
	for i, f := range figs {
		ids[i] = f.ID
	}
	paper, err := sweep.Figures(sweep.Paper, ids)
	if err != nil {
		return err
	}
	for _, f := range paper {
		path := filepath.Join(out, f.Dir, f.ID+".manifest.json")
		if paperManifest(path, f) {
			return refusePaperOverwrite("out", path, sc.Name)
		}
	}
	return guardPaperTree("out", out, out, "a "+sc.Name+"-scale sweep")
}
