package sweep

import (
	"encoding/csv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/experiments"
)

// fakeResult is a made-up finished run of spec: checkpoints every Every
// rounds with random values of every column its problem has.
func fakeResult(t *testing.T, spec experiments.Spec, extra []string, rng *rand.Rand) *experiments.Result {
	t.Helper()
	res := &experiments.Result{Spec: spec, Counts: []int{1}, ExtraColumns: extra}
	for tt := 0; ; tt = min(tt+spec.Every, spec.T) {
		cp := experiments.Checkpoint{T: tt, WorstGap: rng.Float64(), MeanGap: rng.Float64(), QueriedGap: rng.Float64(), AvgRegret: rng.Float64(), Distinct: 1, TopShare: rng.Float64()}
		for range extra {
			cp.Extra = append(cp.Extra, rng.Float64())
		}
		res.Checkpoints = append(res.Checkpoints, cp)
		if tt == spec.T {
			break
		}
	}
	return res
}

// TestSummaryTablesWriteSeeds: every figure with summary tables writes,
// beside its ID-summary.csv, an ID-seeds.csv holding every run's values of
// the figure's metrics at the summarised checkpoints (checked on made-up
// results at quick scale), so that every summary can be recomputed.
func TestSummaryTablesWriteSeeds(t *testing.T) {
	figs, err := Figures(Quick, nil)
	if err != nil {
		t.Fatal(err)
	}
	cache := &Cache{Dir: t.TempDir()}
	rng := rand.New(rand.NewPCG(1, 2))
	columns := map[string][]string{} // problem name → extra columns
	n := 0
	for _, f := range figs {
		if f.Tables == nil {
			continue
		}
		n++
		for _, j := range f.Jobs() {
			p := j.Spec.Problem.Name
			if _, ok := columns[p]; !ok {
				prob, err := j.Spec.Problem.Build(1)
				if err != nil {
					t.Fatal(err)
				}
				ev, _ := prob.Evaluator.(experiments.ExtraEvaluator)
				if ev != nil {
					columns[p] = ev.ExtraColumns()
				} else {
					columns[p] = nil
				}
			}
			if err := cache.Store(fakeResult(t, j.Spec, columns[p], rng), 0); err != nil {
				t.Fatal(err)
			}
		}
		out := t.TempDir()
		paths, err := f.Tables(f, cache, out)
		if err != nil {
			t.Fatalf("%s: %v", f.ID, err)
		}
		seeds := filepath.Join(out, f.ID+"-seeds.csv")
		found := false
		for _, p := range paths {
			found = found || p == seeds
		}
		if !found {
			t.Errorf("%s: the tables hook wrote %v, no %s", f.ID, paths, filepath.Base(seeds))
			continue
		}
		data, err := os.ReadFile(seeds)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", f.ID, err)
		}
		if got, want := strings.Join(recs[0][:6], ","), "row,curve,algorithm,collect,seed,t"; got != want {
			t.Errorf("%s: seeds header starts %s, want %s", f.ID, got, want)
		}
		for _, m := range f.Metrics {
			if !strings.Contains(","+strings.Join(recs[0], ",")+",", ","+m+",") {
				t.Errorf("%s: seeds file lacks metric %s", f.ID, m)
			}
		}
		runs := 0
		for _, r := range f.Rows {
			runs += len(r.Curves) * f.Seeds
		}
		if len(recs)-1 < runs {
			t.Errorf("%s: %d seed rows for %d runs", f.ID, len(recs)-1, runs)
		}
	}
	if n == 0 {
		t.Fatal("no figure with tables")
	}
}
