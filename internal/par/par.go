// Package par runs independent jobs on a fixed number of goroutines. Each job
// writes its result into its own slot, so results never depend on the number
// of workers or on scheduling.
package par

import (
	"context"
	"runtime"
	"sync"
)

// ForEach calls do(i) for i = 0..n−1 on workers goroutines (0: GOMAXPROCS).
// It stops handing out jobs when ctx is cancelled, and returns the context's
// error, or else the error of the lowest i that failed. After each job it
// calls progress (if not nil) with the number of jobs done and i, from one
// goroutine at a time.
func ForEach(ctx context.Context, n, workers int, do func(i int) error, progress func(done, i int)) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	errs := make([]error, n)
	idx := make(chan int)
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	for range min(workers, max(n, 1)) {
		wg.Go(func() {
			for i := range idx {
				errs[i] = do(i)
				if progress != nil {
					mu.Lock()
					done++
					progress(done, i)
					mu.Unlock()
				}
			}
		})
	}
feed:
	for i := range n {
		select {
		case idx <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(idx)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
