package sweep

import (
	"context"
	"testing"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/internal/runtest"
)

// withPeriod returns jobs with checkpoint period every.
func withPeriod(jobs []Job, every int) []Job {
	out := make([]Job, len(jobs))
	for i, j := range jobs {
		j.Spec.Every = every
		out[i] = j
	}
	return out
}

// countEvents runs jobs and counts the runs executed, read off another and
// found cached.
func countEvents(t *testing.T, s Sweep, jobs []Job) (ran, thinned, cached int) {
	t.Helper()
	s.OnEvent = func(ev Event) {
		switch {
		case ev.Thinned:
			thinned++
		case ev.Cached:
			cached++
		default:
			ran++
		}
	}
	if err := s.Execute(context.Background(), jobs); err != nil {
		t.Fatal(err)
	}
	return ran, thinned, cached
}

// TestSweepThins: a sweep runs a run once for the checkpoint periods 20 and
// 60 and stores the period-60 result read off the period-20 one, equal to
// the run itself and with its times; period 30 (no multiple of 20) is run.
// A later sweep reads period-60 runs off cached period-20 runs, and shards
// keep the periods of one run together.
func TestSweepThins(t *testing.T) {
	base := tinyFigure().Jobs()
	jobs := append(append(withPeriod(base, 60), withPeriod(base, 30)...), base...)
	c := &Cache{Dir: t.TempDir()}
	ran, thinned, cached := countEvents(t, Sweep{Cache: c, Workers: 2}, jobs)
	if n := len(base); ran != 2*n || thinned != n || cached != 0 {
		t.Fatalf("ran %d, thinned %d, cached %d; want %d, %d, 0", ran, thinned, cached, 2*n, n)
	}
	for _, j := range withPeriod(base, 60) {
		got, wall, ok, err := c.Load(j.Spec)
		if err != nil || !ok {
			t.Fatalf("period 60 not stored: ok=%v err=%v", ok, err)
		}
		want, err := experiments.Run(context.Background(), j.Spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := runtest.ResultCSV(t, got), runtest.ResultCSV(t, want); g != w {
			t.Fatalf("read off period 20:\n%s\nrun:\n%s", g, w)
		}
		fine := j.Spec
		fine.Every = 20
		_, fineWall, _, _ := c.Load(fine)
		cpu, _, _ := c.CPU(j.Spec)
		fineCPU, _, _ := c.CPU(fine)
		if wall != fineWall || cpu != fineCPU {
			t.Errorf("stored with wall %g s, cpu %g s; the run it was read off took %g s, %g s", wall, cpu, fineWall, fineCPU)
		}
	}

	// From the cache.
	c2 := &Cache{Dir: t.TempDir()}
	countEvents(t, Sweep{Cache: c2, Workers: 2}, base)
	if ran, thinned, cached := countEvents(t, Sweep{Cache: c2, Workers: 2}, append(withPeriod(base, 60), base...)); ran != 0 || thinned != len(base) || cached != len(base) {
		t.Fatalf("after the period-20 runs: ran %d, thinned %d, cached %d; want 0, %d, %d", ran, thinned, cached, len(base), len(base))
	}

	// Shards.
	c3 := &Cache{Dir: t.TempDir()}
	total := 0
	for i := 1; i <= 3; i++ {
		ran, thinned, _ := countEvents(t, Sweep{Cache: c3, Workers: 1, Shard: Shard{i, 3}}, append(withPeriod(base, 60), base...))
		if ran != thinned {
			t.Fatalf("shard %d/3 ran %d runs and read %d off them; want the same number", i, ran, thinned)
		}
		total += ran
	}
	if total != len(base) {
		t.Fatalf("3 shards ran %d runs, want %d", total, len(base))
	}
}

// TestPeriodsNest: in the shipped figures, every checkpoint period of a run
// is a multiple of its finest, so the sweep computes each run once (and
// nadb figures -list counts it once).
func TestPeriodsNest(t *testing.T) {
	finest := map[string]int{}
	var specs []experiments.Spec
	for _, fs := range FigureSpecs() {
		for _, j := range fs.Build(Paper).Jobs() {
			tk := j.Spec.TrajectoryKey()
			if e, ok := finest[tk]; !ok || j.Spec.Every < e {
				finest[tk] = j.Spec.Every
			}
			specs = append(specs, j.Spec)
		}
	}
	for _, s := range specs {
		if e := finest[s.TrajectoryKey()]; s.Every%e != 0 {
			t.Errorf("%s on %s, seed %d: checkpoint period %d is no multiple of the same run's %d", s.Algorithm, s.Problem.Name, s.Seed, s.Every, e)
		}
	}
}
