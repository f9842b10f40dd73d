package sweep

import (
	"fmt"
	"slices"
	"sync"
)

// RunOrder returns figs in the order of FigureSpecs (the paper's Figures 1–6
// first, then ours): the order in which "nadb figures" starts their runs,
// so that with Sweep.OnGroup and a Drawer the first figures of the list are
// drawn while the runs of the others are still going.
func RunOrder(figs []Figure) []Figure {
	pos := map[string]int{}
	for i, fs := range FigureSpecs() {
		pos[fs.ID] = i
	}
	out := slices.Clone(figs)
	slices.SortStableFunc(out, func(a, b Figure) int {
		pa, oka := pos[a.ID]
		pb, okb := pos[b.ID]
		switch {
		case oka && okb:
			return pa - pb
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
	return out
}

// A Drawer draws figures (Figure.Aggregate, Table.Render) while a sweep
// runs: Group, given as Sweep.OnGroup to a sweep of the figures' jobs
// (whose Job.Group is the figure's ID), queues a figure as soon as its last
// run is finished, and workers goroutines draw the queued figures. Each
// figure writes only its own files, so the figures drawn do not depend on
// the order they are drawn in; an interrupted sweep keeps the figures it
// finished.
type Drawer struct {
	figs    []Figure
	cache   *Cache
	out     string
	onDrawn func(id string, files []string, err error)

	index map[string]int
	queue chan int
	wg    sync.WaitGroup

	mu      sync.Mutex
	queued  []bool
	written [][]string
	errs    []error
	drawn   int
}

// NewDrawer starts workers goroutines that draw figs from cache into the
// directory out; onDrawn (may be nil) is called after each figure is drawn,
// from one of them, with the files written or the error that stopped it.
func NewDrawer(figs []Figure, cache *Cache, out string, workers int, onDrawn func(id string, files []string, err error)) *Drawer {
	d := &Drawer{figs: figs, cache: cache, out: out, onDrawn: onDrawn,
		index: make(map[string]int, len(figs)), queue: make(chan int, len(figs)),
		queued: make([]bool, len(figs)), written: make([][]string, len(figs)), errs: make([]error, len(figs))}
	for i, f := range figs {
		d.index[f.ID] = i
	}
	q := d.queue // Wait sets d.queue to nil
	for range max(workers, 1) {
		d.wg.Go(func() {
			for i := range q {
				d.draw(i)
			}
		})
	}
	return d
}

// Group queues the figure with this ID (a Sweep.OnGroup): other groups are
// ignored, and so is a figure queued before or a call after Wait.
func (d *Drawer) Group(id string) {
	i, ok := d.index[id]
	if !ok {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.queued[i] || d.queue == nil {
		return
	}
	d.queued[i] = true
	d.queue <- i // never blocks: the queue holds every figure
}

func (d *Drawer) draw(i int) {
	var files []string
	tab, err := d.figs[i].Aggregate(CacheLoader(d.cache))
	if err == nil {
		files, err = tab.Render(d.out, d.cache)
	}
	if err != nil {
		err = fmt.Errorf("figure %s: %w", d.figs[i].ID, err)
	}
	d.mu.Lock()
	d.written[i], d.errs[i] = files, err
	if err == nil {
		d.drawn++
	}
	d.mu.Unlock()
	if d.onDrawn != nil {
		d.onDrawn(d.figs[i].ID, files, err)
	}
}

// Wait stops taking figures and waits for those queued to be drawn.
func (d *Drawer) Wait() {
	d.mu.Lock()
	if d.queue != nil {
		close(d.queue)
		d.queue = nil
	}
	d.mu.Unlock()
	d.wg.Wait()
}

// Drawn returns the number of figures drawn so far.
func (d *Drawer) Drawn() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.drawn
}

// Finish, after a sweep of the figures that succeeded, waits for the queued
// figures (Wait), draws any figure not queued (one without runs, which a
// sweep never reports) and returns the files written per figure (in the
// order of figs) and the first figure's error.
func (d *Drawer) Finish() ([][]string, error) {
	d.Wait()
	for i := range d.figs {
		if !d.queued[i] {
			d.queued[i] = true
			d.draw(i)
		}
	}
	for _, err := range d.errs {
		if err != nil {
			return d.written, err
		}
	}
	return d.written, nil
}
