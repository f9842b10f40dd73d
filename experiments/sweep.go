package experiments

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"
)

// Shard selects a deterministic part of a sweep: run i of n (1 ≤ I ≤ N) takes
// the runs whose key, read as a number, is I−1 modulo N. The split depends only
// on the runs themselves, so n machines (a cluster job array) running shards
// 1/n … n/n share the work without coordination; copying their cache
// directories together and running again without a shard plots everything.
type Shard struct{ I, N int }

// ParseShard reads "i/n".
func ParseShard(s string) (Shard, error) {
	var sh Shard
	if s == "" {
		return Shard{1, 1}, nil
	}
	if _, err := fmt.Sscanf(s, "%d/%d", &sh.I, &sh.N); err != nil || sh.N < 1 || sh.I < 1 || sh.I > sh.N {
		return sh, fmt.Errorf("shard: %q is not i/n with 1 ≤ i ≤ n", s)
	}
	return sh, nil
}

// Has reports whether the run with this key belongs to the shard.
func (s Shard) Has(key string) bool {
	if s.N <= 1 {
		return true
	}
	b, err := hex.DecodeString(key[:16])
	if err != nil {
		panic(err)
	}
	return int(binary.BigEndian.Uint64(b)%uint64(s.N)) == s.I-1
}

// Job is one run of a sweep; Group names what it is for (a figure id) in
// progress reports.
type Job struct {
	Spec  Spec
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

// Execute runs every job of the shard that is not cached yet. Each result is
// stored as soon as its run finishes, so an interrupted sweep loses at most
// the runs in progress. Results do not depend on the number of workers: every
// run is deterministic in its Spec. It returns the first run error, after
// letting the other runs finish.
func (s *Sweep) Execute(ctx context.Context, jobs []Job) error {
	seen := map[string]bool{}
	var todo []Job
	total := 0
	var cachedJobs []Job
	for _, j := range jobs {
		k := j.Spec.Key()
		if seen[k] || !s.Shard.Has(k) {
			continue
		}
		seen[k] = true
		total++
		if _, err := s.statCached(j.Spec); err == nil {
			cachedJobs = append(cachedJobs, j)
		} else {
			todo = append(todo, j)
		}
	}
	var mu sync.Mutex
	done := 0
	report := func(ev Event) {
		mu.Lock()
		defer mu.Unlock()
		done++
		ev.Done, ev.Total = done, total
		if s.OnEvent != nil {
			s.OnEvent(ev)
		}
	}
	for _, j := range cachedJobs {
		report(Event{Job: j, Cached: true})
	}
	workers := s.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ch := make(chan Job)
	var wg sync.WaitGroup
	var firstErr error
	var errOnce sync.Once
	for range workers {
		wg.Go(func() {
			for j := range ch {
				start := time.Now()
				res, err := Run(ctx, j.Spec, nil)
				wall := time.Since(start).Seconds()
				if err == nil {
					err = s.Cache.Store(res, wall)
				}
				if err != nil && !errors.Is(err, context.Canceled) {
					err = fmt.Errorf("%s, %s, seed %d: %w", j.Spec.Algorithm, j.Spec.Problem.Name, j.Spec.Seed, err)
					errOnce.Do(func() { firstErr = err })
				}
				if errors.Is(err, context.Canceled) {
					continue
				}
				report(Event{Job: j, Wall: wall, Err: err})
			}
		})
	}
	for _, j := range todo {
		if ctx.Err() != nil {
			break
		}
		ch <- j
	}
	close(ch)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// statCached reports whether a readable cache entry exists.
func (s *Sweep) statCached(spec Spec) (bool, error) {
	_, _, ok, err := s.Cache.Load(spec)
	if err != nil {
		return false, err
	}
	if !ok {
		return false, errors.New("not cached")
	}
	return true, nil
}
