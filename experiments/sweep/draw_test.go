package sweep

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/experiments"
)

// TestSweepGoesGroupByGroup: on one worker the runs start group by group,
// a run going with the earliest group that wants it or a run read off it,
// the costliest first within a group; each group is reported once, right
// after its last run, with every run it wants in the cache; a group with a
// failed run is not reported.
func TestSweepGoesGroupByGroup(t *testing.T) {
	base := tinyFigure().Jobs() // 9 runs, period 20
	group := func(jobs []Job, g string) []Job {
		out := slices.Clone(jobs)
		for i := range out {
			out[i].Group = g
		}
		return out
	}
	// "a": the period-60 runs, read off "b"'s period-20 runs; "b": those and
	// runs of its own (period 30); "c": some of "b"'s runs again.
	a := group(withPeriod(base, 60), "a")
	b := group(append(withPeriod(base, 30), base...), "b")
	c := group(base[:2], "c")
	jobs := slices.Concat(a, b, c)
	wants := map[string][]experiments.Spec{}
	for _, j := range jobs {
		wants[j.Group] = append(wants[j.Group], j.Spec)
	}
	cost := func(s experiments.Spec) float64 { return float64(s.Seed) } // seed 3 first

	cache := &Cache{Dir: t.TempDir()}
	var ran []Job
	var reported []string
	s := Sweep{Cache: cache, Workers: 1, Cost: cost,
		OnEvent: func(ev Event) {
			if !ev.Cached && !ev.Thinned {
				ran = append(ran, ev.Job)
			}
		},
		OnGroup: func(g string) {
			reported = append(reported, g)
			for _, spec := range wants[g] {
				if _, _, ok, err := cache.Load(spec); !ok || err != nil {
					t.Errorf("group %s reported before its run %s seed %d (period %d) was stored", g, spec.Algorithm, spec.Seed, spec.Every)
				}
			}
		}}
	if err := s.Execute(context.Background(), jobs); err != nil {
		t.Fatal(err)
	}
	if len(ran) != 2*len(base) {
		t.Fatalf("ran %d runs, want %d", len(ran), 2*len(base))
	}
	for i, j := range ran {
		if wantFirst := i < len(base); (j.Spec.Every == 20) != wantFirst {
			t.Fatalf("run %d has period %d: the period-20 runs (which group a reads off) should be the first %d", i, j.Spec.Every, len(base))
		}
		if i%len(base) > 0 && cost(j.Spec) > cost(ran[i-1].Spec) {
			t.Errorf("run %d (seed %d) started after a cheaper one (seed %d) of its group", i, j.Spec.Seed, ran[i-1].Spec.Seed)
		}
	}
	// c's runs (seeds 1 and 2 of the first curve) are among the first nine.
	if want := []string{"c", "a", "b"}; !slices.Equal(reported, want) {
		t.Errorf("groups reported %v, want %v", reported, want)
	}

	// Groups interleaved: "x" wants the first run and the last, which "y"
	// names first; both of x's runs go first.
	x, y := group(base[:1], "x"), group(base[1:], "y")
	ran, reported = nil, nil
	s.Cache = &Cache{Dir: t.TempDir()}
	if err := s.Execute(context.Background(), slices.Concat(x, y, group(base[len(base)-1:], "x"))); err != nil {
		t.Fatal(err)
	}
	if k := ran[1].Spec.Key(); len(reported) != 2 || reported[0] != "x" || k != base[0].Spec.Key() && k != base[len(base)-1].Spec.Key() {
		t.Errorf("interleaved groups: reported %v, second run %s seed %d; want x first, with both its runs first", reported, ran[1].Spec.Algorithm, ran[1].Spec.Seed)
	}
	s.Cache = cache

	// From the cache every group is reported at once; a failed run keeps its
	// group from being reported.
	bad := base[0]
	bad.Group = "bad"
	bad.Spec.Problem.Name = "no-such-function"
	reported = nil
	s.OnEvent = nil
	if err := s.Execute(context.Background(), append(slices.Clone(jobs), bad)); err == nil {
		t.Fatal("a sweep with a failing run returned no error")
	}
	if want := []string{"a", "c", "b"}; !slices.Equal(reported, want) {
		t.Errorf("cached: groups reported %v, want %v", reported, want)
	}
}

// TestDrawerDrawsAsRunsFinish: figures drawn by a Drawer during the sweep
// are the files drawn after it, byte for byte; an interrupted sweep keeps
// the figures whose runs had finished and draws none of the others.
func TestDrawerDrawsAsRunsFinish(t *testing.T) {
	first := tinyFigure()
	first.ID = "first"
	second := tinyFigure()
	second.ID = "second"
	second.Rows = second.Rows[:1]
	second.Rows[0].Curves = second.Rows[0].Curves[:1]
	for i := range second.Rows[0].Curves {
		second.Rows[0].Curves[i].Spec.T = 80
	}
	figs := []Figure{first, second}
	var jobs []Job
	for _, f := range figs {
		jobs = append(jobs, f.Jobs()...)
	}

	// Interrupted once the first figure is finished.
	cache := &Cache{Dir: t.TempDir()}
	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	var drawn []string
	d := NewDrawer(figs, cache, out, 2, func(id string, files []string, err error) {
		if err != nil {
			t.Errorf("%s: %v", id, err)
		}
		drawn = append(drawn, id)
	})
	s := Sweep{Cache: cache, Workers: 1, OnGroup: func(g string) {
		d.Group(g)
		cancel()
	}}
	if err := s.Execute(ctx, jobs); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted sweep: err = %v", err)
	}
	d.Wait()
	if !slices.Equal(drawn, []string{"first"}) || d.Drawn() != 1 {
		t.Fatalf("drawn %v (%d), want [first]", drawn, d.Drawn())
	}
	if _, err := os.Stat(filepath.Join(out, "first.csv")); err != nil {
		t.Fatalf("first figure: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "second.csv")); err == nil {
		t.Fatal("the second figure was drawn before its runs finished")
	}

	// Resumed: both drawn, as drawn after the sweep.
	d = NewDrawer(figs, cache, out, 2, nil)
	s = Sweep{Cache: cache, Workers: 2, OnGroup: d.Group}
	if err := s.Execute(context.Background(), jobs); err != nil {
		t.Fatal(err)
	}
	written, err := d.Finish()
	if err != nil {
		t.Fatal(err)
	}
	after := t.TempDir()
	for i, f := range figs {
		tab, err := f.Aggregate(CacheLoader(cache))
		if err != nil {
			t.Fatal(err)
		}
		files, err := tab.Render(after, cache)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != len(written[i]) || len(files) == 0 {
			t.Fatalf("%s: drawer wrote %v, Render %v", f.ID, written[i], files)
		}
		for k, path := range files {
			got, err1 := os.ReadFile(written[i][k])
			want, err2 := os.ReadFile(path)
			if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
				t.Errorf("%s: %s differs from %s (%v, %v)", f.ID, written[i][k], path, err1, err2)
			}
		}
	}
}

// TestRunOrder: the paper's figures come first, in the order of the list.
func TestRunOrder(t *testing.T) {
	figs, err := Figures(Quick, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range RunOrder(figs) {
		got = append(got, f.ID)
	}
	var want []string
	for _, fs := range FigureSpecs() {
		want = append(want, fs.ID)
	}
	if !slices.Equal(got, want) || got[0] != "fig1-main" {
		t.Fatalf("run order %v, want %v", got, want)
	}
}

// TestDrawerReportsErrors: a figure that cannot be written is reported at
// once, to onDrawn, and by Finish, naming the figure; the others are drawn.
func TestDrawerReportsErrors(t *testing.T) {
	good, bad := tinyFigure(), tinyFigure()
	good.ID, bad.ID, bad.Dir = "good", "bad", "sub"
	cache := &Cache{Dir: t.TempDir()}
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "sub"), nil, 0o644); err != nil { // a file where bad's directory goes
		t.Fatal(err)
	}
	figs := []Figure{good, bad}
	failed := map[string]bool{}
	d := NewDrawer(figs, cache, out, 1, func(id string, _ []string, err error) { failed[id] = err != nil })
	s := Sweep{Cache: cache, Workers: 2, OnGroup: d.Group}
	if err := s.Execute(context.Background(), append(good.Jobs(), bad.Jobs()...)); err != nil {
		t.Fatal(err)
	}
	d.Wait()
	if len(failed) != 2 || failed["good"] || !failed["bad"] {
		t.Fatalf("onDrawn reported failures %v, want bad only", failed)
	}
	if _, err := d.Finish(); err == nil || !strings.Contains(err.Error(), "figure bad") {
		t.Fatalf("Finish: %v, want the error of figure bad", err)
	}
	if _, err := os.Stat(filepath.Join(out, "good.csv")); err != nil {
		t.Fatal(err)
	}
}
