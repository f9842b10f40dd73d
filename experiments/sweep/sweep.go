package sweep

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/cputime"
	"github.com/neural-adb/nadb/internal/gemm"
	"github.com/neural-adb/nadb/internal/par"
)

// Job is one run of a sweep; Group names what it is for (a figure id) in
// progress reports.
type Job struct {
	Spec  experiments.Spec
	Group string
}

// Event reports one finished (or cached) run of a sweep.
type Event struct {
	Job
	Wall float64 // seconds the run took (0 when cached)
	CPU  float64 // processor seconds of the run's thread (0 when cached, −1 when not measured)
	// Expected is the run's expected processor time and Left that of the
	// runs to execute that have not finished yet (Sweep.Cost; 0 without it).
	Expected, Left float64
	Cached         bool
	Done           int // runs finished so far, cached ones included
	Total          int // runs in this sweep (after sharding)
	Err            error
	// Thinned reports a run read off a run of the same trajectory with the
	// same or a finer checkpoint period (experiments.Thin), not run itself.
	Thinned bool
}

// Sweep executes runs in parallel, reusing and filling a cache.
type Sweep struct {
	Cache   *Cache
	Workers int         // 0: GOMAXPROCS
	Shard   Shard       // zero value: everything
	OnEvent func(Event) // called from one goroutine at a time
	// Cost, if set, is the expected processor time of a run (Costs.Estimate):
	// within a group the runs start in decreasing order of it, so that the
	// longest runs do not end the sweep with the other workers idle.
	Cost func(experiments.Spec) float64
	// OnGroup, if set, is called once for each group of the jobs (Job.Group)
	// as soon as every run it wants in the shard is finished: cached, read off
	// another run or run. A group with a failed run is not reported. It is
	// called from the goroutine that calls OnEvent, right after the event
	// that finished the group, so it should hand long work to another
	// goroutine.
	OnGroup func(group string)
}

// Execute runs every job of the shard that is not cached yet, on Workers
// goroutines (internal/par). Each result is stored as soon as its run
// finishes, with the processor time of the run's thread (cputime.Thread:
// the goroutine stays on one thread while it runs), so an interrupted sweep
// loses at most the runs in progress. The runs start group by group, in the
// order of each group's first job (a run goes with the earliest group that
// wants it or a run read off it), so that the first groups are finished
// (OnGroup) while the others still run; within a group the longest first.
// A job of the same trajectory as another (experiments.Spec.TrajectoryKey)
// with a checkpoint period that is a multiple of the other's is not run: it
// is read off the other's result (experiments.Thin), from the cache at once
// or as soon as that run is stored, and stored with that run's times
// (Event.Thinned).
// With one worker and gemm.CountingFlops, each result is also stored with
// the floating-point operations of its matrix products (the package's
// counter is one per process, so runs in parallel cannot be told apart).
// Results do not depend on the number of workers: every run is deterministic
// in its Spec. It returns the context's error or the first failed run's (in
// job order), after letting the other runs finish.
func (s *Sweep) Execute(ctx context.Context, jobs []Job) error {
	seen := map[string]bool{}
	var todo, cached []Job
	rank := map[string]int{}        // group → its place among the groups
	wanted := map[string][]string{} // run key → the groups that want it
	missing := map[string]int{}     // group → runs it still waits for
	for _, j := range jobs {
		k := j.Spec.Key()
		if !s.Shard.Has(j.Spec.TrajectoryKey()) {
			continue
		}
		if _, ok := rank[j.Group]; !ok {
			rank[j.Group] = len(rank)
		}
		if !slices.Contains(wanted[k], j.Group) {
			wanted[k] = append(wanted[k], j.Group)
			missing[j.Group]++
		}
		if seen[k] {
			continue
		}
		seen[k] = true
		if _, _, ok, err := s.Cache.Load(j.Spec); err == nil && ok {
			cached = append(cached, j)
		} else {
			todo = append(todo, j)
		}
	}
	todo, thinned, later, err := s.plan(cached, todo)
	if err != nil {
		return err
	}
	// A run starts with its earliest group: the first of the groups that
	// want it or a run read off it.
	type start struct {
		job   Job
		group int
		cost  float64
	}
	starts := make([]start, len(todo))
	for i, j := range todo {
		k := j.Spec.Key()
		first := rank[j.Group]
		for _, g := range wanted[k] {
			first = min(first, rank[g])
		}
		for _, t := range later[k] {
			for _, g := range wanted[t.Spec.Key()] {
				first = min(first, rank[g])
			}
		}
		starts[i] = start{job: j, group: first}
		if s.Cost != nil {
			starts[i].cost = s.Cost(j.Spec)
		}
	}
	slices.SortStableFunc(starts, func(a, b start) int {
		if c := cmp.Compare(a.group, b.group); c != 0 {
			return c
		}
		return cmp.Compare(b.cost, a.cost)
	})
	cost := make([]float64, len(todo))
	left := 0.0
	for i, st := range starts {
		todo[i], cost[i] = st.job, st.cost
		left += cost[i]
	}
	total, done := len(cached)+len(thinned)+len(todo), 0
	for _, t := range later {
		total += len(t)
	}
	report := func(ev Event) {
		done++
		ev.Done, ev.Total = done, total
		if s.OnEvent != nil {
			s.OnEvent(ev)
		}
		if ev.Err != nil {
			return
		}
		for _, g := range wanted[ev.Spec.Key()] {
			if missing[g]--; missing[g] == 0 && s.OnGroup != nil {
				s.OnGroup(g)
			}
		}
	}
	for _, j := range cached {
		report(Event{Job: j, Cached: true})
	}
	for _, j := range thinned {
		report(Event{Job: j, Thinned: true})
	}
	walls := make([]float64, len(todo))
	cpus := make([]float64, len(todo))
	flops := make([]int64, len(todo))
	countFlops := gemm.CountingFlops() && (s.Workers == 1 || s.Workers <= 0 && runtime.GOMAXPROCS(0) == 1)
	errs := make([]error, len(todo))
	err = par.ForEach(ctx, len(todo), s.Workers, func(i int) error {
		j := todo[i]
		runtime.LockOSThread()
		start, cpu0, flops0 := time.Now(), cputime.Thread(), gemm.Flops()
		res, err := experiments.Run(ctx, j.Spec, nil)
		walls[i], cpus[i], flops[i] = time.Since(start).Seconds(), (cputime.Thread() - cpu0).Seconds(), gemm.Flops()-flops0
		runtime.UnlockOSThread()
		if !cputime.ThreadSupported() {
			cpus[i] = -1
		}
		if !countFlops {
			flops[i] = -1
		}
		if err == nil {
			err = s.Cache.StoreCost(res, walls[i], cpus[i], flops[i])
		}
		for _, t := range later[todo[i].Spec.Key()] {
			if err != nil {
				break
			}
			var tr *experiments.Result
			if tr, err = experiments.Thin(res, t.Spec); err == nil {
				err = s.Cache.StoreCost(tr, walls[i], cpus[i], flops[i])
			}
		}
		if err != nil && !errors.Is(err, context.Canceled) {
			err = fmt.Errorf("%s, %s, seed %d: %w", j.Spec.Algorithm, j.Spec.Problem.Name, j.Spec.Seed, err)
		}
		errs[i] = err
		return err
	}, func(_, i int) {
		left -= cost[i]
		if !errors.Is(errs[i], context.Canceled) {
			report(Event{Job: todo[i], Wall: walls[i], CPU: cpus[i], Expected: cost[i], Left: max(left, 0), Err: errs[i]})
			if errs[i] == nil {
				for _, t := range later[todo[i].Spec.Key()] {
					report(Event{Job: t, Thinned: true})
				}
			}
		}
	})
	return err
}

// plan splits the jobs to run (todo) into those read off a cached run
// (thinned: read and stored here), those read off a run of todo once it is
// stored (later, by that run's key) and those to run.
func (s *Sweep) plan(cached, todo []Job) (run, thinned []Job, later map[string][]Job, err error) {
	have := map[string][]experiments.Spec{} // cached runs by trajectory
	for _, j := range cached {
		tk := j.Spec.TrajectoryKey()
		have[tk] = append(have[tk], j.Spec)
	}
	// The finest period of a trajectory first, so that a run is read off
	// the finest one that holds it.
	order := slices.Clone(todo)
	slices.SortStableFunc(order, func(a, b Job) int { return a.Spec.Every - b.Spec.Every })
	primary := map[string][]experiments.Spec{} // runs of todo by trajectory
	later = map[string][]Job{}
	keep := map[string]bool{}
next:
	for _, j := range order {
		tk := j.Spec.TrajectoryKey()
		for _, c := range have[tk] {
			if experiments.Thins(c, j.Spec) {
				if err := s.Cache.thin(c, j.Spec); err != nil {
					return nil, nil, nil, err
				}
				thinned = append(thinned, j)
				continue next
			}
		}
		for _, p := range primary[tk] {
			if experiments.Thins(p, j.Spec) {
				later[p.Key()] = append(later[p.Key()], j)
				continue next
			}
		}
		primary[tk] = append(primary[tk], j.Spec)
		keep[j.Spec.Key()] = true
	}
	for _, j := range todo { // in job order
		if keep[j.Spec.Key()] {
			run = append(run, j)
		}
	}
	return run, thinned, later, nil
}
