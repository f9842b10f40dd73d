package sweep

import (
	"fmt"
	"slices"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/plotfig"
)

// styleKey identifies how a style looks.
func styleKey(s plotfig.Style) string {
	return fmt.Sprint(s.Color, s.Dashes, s.Marker)
}

// TestStylesDistinct checks that every algorithm with a fixed style looks
// unlike every other, that every registered algorithm has a fixed style,
// and that unknown names never look like a registered algorithm.
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
	for _, a := range algorithms.Names() {
		if _, ok := styles[a]; !ok {
			t.Errorf("registered algorithm %s has no fixed style", a)
		}
	}
	for _, name := range []string{"", "x", "neural-adb-new", "my-baseline", "another-one"} {
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

// TestFamiliesCoverRegistered checks that every registered algorithm is in
// exactly one family, so that no real-data curve lands in the catch-all row.
func TestFamiliesCoverRegistered(t *testing.T) {
	count := map[string]int{}
	for _, f := range Families {
		for _, a := range f.Algos {
			count[a]++
		}
	}
	for _, a := range algorithms.Names() {
		if count[a] != 1 {
			t.Errorf("%s is in %d families", a, count[a])
		}
	}
}
