package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/lockon"
	"github.com/neural-adb/nadb/experiments/sweep"
)

// lockonDefaultOut is where the full paper-scale study writes its tables.
const lockonDefaultOut = "figures/lockon"

// lockonFlags are the flags of "nadb lockon".
type lockonFlags struct {
	fs                          *flag.FlagSet
	quick                       *bool
	out, cacheDir, algos, parts *string
	workers, seeds              *int
}

func newLockonFlags(stderr io.Writer) lockonFlags {
	fs := flag.NewFlagSet("nadb lockon", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := lockonFlags{fs: fs}
	f.quick = fs.Bool("quick", false, "reduced scale (100 contexts, width 20, T = 300, 3 seeds) for a smoke check")
	f.out = fs.String("out", "", "directory the tables are written to (default "+lockonDefaultOut+" for the full paper-scale study; any other study prints its tables unless -out names a directory, and refuses to overwrite a paper-scale study's)")
	f.workers = fs.Int("workers", runtime.GOMAXPROCS(0), "runs executed in parallel (results do not depend on it)")
	f.seeds = fs.Int("seeds", 0, "override the number of seeds (0: the scale's)")
	f.cacheDir = fs.String("cache", ".cache/lockon", "directory of cached lock-on runs (\"\" for none); kept apart from the figures' cache because these runs carry calibration columns")
	f.algos = fs.String("algos", "", "restrict the main table to these algorithms (comma-separated; their comparators are kept); default: every rule")
	f.parts = fs.String("parts", strings.Join(lockon.LockonParts, ","), "which parts to run: main, sensitivity, mechanism (comma-separated)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: nadb lockon [flags]

Runs the lock-on study of the paper's context rule (eq. 3): the as-written
rules against the same arm rules on uniformly random contexts, the repaired
rules, the sensitivity to open readings, and the mechanism. Prints the
Markdown tables; writes them as CSV and Markdown with a README.md (all of
them) into -out. The full paper-scale study writes into `+lockonDefaultOut+` by
default. Every run is deterministic in its configuration; files are
identical for any -workers.

flags:`)
		fs.PrintDefaults()
	}
	return f
}

// invocation is the command line that reproduces the study, recorded in its
// README: the flags that change the study, and -out when the study is not
// the default one (only then is -out needed to write files).
func (f lockonFlags) invocation(full bool) string {
	return "nadb lockon" + invocation(f.fs, func(name string) bool {
		switch name {
		case "workers", "cache":
			return false
		case "out":
			return !full
		}
		return true
	})
}

func cmdLockon(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	f := newLockonFlags(stderr)
	if err := parse(f.fs, args); err != nil {
		return err
	}
	st := lockon.PaperLockon()
	if *f.quick {
		st = lockon.QuickLockon()
	}
	if *f.seeds < 0 {
		return usageError{fmt.Errorf("seeds: need ≥ 0, got %d", *f.seeds)}
	}
	if *f.seeds > 0 {
		st.Seeds, st.ReadingSeeds = *f.seeds, min(st.ReadingSeeds, *f.seeds)
	}
	if *f.workers < 1 {
		return usageError{fmt.Errorf("workers: need at least 1, got %d", *f.workers)}
	}
	if *f.algos != "" {
		var err error
		if st, err = st.Restrict(strings.Split(*f.algos, ",")); err != nil {
			return usageError{err}
		}
	}
	partList := strings.Split(*f.parts, ",")
	for _, p := range partList {
		if !slices.Contains(lockon.LockonParts, p) {
			return usageError{fmt.Errorf("parts: unknown part %q (want %s)", p, strings.Join(lockon.LockonParts, ", "))}
		}
	}
	// The full paper-scale study is the one committed under figures/lockon.
	full := !*f.quick && *f.seeds == 0 && *f.algos == "" && len(partList) == len(lockon.LockonParts)
	for _, p := range lockon.LockonParts {
		full = full && slices.Contains(partList, p)
	}
	dir := *f.out
	if dir == "" && full {
		dir = lockonDefaultOut
	}
	if dir != "" {
		if err := checkOutDir("out", dir); err != nil {
			return err
		}
		if err := guardPaperFile("out", filepath.Join(dir, "README.md"), st.Name, "(paper scale)"); err != nil {
			return err
		}
	}
	var cache *sweep.Cache
	if *f.cacheDir != "" {
		if err := checkOutDir("cache", *f.cacheDir); err != nil {
			return err
		}
		cache = &sweep.Cache{Dir: *f.cacheDir}
	}
	start := time.Now()
	done, total := 0, 0
	err := st.Report(ctx, lockon.LockonReportOptions{
		Parts: partList, Workers: *f.workers, Cache: cache, Dir: dir, Echo: stdout, Invocation: f.invocation(full),
		Progress: func(d, t int, s experiments.Spec) {
			done, total = d, t
			fmt.Fprintf(stderr, "\r%d/%d runs (%s)   ", d, t, time.Since(start).Round(time.Second))
			if d == t {
				fmt.Fprintln(stderr)
			}
		},
	})
	if err != nil && ctx.Err() != nil && cache != nil {
		return fmt.Errorf("interrupted: %d of %d runs of this part are finished and cached in %s; run the same command again to resume from there: %w", done, total, cache.Dir, err)
	}
	if err != nil {
		return err
	}
	where := "printed only (name a directory with -out to keep them)"
	if dir != "" {
		where = "in " + dir
	}
	fmt.Fprintf(stderr, "lock-on study finished in %s; tables %s\n", time.Since(start).Round(time.Second), where)
	return nil
}
