package sweep

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/neural-adb/nadb/experiments"
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
	Wall   float64 // seconds the run took (0 when cached)
	Cached bool
	Done   int // runs finished so far, cached ones included
	Total  int // runs in this sweep (after sharding)
	Err    error
}

// Sweep executes runs in parallel, reusing and filling a cache.
type Sweep struct {
	Cache   *Cache
	Workers int         // 0: GOMAXPROCS
	Shard   Shard       // zero value: everything
	OnEvent func(Event) // called from one goroutine at a time
}

// Execute runs every job of the shard that is not cached yet, on Workers
// goroutines (internal/par). Each result is stored as soon as its run
// finishes, so an interrupted sweep loses at most the runs in progress.
// Results do not depend on the number of workers: every run is deterministic
// in its Spec. It returns the context's error or the first failed run's (in
// job order), after letting the other runs finish.
func (s *Sweep) Execute(ctx context.Context, jobs []Job) error {
	seen := map[string]bool{}
	var todo, cached []Job
	for _, j := range jobs {
		k := j.Spec.Key()
		if seen[k] || !s.Shard.Has(k) {
			continue
		}
		seen[k] = true
		if _, _, ok, err := s.Cache.Load(j.Spec); err == nil && ok {
			cached = append(cached, j)
		} else {
			todo = append(todo, j)
		}
	}
	total := len(cached) + len(todo)
	report := func(ev Event, done int) {
		ev.Done, ev.Total = done, total
		if s.OnEvent != nil {
			s.OnEvent(ev)
		}
	}
	for i, j := range cached {
		report(Event{Job: j, Cached: true}, i+1)
	}
	walls := make([]float64, len(todo))
	errs := make([]error, len(todo))
	err := par.ForEach(ctx, len(todo), s.Workers, func(i int) error {
		j := todo[i]
		start := time.Now()
		res, err := experiments.Run(ctx, j.Spec, nil)
		walls[i] = time.Since(start).Seconds()
		if err == nil {
			err = s.Cache.Store(res, walls[i])
		}
		if err != nil && !errors.Is(err, context.Canceled) {
			err = fmt.Errorf("%s, %s, seed %d: %w", j.Spec.Algorithm, j.Spec.Problem.Name, j.Spec.Seed, err)
		}
		errs[i] = err
		return err
	}, func(done, i int) {
		if !errors.Is(errs[i], context.Canceled) {
			report(Event{Job: todo[i], Wall: walls[i], Err: errs[i]}, len(cached)+done)
		}
	})
	return err
}
