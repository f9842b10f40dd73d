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
// runs of its one group start in decreasing order of expected cost, every
// event reports its run's expected cost and what is left, and the cache
// records a processor time for every run (on Linux), from which
// MeasuredCosts builds the table.
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
	jobs, err := CostSamples([]Figure{f}, c, false)
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
	if jobs, err = CostSamples([]Figure{f}, c, false); err != nil || len(jobs) != 0 {
		t.Fatalf("after measuring: %d samples (%v), want 0", len(jobs), err)
	}
	rows, missing, err := MeasuredCosts([]Figure{f}, c)
	if err != nil || len(rows) != 3 || missing != 6 {
		t.Fatalf("MeasuredCosts: %d rows, %d missing (%v); want 3 and 6", len(rows), missing, err)
	}
}

// TestCostsGFLOP round-trips the arithmetic column: a counted configuration
// gives its count, an uncounted one (written empty) none, a table without
// the column (written before it existed) reads with none, and a count that
// is not a number ≥ 0 is refused.
func TestCostsGFLOP(t *testing.T) {
	jobs := tinyFigure().Jobs()
	ucb, ts := jobs[0].Spec, jobs[3].Spec
	rows := []Cost{
		{Key: CostKey(ucb), Figure: "tiny", Algorithm: ucb.Algorithm, Problem: "square", T: ucb.T, Runs: 1, CPU: 2, GFLOP: 1.5},
		{Key: CostKey(ts), Figure: "tiny", Algorithm: ts.Algorithm, Problem: "square", T: ts.T, Runs: 1, CPU: 8, GFLOP: -1},
	}
	var buf bytes.Buffer
	if err := WriteCosts(&buf, "n", rows); err != nil {
		t.Fatal(err)
	}
	c, err := ReadCosts(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if g, ok := c.GFLOP(ucb); !ok || g != 1.5 {
		t.Errorf("counted configuration: %v, %v; want 1.5, true", g, ok)
	}
	if _, ok := c.GFLOP(ts); ok {
		t.Error("uncounted configuration has a count")
	}
	old := "# n\nkey,figure,algorithm,problem,candidates,T,runs,cpu_s\n" + CostKey(ucb) + ",tiny,neural-adb-ucb,square,0,1000,1,2\n"
	c, err = ReadCosts(strings.NewReader(old))
	if err != nil {
		t.Fatalf("a table without the gflop column: %v", err)
	}
	if _, ok := c.GFLOP(ucb); ok || c.Len() != 1 {
		t.Errorf("a table without the gflop column: count %v, %d rows", ok, c.Len())
	}
	for _, g := range []string{"x", "-1", "NaN"} {
		bad := "key,figure,algorithm,problem,candidates,T,runs,cpu_s,gflop\na,b,c,d,0,1000,1,1," + g + "\n"
		if _, err := ReadCosts(strings.NewReader(bad)); err == nil {
			t.Errorf("gflop %q: want an error", g)
		}
	}
}

// TestCacheFlops stores a run with and without a count of its arithmetic:
// Flops returns what was stored, both entries verify against their
// checksums, and MeasuredCosts averages the counted runs only.
func TestCacheFlops(t *testing.T) {
	f := tinyFigure()
	jobs := f.Jobs()
	c := &Cache{Dir: t.TempDir()}
	for i, j := range jobs[:2] { // two seeds of one configuration
		res, err := experiments.Run(context.Background(), j.Spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		flops := int64(-1)
		if i == 0 {
			flops = 3e9
		}
		if err := c.StoreCost(res, 1, 2, flops); err != nil {
			t.Fatal(err)
		}
	}
	if n, ok, err := c.Flops(jobs[0].Spec); err != nil || !ok || n != 3e9 {
		t.Errorf("counted run: %d, %v, %v", n, ok, err)
	}
	if _, ok, err := c.Flops(jobs[1].Spec); err != nil || ok {
		t.Errorf("uncounted run: %v, %v; want no count", ok, err)
	}
	for _, j := range jobs[:2] {
		if _, _, ok, err := c.Load(j.Spec); err != nil || !ok {
			t.Errorf("seed %d does not load back (%v): its checksum", j.Spec.Seed, err)
		}
	}
	rows, _, err := MeasuredCosts([]Figure{f}, c)
	if err != nil || len(rows) != 1 {
		t.Fatalf("MeasuredCosts: %d rows, %v", len(rows), err)
	}
	if rows[0].GFLOP != 3 || rows[0].Runs != 2 {
		t.Errorf("GFLOP %v over %d runs; want 3 (the counted run only) over 2", rows[0].GFLOP, rows[0].Runs)
	}
}
