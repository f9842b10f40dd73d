package sweep

import (
	"bytes"
	"context"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/experiments"
)

// TestCostsRoundTrip writes a cost table and reads it back, and checks the
// estimates: a measured configuration gets its own cost, whatever its
// seed; an unmeasured one the median of its algorithm's measured ones of the
// same problem and reading, scaled by T; an unknown algorithm the median of
// all.
func TestCostsRoundTrip(t *testing.T) {
	jobs := tinyFigure().Jobs()
	ucb, ts := jobs[0].Spec, jobs[3].Spec // neural-adb-ucb and -ts on Square
	rows := []Cost{
		{Key: CostKey(ucb), Figure: "tiny", Algorithm: ucb.Algorithm, Problem: "square", T: ucb.T, Runs: 3, CPU: 2},
		{Key: CostKey(ts), Figure: "tiny", Algorithm: ts.Algorithm, Problem: "square", T: ts.T, Runs: 3, CPU: 8},
	}
	var buf bytes.Buffer
	if err := WriteCosts(&buf, "measured here\nfor a test", rows); err != nil {
		t.Fatal(err)
	}
	c, err := ReadCosts(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if c.Note != "measured here\nfor a test" || c.Len() != 2 {
		t.Fatalf("note %q, %d rows", c.Note, c.Len())
	}
	other := ucb
	other.Seed = 99
	if v, ok := c.Estimate(other); !ok || v != 2 {
		t.Errorf("measured configuration, another seed: %v, %v; want 2, true", v, ok)
	}
	longer := ucb
	longer.T = 2 * ucb.T
	if v, ok := c.Estimate(longer); ok || v != 2*float64(longer.T)/1000 {
		t.Errorf("unmeasured T: %v, %v; want %v, false", v, ok, 2*float64(longer.T)/1000)
	}
	unknown := ucb
	unknown.Algorithm = "random"
	if v, ok := c.Estimate(unknown); ok || v != 8*float64(ucb.T)/1000 {
		t.Errorf("unmeasured algorithm: %v, %v; want the median of all (the upper of two) scaled by T", v, ok)
	}
	for _, bad := range []string{"key,figure\n", "# x\nkey,figure,algorithm,problem,candidates,T,runs,cpu_s\na,b,c,d,0,1000,0,1\n"} {
		if _, err := ReadCosts(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadCosts(%q): want an error", bad)
		}
	}
}

// TestDefaultCostsCoverFigures reads the committed table and requires it to
// have measured most of the paper-scale figures' configurations (a table
// that no longer matches the figures makes every ETA a guess).
func TestDefaultCostsCoverFigures(t *testing.T) {
	c := DefaultCosts()
	figs, err := Figures(Paper, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen, measured := map[string]bool{}, 0
	for _, f := range figs {
		for _, j := range f.Jobs() {
			k := CostKey(j.Spec)
			if seen[k] {
				continue
			}
			seen[k] = true
			if _, ok := c.Estimate(j.Spec); ok {
				measured++
			}
		}
	}
	if measured < len(seen)/2 {
		t.Errorf("the committed cost table measures %d of the %d configurations of the figures; regenerate it (nadb figures -costs experiments/sweep/costs.csv after a cold sweep)", measured, len(seen))
	}
}

// TestSweepRecordsCostsAndOrder runs a sweep with a cost function: the
// runs start in decreasing order of expected cost, every event reports its
// run's expected cost and what is left, and the cache records a processor
// time for every run (on Linux), from which MeasuredCosts builds the table.
func TestSweepRecordsCostsAndOrder(t *testing.T) {
	f := tinyFigure()
	jobs := f.Jobs()
	cost := func(s experiments.Spec) float64 { return float64(s.Seed) } // seed 3 first
	var order []uint64
	var left []float64
	total := 0.0
	for _, j := range jobs {
		total += cost(j.Spec)
	}
	c := &Cache{Dir: t.TempDir()}
	sw := Sweep{Cache: c, Workers: 1, Cost: cost, OnEvent: func(ev Event) {
		order = append(order, ev.Spec.Seed)
		left = append(left, ev.Left)
		if ev.Expected != cost(ev.Spec) {
			t.Errorf("event of seed %d: expected cost %v", ev.Spec.Seed, ev.Expected)
		}
	}}
	if err := sw.Execute(context.Background(), jobs); err != nil {
		t.Fatal(err)
	}
	if !slices.IsSortedFunc(order, func(a, b uint64) int { return int(b) - int(a) }) {
		t.Errorf("runs finished in seed order %v, want decreasing expected cost", order)
	}
	if left[len(left)-1] != 0 || left[0] != total-float64(order[0]) {
		t.Errorf("left after each run %v (total %v)", left, total)
	}
	rows, missing, err := MeasuredCosts([]Figure{f}, c)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "linux" {
		return
	}
	if missing != 0 || len(rows) != 3 {
		t.Fatalf("%d configurations measured, %d runs missing; want 3 and 0", len(rows), missing)
	}
	for _, r := range rows {
		// A run of a few milliseconds may count 0 s: the kernel counts a
		// thread's time in clock ticks.
		if r.Runs != f.Seeds || !(r.CPU >= 0) {
			t.Errorf("configuration %s: %d runs, %v s", r.Algorithm, r.Runs, r.CPU)
		}
	}
}

// TestCostSamples asks for one run of every configuration without a
// recorded time: all three of the tiny figure's in an empty cache, then
// none once they are measured.
func TestCostSamples(t *testing.T) {
	f := tinyFigure()
	c := &Cache{Dir: t.TempDir()}
	jobs, err := CostSamples([]Figure{f}, c)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 3 {
		t.Fatalf("%d samples in an empty cache, want 3 (one per configuration)", len(jobs))
	}
	for _, j := range jobs {
		if j.Spec.Seed != 1 {
			t.Errorf("sample of %s has seed %d, want the first", j.Spec.Algorithm, j.Spec.Seed)
		}
	}
	if err := (&Sweep{Cache: c, Workers: 1}).Execute(context.Background(), jobs); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "linux" {
		return
	}
	if jobs, err = CostSamples([]Figure{f}, c); err != nil || len(jobs) != 0 {
		t.Fatalf("after measuring: %d samples (%v), want 0", len(jobs), err)
	}
	rows, missing, err := MeasuredCosts([]Figure{f}, c)
	if err != nil || len(rows) != 3 || missing != 6 {
		t.Fatalf("MeasuredCosts: %d rows, %d missing (%v); want 3 and 6", len(rows), missing, err)
	}
}
