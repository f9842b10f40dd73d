package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/sweep"
	"github.com/neural-adb/nadb/internal/fsutil"
	"github.com/neural-adb/nadb/internal/gemm"
)

func cmdFigures(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("nadb figures", flag.ContinueOnError)
	fs.SetOutput(stderr)
	only := fs.String("only", "", "comma-separated figure ids (default: every figure; see -list)")
	quick := fs.Bool("quick", false, "reduced scale (2 seeds, T = 200) for a smoke check")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "runs executed in parallel")
	shard := fs.String("shard", "", "run only shard i/n of the sweep (1 ≤ i ≤ n), e.g. one task of a job array; plots nothing")
	cacheDir := fs.String("cache", ".cache/runs", "directory of cached run results")
	out := fs.String("out", "", "directory the figures are written to (default figures, the committed paper-scale results; required with -quick, which refuses to overwrite paper-scale figures)")
	list := fs.Bool("list", false, "list the figures in the order they are run and drawn, their run counts, expected processor time (from the committed cost table) and when each is drawn; run nothing")
	costs := fs.String("costs", "", "write the cost table of the figures' runs to this file (experiments/sweep/costs.csv): the processor times the cache recorded, after running one seed of every configuration that has none; plots nothing. With NADB_GEMM_FLOPS=1 and -workers 1 it counts each run's arithmetic too (the gflop column; runs cached without a count are not rerun, so use an empty -cache directory)")
	peak := fs.Float64("peak", 0, "with -list: a core's peak rate in GFLOP/s (go test -bench Peak ./internal/gemm, as make speed measures it), to print each figure's arithmetic floor (the counted operations of its matrix products at that rate) beside its expected processor time")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: nadb figures [flags]

Regenerates the paper's figures. Every (figure, algorithm, setting, seed) run is
deterministic in its configuration and cached under -cache by a hash of it, so an
interrupted sweep resumes where it stopped and a figure whose runs are cached
re-plots in seconds. With -shard i/n, n machines share the sweep; copy their
cache directories into one and run again without -shard to plot.

flags:`)
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	sc := sweep.Paper
	if *quick {
		sc = sweep.Quick
	}
	var ids []string
	if *only != "" {
		ids = strings.Split(*only, ",")
	}
	sh, err := sweep.ParseShard(*shard)
	if err != nil {
		return usageError{err}
	}
	if *workers < 1 {
		return usageError{fmt.Errorf("workers: need at least 1, got %d", *workers)}
	}
	figs, err := sweep.Figures(sc, ids)
	if err != nil {
		return usageError{fmt.Errorf("-only: %w", err)}
	}
	if *out == "" && !*list && *costs == "" && sh.N <= 1 {
		if sc.Name != sweep.Paper.Name {
			return usageError{fmt.Errorf("-out: a %s-scale sweep needs a directory of its own (figures/ holds the paper-scale results), e.g. -out figures/quick", sc.Name)}
		}
		*out = "figures"
	}
	if err := checkOutDir("cache", *cacheDir); err != nil {
		return err
	}
	if *out != "" {
		if err := checkOutDir("out", *out); err != nil {
			return err
		}
		if err := guardPaperFigures(*out, sc, figs); err != nil {
			return err
		}
	}
	// The runs start figure by figure in the order of the figure list (the
	// paper's Figures 1–6 first), and each figure is drawn as soon as its
	// runs are done.
	var jobs []sweep.Job
	for _, f := range sweep.RunOrder(figs) {
		jobs = append(jobs, f.Jobs()...)
	}
	if *list {
		if !(*peak >= 0) {
			return usageError{fmt.Errorf("-peak: need a rate ≥ 0 in GFLOP/s, got %g", *peak)}
		}
		listFigures(stdout, sweep.RunOrder(figs), *workers, *peak)
		return nil
	}
	cache := &sweep.Cache{Dir: *cacheDir}
	prog := newProgress(stderr, sc.Name, *workers)
	est := sweep.DefaultCosts()
	if *costs != "" {
		counting := gemm.CountingFlops() && *workers == 1
		if gemm.CountingFlops() && !counting {
			fmt.Fprintf(stderr, "nadb figures -costs: %s=1 counts the arithmetic only with -workers 1 (one counter per process); not counting it\n", gemm.FlopsEnv)
		}
		samples, err := sweep.CostSamples(figs, cache, counting)
		if err != nil {
			return err
		}
		sw := sweep.Sweep{Cache: cache, Workers: *workers, OnEvent: prog.event,
			Cost: func(s experiments.Spec) float64 { c, _ := est.Estimate(s); return c }}
		err = sw.Execute(ctx, samples)
		prog.finish()
		if err != nil {
			return prog.interrupted(ctx, err, *cacheDir)
		}
		return writeCosts(stderr, *costs, figs, cache)
	}
	sw := sweep.Sweep{Cache: cache, Workers: *workers, Shard: sh, OnEvent: prog.event,
		Cost: func(s experiments.Spec) float64 { c, _ := est.Estimate(s); return c }}
	var d *sweep.Drawer
	if sh.N <= 1 {
		d = sweep.NewDrawer(figs, cache, *out, *workers, func(id string, files []string, err error) {
			if err != nil {
				prog.print(stderr, "error: "+err.Error()+" (the runs go on)")
				return
			}
			prog.print(stdout, id+": "+strings.Join(files, " "))
		})
		sw.OnGroup = d.Group
		prog.figures, prog.drawn = len(figs), d.Drawn
	}
	start := time.Now()
	err = sw.Execute(ctx, jobs)
	if d != nil {
		d.Wait()
	}
	prog.finish()
	if err != nil {
		return prog.interrupted(ctx, err, *cacheDir)
	}
	fmt.Fprintf(stderr, "sweep finished in %s: %s\n", time.Since(start).Round(time.Second), prog.summary(*cacheDir))
	if sh.N > 1 {
		fmt.Fprintf(stdout, "shard %d/%d done; copy the cache directories together and run nadb figures without -shard to plot\n", sh.I, sh.N)
		return nil
	}
	if _, err := d.Finish(); err != nil {
		return err
	}
	// Tables across figures (the savings table of figures/choice), when all
	// their figures were drawn.
	more, err := sweep.WriteCollections(figs, cache, *out)
	if len(more) > 0 {
		fmt.Fprintf(stdout, "tables: %s\n", strings.Join(more, " "))
	}
	return err
}

// minutes formats sec in minutes: whole minutes from 10 on, else one
// decimal.
func minutes(sec float64) string {
	m := sec / 60
	if m < 10 {
		return strconv.FormatFloat(m, 'f', 1, 64)
	}
	return strconv.FormatFloat(m, 'f', 0, 64)
}

// listFigures prints every figure, in the order figs gives (the order the
// sweep runs them in: sweep.RunOrder), with its distinct runs (as the sweep
// counts them: a run drawn in two panels or two figures, with two
// checkpoint periods, or as the passive twin of two learners with one
// model, is computed once), their expected processor time from the
// committed cost table and the wall time after which the figure is drawn
// (its runs and those above on workers idle cores); then the totals. With
// peak > 0 (GFLOP/s) it adds the arithmetic floor of each figure's runs
// whose operations the table counted.
func listFigures(w io.Writer, figs []sweep.Figure, workers int, peak float64) {
	est := sweep.DefaultCosts()
	seen := map[string]bool{}
	trajectories := map[string]bool{} // Execute reads a run off another of the same trajectory with a finer period (the shipped figures' periods nest: TestPeriodsNest)
	total, unmeasured := 0.0, 0
	totalFloor, uncounted := 0.0, 0
	for _, f := range figs {
		own, fresh, cpu, miss := map[string]bool{}, 0, 0.0, 0
		floor, floorMiss := 0.0, 0
		for _, j := range f.Jobs() {
			k, tk := j.Spec.Key(), j.Spec.TrajectoryKey()
			if !own[k] && !seen[k] && !trajectories[tk] {
				fresh++
				c, ok := est.Estimate(j.Spec)
				cpu += c
				if !ok {
					miss++
				}
				if g, ok := est.GFLOP(j.Spec); ok {
					floor += g
				} else {
					floorMiss++
				}
			}
			own[k], seen[k], trajectories[tk] = true, true, true
		}
		var notes []string
		if fresh < len(own) {
			notes = append(notes, fmt.Sprintf("%d shared with figures above", len(own)-fresh))
		}
		if miss > 0 {
			notes = append(notes, fmt.Sprintf("%d not measured: guessed", miss))
		}
		note := ""
		if len(notes) > 0 {
			note = "(" + strings.Join(notes, "; ") + ") "
		}
		floorNote := ""
		if peak > 0 {
			floorNote = fmt.Sprintf("floor %5.1f CPU-min  ", floor/peak/60)
			if floorMiss > 0 {
				floorNote = fmt.Sprintf("floor ≥ %.1f CPU-min (%d runs not counted)  ", floor/peak/60, floorMiss)
			}
		}
		total += cpu
		fmt.Fprintf(w, "%-24s %4d runs %6.1f CPU-min  drawn after %4s min  %s%s%s: %s\n", f.ID, len(own), cpu/60, minutes(total/float64(workers)), floorNote, note, f.Paper, f.Caption)
		unmeasured += miss
		totalFloor += floor
		uncounted += floorMiss
	}
	thin := ""
	if n := len(seen) - len(trajectories); n > 0 {
		thin = fmt.Sprintf(" (%d of them read off another run's results, not run)", n)
	}
	fmt.Fprintf(w, "%d distinct runs in all%s: about %s CPU-minutes, %s minutes of wall time with %d workers on as many idle cores", len(seen), thin, minutes(total), minutes(total/float64(workers)), workers)
	if unmeasured > 0 {
		fmt.Fprintf(w, " (%d runs guessed from the measured ones)", unmeasured)
	}
	if peak > 0 {
		at := ""
		if uncounted > 0 {
			at = fmt.Sprintf(" of the %d runs whose arithmetic the table counts", len(trajectories)-uncounted)
		}
		fmt.Fprintf(w, "\narithmetic floor%s: %.1f TFLOP in matrix products, %.1f CPU-minutes at %g GFLOP/s, %.1f minutes of wall time on %d such cores (work outside the products is not counted)", at, totalFloor/1e3, totalFloor/peak/60, peak, totalFloor/peak/60/float64(workers), workers)
	}
	fmt.Fprintf(w, "\nexpected processor times: experiments/sweep/costs.csv, %s\n", strings.ReplaceAll(est.Note, "\n", " "))
}

// writeCosts writes the cost table of the figures' runs from the processor
// times the cache recorded (nadb figures -costs).
func writeCosts(stderr io.Writer, path string, figs []sweep.Figure, cache *sweep.Cache) error {
	rows, missing, err := sweep.MeasuredCosts(figs, cache)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return fmt.Errorf("-costs: no run of these figures in %s has a recorded processor time; run the sweep first (a cold one: runs cached before the time was recorded have none)", cache.Dir)
	}
	runs := 0
	for _, r := range rows {
		runs += r.Runs
	}
	note := fmt.Sprintf("Processor time (user + sys seconds of the run's thread) of one run of each configuration of the figures:\n"+
		"the mean over the %d cached runs (at least one per configuration), written by nadb figures -costs (make figure-costs) with %s on %s (%s).", runs, runtime.Version(), cpuModel(), runtime.GOARCH)
	if err := fsutil.WriteWith(path, func(w io.Writer) error { return sweep.WriteCosts(w, note, rows) }); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "%s: %d configurations from %d runs", path, len(rows), runs)
	if missing > 0 {
		fmt.Fprintf(stderr, " (%d runs without a recorded time left out)", missing)
	}
	fmt.Fprintln(stderr)
	return nil
}

// cpuModel returns the processor's model name (Linux), or "unknown processor".
func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err == nil {
		for line := range strings.SplitSeq(string(data), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				return strings.TrimSpace(v)
			}
		}
	}
	return "unknown processor"
}

// progress shows a live bar on a terminal and one line per finished run
// otherwise. Its ETA weighs the runs by their expected processor time when
// the sweep gives it (Event.Expected and Left): the wall time the finished
// runs took per expected second, times the expected seconds left, shared
// among the workers; otherwise it counts runs. It reads each run's own
// wall time, not the time since the start, so the runs still in progress
// do not make the first estimates too long.
type progress struct {
	w           io.Writer
	tty         bool
	scale       string
	workers     int     // runs in parallel
	runs        int     // runs actually executed (not cached)
	cached      int     // runs read from the cache
	thinned     int     // runs read off another run (experiments.Thin)
	wall        float64 // their wall seconds
	expected    float64 // their expected processor seconds
	done, total int     // of the last event
	// figures and drawn (nil when nothing is drawn) count the figures of
	// the sweep and those drawn so far, for the message of an interrupted
	// one.
	figures int
	drawn   func() int

	mu  sync.Mutex // one line at a time: events and figures drawn
	bar bool       // a terminal shows the bar (no newline after it yet)
}

// interrupted turns the error of an interrupted sweep into one that says
// what is kept and that rerunning resumes; other errors pass unchanged.
func (p *progress) interrupted(ctx context.Context, err error, cacheDir string) error {
	if ctx.Err() == nil {
		return err
	}
	drawn := ""
	if p.drawn != nil {
		drawn = fmt.Sprintf(" (%d of %d figures drawn)", p.drawn(), p.figures)
	}
	return fmt.Errorf("interrupted: %d of %d runs are finished and cached in %s%s; run the same command again to resume from there: %w", p.done, p.total, cacheDir, drawn, err)
}

func newProgress(w io.Writer, scale string, workers int) *progress {
	tty := false
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			tty = true
		}
	}
	return &progress{w: w, tty: tty, scale: scale, workers: max(workers, 1)}
}

// print writes line to w (standard output), first clearing the bar of a
// terminal, which the next event draws again.
func (p *progress) print(w io.Writer, line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar {
		fmt.Fprint(p.w, "\r\033[K")
		p.bar = false
	}
	fmt.Fprintln(w, line)
}

func (p *progress) event(ev sweep.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done, p.total = ev.Done, ev.Total
	switch {
	case ev.Cached:
		p.cached++
	case ev.Thinned:
		p.thinned++
	default:
		p.runs++
		p.wall += ev.Wall
		p.expected += ev.Expected
	}
	eta := "?"
	sec := -1.0
	switch {
	case p.expected > 0:
		sec = p.wall / p.expected * ev.Left
	case p.runs > 0:
		sec = p.wall / float64(p.runs) * float64(ev.Total-ev.Done)
	}
	if sec >= 0 {
		eta = time.Duration(sec / float64(p.workers) * float64(time.Second)).Round(time.Second).String()
	}
	if ev.Err != nil {
		fmt.Fprintf(p.w, "\nerror: %v\n", ev.Err)
	}
	if p.tty {
		const width = 30
		filled := width * ev.Done / max(ev.Total, 1)
		p.bar = true
		fmt.Fprintf(p.w, "\r[%s%s] %d/%d runs  ETA %-8s %-24s", strings.Repeat("#", filled), strings.Repeat(".", width-filled), ev.Done, ev.Total, eta, ev.Group)
		return
	}
	if ev.Cached || ev.Thinned {
		return
	}
	fmt.Fprintf(p.w, "%d/%d %s %s %s seed %d %.1fs (ETA %s)\n", ev.Done, ev.Total, ev.Group, ev.Spec.Algorithm, ev.Spec.Problem.Name, ev.Spec.Seed, ev.Wall, eta)
}

// summary says how the finished sweep's runs were obtained, and, when some
// came from the cache, that the cache is keyed by configuration, not by
// code: a learner changed since its runs were cached needs another cache.
func (p *progress) summary(cacheDir string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := fmt.Sprintf("runs: %d executed, %d read from the cache in %s, %d read off another run", p.runs, p.cached, cacheDir, p.thinned)
	if p.cached > 0 {
		s += " (the cache is keyed by each run's configuration, not by the code: after changing a learner, give another -cache directory or forget the cache with make clean-cache)"
	}
	return s
}

func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar {
		fmt.Fprintln(p.w)
		p.bar = false
	}
}
