package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/lockon"
	"github.com/neural-adb/nadb/experiments/sweep"
)

func cmdLockon(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("nadb lockon", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "reduced scale (100 contexts, width 20, T = 300, 3 seeds) for a smoke check")
	out := fs.String("out", "figures/lockon", "directory the tables are written to")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "runs executed in parallel (results do not depend on it)")
	seeds := fs.Int("seeds", 0, "override the number of seeds (0: the scale's)")
	cacheDir := fs.String("cache", ".cache/lockon", "directory of cached lock-on runs (\"\" for none); kept apart from the figures' cache because these runs carry calibration columns")
	algos := fs.String("algos", "", "restrict the main table to these algorithms (comma-separated; their comparators are kept); default: every rule")
	parts := fs.String("parts", "main,sensitivity,mechanism", "which parts to run: main, sensitivity, mechanism (comma-separated)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: nadb lockon [flags]

Runs the lock-on study of the paper's context rule (eq. 3): the as-written
rules against the same arm rules on uniformly random contexts, the repaired
rules, the sensitivity to open readings, and the mechanism. Writes CSV and
Markdown tables (main, sensitivity, mechanism, curves) and README.md (all of them) into -out.
Every run is deterministic in its configuration; files are identical for any
-workers.

flags:`)
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	st := lockon.PaperLockon()
	if *quick {
		st = lockon.QuickLockon()
	}
	if *seeds < 0 {
		return usageError{fmt.Errorf("seeds: need ≥ 0, got %d", *seeds)}
	}
	if *seeds > 0 {
		st.Seeds, st.ReadingSeeds = *seeds, min(st.ReadingSeeds, *seeds)
	}
	if *workers < 1 {
		return usageError{fmt.Errorf("workers: need at least 1, got %d", *workers)}
	}
	if *algos != "" {
		var err error
		if st, err = st.Restrict(strings.Split(*algos, ",")); err != nil {
			return usageError{err}
		}
	}
	partList := strings.Split(*parts, ",")
	for _, p := range partList {
		if !slices.Contains(lockon.LockonParts, p) {
			return usageError{fmt.Errorf("parts: unknown part %q (want %s)", p, strings.Join(lockon.LockonParts, ", "))}
		}
	}
	// The flags that change the study, recorded in its README.
	var invocation strings.Builder
	fs.Visit(func(f *flag.Flag) {
		if f.Name != "out" && f.Name != "workers" && f.Name != "cache" {
			fmt.Fprintf(&invocation, " -%s %s", f.Name, f.Value)
		}
	})
	var cache *sweep.Cache
	if *cacheDir != "" {
		cache = &sweep.Cache{Dir: *cacheDir}
	}
	start := time.Now()
	err := st.Report(ctx, lockon.LockonReportOptions{
		Parts: partList, Workers: *workers, Cache: cache, Dir: *out, Echo: stdout, Invocation: invocation.String(),
		Progress: func(done, total int, s experiments.Spec) {
			fmt.Fprintf(stderr, "\r%d/%d runs (%s)   ", done, total, time.Since(start).Round(time.Second))
			if done == total {
				fmt.Fprintln(stderr)
			}
		},
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "lock-on study finished in %s; tables in %s\n", time.Since(start).Round(time.Second), *out)
	return nil
}
