package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/neural-adb/nadb/theory"
)

func cmdTheory(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("nadb theory", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "directory the tables and figures are written to (default figures/theory for the full run; a -quick run only prints its summary unless -out names a directory, and refuses to overwrite the full run's)")
	quick := fs.Bool("quick", false, "reduced sizes (a smoke check in seconds, not the reported numbers)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "runs executed in parallel (results do not depend on it)")
	cacheDir := fs.String("cache", ".cache/theory", "directory where finished outputs are kept, so an unchanged package re-plots in seconds (empty: always recompute)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: nadb theory [flags]

Checks the paper's Theorem 1 (the Mahalanobis-norm bound) and the effective
dimension (eq. 9) numerically: Monte Carlo over adapted sequences, the smallest
counterexample, d̃ and κ_μ at the paper's scale. Prints the Markdown summary
and writes CSV tables, the summary and figures to -out (figures/theory for
the full run).

flags:`)
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if *workers < 1 {
		return usageError{fmt.Errorf("workers: need at least 1, got %d", *workers)}
	}
	if *out == "" && !*quick {
		*out = "figures/theory"
	}
	if *out != "" {
		if err := checkOutDir("out", *out); err != nil {
			return err
		}
		if *quick && strings.Contains(readFileOr(filepath.Join(*out, "summary.md")), "(full run)") {
			return refusePaperOverwrite("out", filepath.Join(*out, "summary.md"), "quick")
		}
	}
	if *cacheDir != "" {
		if err := checkOutDir("cache", *cacheDir); err != nil {
			return err
		}
	}
	start := time.Now()
	opts := theory.Options{Quick: *quick, Workers: *workers, Log: stderr}
	if *out == "" {
		res, err := theory.Run(ctx, opts)
		if err != nil {
			return err
		}
		if err := res.WriteMarkdown(stdout); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "theory: summary printed only (name a directory with -out to keep the tables and figures), %.1f s\n", time.Since(start).Seconds())
		return nil
	}
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

// readFileOr returns the contents of path, or "" if it cannot be read.
func readFileOr(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return string(data)
}
