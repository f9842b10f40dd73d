package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/neural-adb/nadb/theory"
)

func cmdTheory(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("nadb theory", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "figures/theory", "directory the tables and figures are written to")
	quick := fs.Bool("quick", false, "reduced sizes (a smoke check in seconds, not the reported numbers)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "runs executed in parallel (results do not depend on it)")
	cacheDir := fs.String("cache", ".cache/theory", "directory where finished outputs are kept, so an unchanged package re-plots in seconds (empty: always recompute)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: nadb theory [flags]

Checks the paper's Theorem 1 (the Mahalanobis-norm bound) and the effective
dimension (eq. 9) numerically: Monte Carlo over adapted sequences, the smallest
counterexample, d̃ and κ_μ at the paper's scale. Writes CSV tables, a Markdown
summary and figures to -out, and prints the summary.

flags:`)
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if *workers < 1 {
		return usageError{fmt.Errorf("workers: need at least 1, got %d", *workers)}
	}
	start := time.Now()
	opts := theory.Options{Quick: *quick, Workers: *workers, Log: stderr}
	var paths []string
	if *cacheDir != "" {
		var summary []byte
		var err error
		if paths, summary, err = theory.RunCached(ctx, opts, *cacheDir, *out); err != nil {
			return err
		}
		stdout.Write(summary)
	} else {
		res, err := theory.Run(ctx, opts)
		if err != nil {
			return err
		}
		if paths, err = res.Write(*out); err != nil {
			return err
		}
		if err := res.WriteMarkdown(stdout); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "theory: wrote %d files to %s in %.1f s\n", len(paths), *out, time.Since(start).Seconds())
	return nil
}
