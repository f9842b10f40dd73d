package sweep

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
)

// tinyFigure is a two-row figure small enough to run in a test.
func tinyFigure() Figure {
	cfg := algorithms.Default()
	cfg.Width = 8
	spec := func(algo, fn string) experiments.Spec {
		return experiments.Spec{Algorithm: algo, Problem: experiments.ProblemSpec{Name: fn, Dim: 3, Arms: 3, Contexts: 12, Theta: "sphere"}, Config: cfg, T: 60, Every: 20}
	}
	return Figure{
		ID: "tiny", Caption: "test", Paper: "ours", Seeds: 3,
		Metrics: []string{"worst_gap", "queried_gap"},
		Rows: []Row{
			{Title: "Square", Curves: []Curve{{"ucb", spec("neural-adb-ucb", "square")}, {"ts", spec("neural-adb-ts", "square")}}},
			{Title: "Sine", Curves: []Curve{{"ucb", spec("neural-adb-ucb", "sine")}}},
		},
	}
}

func TestCacheRoundTrip(t *testing.T) {
	spec := tinyFigure().Jobs()[0].Spec
	res, err := experiments.Run(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &Cache{Dir: t.TempDir()}
	if _, _, ok, err := c.Load(spec); ok || err != nil {
		t.Fatalf("empty cache: ok=%v err=%v", ok, err)
	}
	if err := c.Store(res, 1.5); err != nil {
		t.Fatal(err)
	}
	got, wall, ok, err := c.Load(spec)
	if err != nil || !ok || wall != 1.5 {
		t.Fatalf("Load: ok=%v wall=%v err=%v", ok, wall, err)
	}
	eqNaN := cmp.Comparer(func(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) })
	// Elapsed is stored with millisecond precision.
	for i := range res.Checkpoints {
		res.Checkpoints[i].Elapsed = math.Round(res.Checkpoints[i].Elapsed*1000) / 1000
	}
	if d := cmp.Diff(res, got, eqNaN); d != "" {
		t.Fatalf("round trip (-stored +loaded):\n%s", d)
	}
	// A different spec has a different key and is not found.
	other := spec
	other.Config.Nu = 2
	if other.Key() == spec.Key() {
		t.Fatal("changing a config field did not change the key")
	}
}

func TestCorruptCacheFileIsRecomputed(t *testing.T) {
	dir := t.TempDir()
	f := tinyFigure()
	f.Rows = f.Rows[:1]
	f.Rows[0].Curves = f.Rows[0].Curves[:1]
	f.Seeds = 1
	var warned []string
	c := &Cache{Dir: dir, Warn: func(m string) { warned = append(warned, m) }}
	spec := f.Jobs()[0].Spec
	path := c.path(spec.Key())
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"key": "trunc`), 0o644); err != nil {
		t.Fatal(err)
	}
	// A leftover temporary file from an interrupted write is ignored.
	if err := os.WriteFile(filepath.Join(filepath.Dir(path), ".tmp-123"), []byte("partial"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := c.Load(spec); ok || err != nil || len(warned) != 1 || !strings.Contains(warned[0], path) {
		t.Fatalf("corrupt file: ok=%v err=%v warnings %q; want it missing, reported by path", ok, err, warned)
	}
	s := Sweep{Cache: c, Workers: 1}
	if err := s.Execute(context.Background(), f.Jobs()); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := c.Load(spec); !ok || err != nil {
		t.Fatalf("after the sweep: ok=%v err=%v", ok, err)
	}
}

func TestShardsPartitionTheSweep(t *testing.T) {
	jobs := tinyFigure().Jobs()
	for n := 1; n <= 4; n++ {
		count := map[string]int{}
		for i := 1; i <= n; i++ {
			sh := Shard{i, n}
			for _, j := range jobs {
				if sh.Has(j.Spec.Key()) {
					count[j.Spec.Key()]++
				}
			}
		}
		for _, j := range jobs {
			if count[j.Spec.Key()] != 1 {
				t.Fatalf("n=%d: run %v is in %d shards", n, j.Spec, count[j.Spec.Key()])
			}
		}
	}
	for _, bad := range []string{"0/2", "3/2", "x", "1/0"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q): want an error", bad)
		}
	}
}

// render runs the sweep with the given workers and shards and returns the
// figure's CSV and PNG bytes.
func render(t *testing.T, workers int, shards int) (csv, png []byte) {
	t.Helper()
	f := tinyFigure()
	cache := &Cache{Dir: t.TempDir()}
	for i := 1; i <= shards; i++ {
		s := Sweep{Cache: cache, Workers: workers, Shard: Shard{i, shards}}
		if err := s.Execute(context.Background(), f.Jobs()); err != nil {
			t.Fatal(err)
		}
	}
	tab, err := f.Aggregate(CacheLoader(cache))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if _, err := tab.Render(out, cache); err != nil {
		t.Fatal(err)
	}
	csv, err = os.ReadFile(filepath.Join(out, "tiny.csv"))
	if err != nil {
		t.Fatal(err)
	}
	png, err = os.ReadFile(filepath.Join(out, "tiny.png"))
	if err != nil {
		t.Fatal(err)
	}
	return csv, png
}

// TestFiguresIndependentOfParallelism: one worker, two workers, and three
// shards run separately all give byte-identical plotted numbers and images.
func TestFiguresIndependentOfParallelism(t *testing.T) {
	csv1, png1 := render(t, 1, 1)
	csv2, png2 := render(t, 2, 1)
	csv3, png3 := render(t, 2, 3)
	if !bytes.Equal(csv1, csv2) || !bytes.Equal(csv1, csv3) {
		t.Fatalf("CSV differs with parallelism:\n%s\n---\n%s\n---\n%s", csv1, csv2, csv3)
	}
	if !bytes.Equal(png1, png2) || !bytes.Equal(png1, png3) {
		t.Fatal("PNG differs with parallelism")
	}
	if !strings.HasPrefix(string(csv1), "row,curve,metric,t,mean,ci_low,ci_high,n\n") {
		t.Fatalf("CSV header: %q", strings.SplitN(string(csv1), "\n", 2)[0])
	}
}

// TestInterruptedSweepResumes cancels a sweep after its first finished run
// and checks that the next sweep reuses what was stored.
func TestInterruptedSweepResumes(t *testing.T) {
	f := tinyFigure()
	cache := &Cache{Dir: t.TempDir()}
	ctx, cancel := context.WithCancel(context.Background())
	finished := 0
	s := Sweep{Cache: cache, Workers: 1, OnEvent: func(ev Event) {
		finished++
		cancel()
	}}
	if err := s.Execute(ctx, f.Jobs()); err == nil {
		t.Fatal("cancelled sweep returned no error")
	}
	cached := 0
	s2 := Sweep{Cache: cache, Workers: 2, OnEvent: func(ev Event) {
		if ev.Cached {
			cached++
		}
	}}
	if err := s2.Execute(context.Background(), f.Jobs()); err != nil {
		t.Fatal(err)
	}
	if cached != finished || cached == 0 {
		t.Fatalf("resumed sweep found %d cached runs, the interrupted one finished %d", cached, finished)
	}
	if _, err := f.Aggregate(CacheLoader(cache)); err != nil {
		t.Fatal(err)
	}
}

func TestAggregateUsesStudentT(t *testing.T) {
	f := tinyFigure()
	cache := &Cache{Dir: t.TempDir()}
	if err := (&Sweep{Cache: cache, Workers: 2}).Execute(context.Background(), f.Jobs()); err != nil {
		t.Fatal(err)
	}
	tab, err := f.Aggregate(CacheLoader(cache))
	if err != nil {
		t.Fatal(err)
	}
	// Recompute one point by hand: worst gap of the first curve at the last checkpoint.
	var vals []float64
	for seed := 1; seed <= f.Seeds; seed++ {
		s := f.Rows[0].Curves[0].Spec
		s.Seed = uint64(seed)
		res, _, _, _ := cache.Load(s)
		vals = append(vals, res.Checkpoints[len(res.Checkpoints)-1].WorstGap)
	}
	m := (vals[0] + vals[1] + vals[2]) / 3
	v := 0.0
	for _, x := range vals {
		v += (x - m) * (x - m) / 2
	}
	half := 4.302652729911275 * math.Sqrt(v/3) // t_{0.975, 2}
	pts := tab.Points[0][0][0]
	p := pts[len(pts)-1]
	if math.Abs(p.Mean-m) > 1e-12 || math.Abs((p.Hi-p.Lo)/2-half) > 1e-9*(1+half) || p.N != 3 {
		t.Fatalf("point %+v, want mean %v ± %v", p, m, half)
	}
	// queried_gap is NaN at t = 0 for every seed: no value, no interval.
	if q := tab.Points[0][0][1][0]; q.N != 0 || !math.IsNaN(q.Mean) {
		t.Fatalf("queried_gap at t=0: %+v", q)
	}
}

func TestStyles(t *testing.T) {
	if StyleFor("neural-adb-ucb").Color == StyleFor("neural-adb-ts").Color {
		t.Error("UCB and TS share a colour")
	}
	a, b := StyleFor("some-new-baseline"), StyleFor("some-new-baseline")
	if a.Color != b.Color {
		t.Error("StyleFor is not deterministic")
	}
}
