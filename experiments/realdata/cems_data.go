package realdata

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/neural-adb/nadb/experiments/realdata/data"
	"github.com/neural-adb/nadb/internal/csvtab"
	"github.com/neural-adb/nadb/internal/poolfile"
)

// readCEMS parses the three CEMSChoice files of a data folder. The files must
// have exactly the columns of the shipped export; every value is checked, and
// errors are *csvtab.Error values naming the file, line and column.
func readCEMS(fsys fs.FS) (*cemsData, error) {
	open := func(name string, cols ...string) (*csvtab.Table, []int, error) {
		f, err := fsys.Open(name)
		if err != nil {
			return nil, nil, fmt.Errorf("cems: %w", err)
		}
		defer f.Close()
		t, err := csvtab.Read(f, name)
		if err != nil {
			return nil, nil, err
		}
		idx, err := t.Require(cols...)
		if err != nil {
			return nil, nil, err
		}
		for i, h := range t.Header {
			if !slices.Contains(idx, i) {
				return nil, nil, &csvtab.Error{File: name, Line: t.HeaderLine, Column: i + 1, Name: h,
					Msg: "unknown column (want exactly " + strings.Join(cols, ",") + ")"}
			}
		}
		if len(t.Rows) == 0 {
			return nil, nil, &csvtab.Error{File: name, Msg: "no data rows after the header"}
		}
		return t, idx, nil
	}
	level := func(t *csvtab.Table, r, col int, levels ...string) (int, error) {
		v := t.Rows[r][col]
		if k := slices.Index(levels, v); k >= 0 {
			return k, nil
		}
		return 0, t.ErrAt(r, col, "unknown level %q (want one of %q)", v, levels)
	}
	d := &cemsData{}

	// Subjects.
	subjCols := []string{"subject"}
	for _, cv := range cemsSubjectCovariates {
		subjCols = append(subjCols, cv.name)
	}
	st, sc, err := open(data.CEMS[0], subjCols...)
	if err != nil {
		return nil, err
	}
	subjOf := map[string]int{}
	for r := range st.Rows {
		id, err := st.ID(r, sc[0])
		if err != nil {
			return nil, err
		}
		if s, dup := subjOf[id]; dup {
			return nil, st.ErrAt(r, sc[0], "subject %q repeats line %d", id, st.Lines[s])
		}
		subjOf[id] = r
		d.Subjects = append(d.Subjects, id)
		for k, cv := range cemsSubjectCovariates {
			l, err := level(st, r, sc[1+k], cv.plus, cv.minus)
			if err != nil {
				return nil, err
			}
			d.Z = append(d.Z, float64(1-2*l))
		}
	}

	// Items.
	it, ic, err := open(data.CEMS[1], "item", "specialization", "location")
	if err != nil {
		return nil, err
	}
	itemOf := map[string]int{}
	for r := range it.Rows {
		id, err := it.ID(r, ic[0])
		if err != nil {
			return nil, err
		}
		if i, dup := itemOf[id]; dup {
			return nil, it.ErrAt(r, ic[0], "item %q repeats line %d", id, it.Lines[i])
		}
		itemOf[id] = r
		d.Items = append(d.Items, id)
		spec, err := level(it, r, ic[1], cemsSpecializations...)
		if err != nil {
			return nil, err
		}
		loc, err := level(it, r, ic[2], cemsLocations...)
		if err != nil {
			return nil, err
		}
		cov := make([]float64, 4)
		cov[spec], cov[3] = 1, float64(1-2*loc)
		d.ItemCov = append(d.ItemCov, cov...)
	}
	if len(d.Items) < 2 {
		return nil, &csvtab.Error{File: data.CEMS[1], Msg: "one item: need at least 2 to form a duel"}
	}

	// Pairs.
	pt, pc, err := open(data.CEMS[2], "subject", "item1", "item2", "pref")
	if err != nil {
		return nil, err
	}
	K := len(d.Items)
	d.All = poolfile.NewAnswers(len(d.Subjects), K)
	seen := map[[3]int]int{} // (subject, lower item, higher item) → row
	for r := range pt.Rows {
		sid, err := pt.ID(r, pc[0])
		if err != nil {
			return nil, err
		}
		s, ok := subjOf[sid]
		if !ok {
			return nil, pt.ErrAt(r, pc[0], "unknown subject %q (not in %s)", sid, path.Base(data.CEMS[0]))
		}
		var arm [2]int
		for k := range arm {
			id, err := pt.ID(r, pc[1+k])
			if err != nil {
				return nil, err
			}
			if arm[k], ok = itemOf[id]; !ok {
				return nil, pt.ErrAt(r, pc[1+k], "unknown item %q (not in %s)", id, path.Base(data.CEMS[1]))
			}
		}
		if arm[0] == arm[1] {
			return nil, pt.ErrAt(r, pc[2], "item2 is item1 (%q)", d.Items[arm[0]])
		}
		k := [3]int{s, min(arm[0], arm[1]), max(arm[0], arm[1])}
		if prev, dup := seen[k]; dup {
			return nil, pt.ErrAt(r, -1, "subject %q compares %s and %s again (first at line %d)", sid, d.Items[arm[0]], d.Items[arm[1]], pt.Lines[prev])
		}
		seen[k] = r
		var y float64
		switch pt.Rows[r][pc[3]] {
		case "1":
			y = 1
		case "-1":
			y = 0
		case "0":
			y = 0.5
		case "NA":
			d.NA++
			continue
		default:
			return nil, pt.ErrAt(r, pc[3], "pref %q: want 1 (item1 preferred), -1 (item2), 0 (no preference) or NA", pt.Rows[r][pc[3]])
		}
		d.All.Add(poolfile.Answer{Context: s, Arm1: arm[0], Arm2: arm[1], Y: y})
	}
	return d, nil
}
