package sweep

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/plotfig"
)

// styleKey identifies how a style looks.
func styleKey(s plotfig.Style) string {
	return fmt.Sprint(s.Color, s.Dashes, s.Marker)
}

// committedAlgorithms returns the registered algorithms that the committed
// paper-scale figures (their manifests under figures/) ran, and the
// registered ones they did not (baselines added since, which the figures
// draw with a fallback style and in the OtherFamily row until they are
// given their own).
func committedAlgorithms(t *testing.T) (committed, added []string) {
	t.Helper()
	seen := map[string]bool{}
	root := filepath.Join("..", "..", "figures")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".manifest.json") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var man Manifest
		if err := json.Unmarshal(data, &man); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		for _, r := range man.Runs {
			seen[r.Spec.Algorithm] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range algorithms.Names() {
		if seen[a] {
			committed = append(committed, a)
		} else {
			added = append(added, a)
		}
	}
	if len(committed) == 0 {
		t.Fatalf("no registered algorithm in the manifests under %s", root)
	}
	return committed, added
}

// TestStylesDistinct checks that every algorithm with a fixed style looks
// unlike every other, that every registered algorithm of the committed
// figures has a fixed style, and that unknown names (such as a baseline
// registered since, which gets the fallback style) never look like an
// algorithm with a fixed style.
func TestStylesDistinct(t *testing.T) {
	seen := map[string]string{}
	for name, s := range styles {
		k := styleKey(s)
		if other, ok := seen[k]; ok {
			t.Errorf("%s and %s share a style", name, other)
		}
		seen[k] = name
		if s.Marker == plotfig.NoMarker {
			t.Errorf("%s has no marker", name)
		}
	}
	committed, added := committedAlgorithms(t)
	for _, a := range committed {
		if _, ok := styles[a]; !ok {
			t.Errorf("algorithm %s of the committed figures has no fixed style", a)
		}
	}
	var fallback []string
	for _, a := range added {
		if _, ok := styles[a]; !ok {
			fallback = append(fallback, a)
			t.Logf("%s is in no committed figure and has no fixed style: drawn with the fallback style (StyleFor) until styles gives it one", a)
		}
	}
	for _, name := range slices.Concat([]string{"", "x", "neural-adb-new", "my-baseline", "another-one"}, fallback) {
		s := StyleFor(name)
		for fixed, fs := range styles {
			if s.Marker == fs.Marker && slices.Equal(s.Dashes, fs.Dashes) {
				t.Errorf("unknown %q shares marker and dashes with %s", name, fixed)
			}
		}
		if styleKey(s) != styleKey(StyleFor(name)) {
			t.Errorf("style of %q is not deterministic", name)
		}
	}
}

// TestColoursDistinctPerPanel checks that no two curves of a panel share a
// colour in any figure (paper scale, real-data rows split by family), nor
// in a comparison that adds neural-adb-plus to the paper's algorithms and
// the random-context comparators.
func TestColoursDistinctPerPanel(t *testing.T) {
	figs, err := Figures(Paper, nil)
	if err != nil {
		t.Fatal(err)
	}
	check := func(where string, specs []experiments.Spec) {
		by := map[string]string{}
		for _, s := range specs {
			a := s.Algorithm + " (collect " + string(s.Config.Collect.Rule()) + ")"
			k := fmt.Sprint(StyleOf(s).Color)
			if other, ok := by[k]; ok {
				t.Errorf("%s: %s and %s share a colour", where, a, other)
			}
			by[k] = a
		}
	}
	for _, f := range figs {
		if f.Sequential {
			continue // one algorithm, coloured by position
		}
		tab := &Table{Figure: f}
		for _, pr := range tab.panelRows() {
			var specs []experiments.Spec
			for _, ci := range pr.curves {
				specs = append(specs, f.Rows[pr.row].Curves[ci].Spec)
			}
			check(fmt.Sprintf("%s, %s %s", f.ID, f.Rows[pr.row].Title, pr.family), specs)
		}
	}
	var specs []experiments.Spec
	for _, a := range slices.Concat(PaperAlgorithms, RandomContextAlgorithms, []string{"neural-adb-plus"}) {
		specs = append(specs, experiments.Spec{Algorithm: a})
	}
	check("paper algorithms + comparators + neural-adb-plus", specs)
}

// TestFamiliesCoverRegistered checks that no algorithm is in two families
// and that every registered algorithm of the committed figures is in one,
// so that none of their real-data curves lands in the catch-all row
// (OtherFamily), where a baseline registered since is drawn until Families
// gives it a row.
func TestFamiliesCoverRegistered(t *testing.T) {
	count := map[string]int{}
	for _, f := range Families {
		for _, a := range f.Algos {
			count[a]++
		}
	}
	for a, n := range count {
		if n > 1 {
			t.Errorf("%s is in %d families", a, n)
		}
	}
	committed, added := committedAlgorithms(t)
	for _, a := range committed {
		if count[a] != 1 {
			t.Errorf("%s, an algorithm of the committed figures, is in %d families", a, count[a])
		}
	}
	for _, a := range added {
		if count[a] == 0 {
			t.Logf("%s is in no committed figure and no family: the real-data figures draw it in the %q row", a, OtherFamily)
		}
	}
}
