package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/neural-adb/nadb/experiments/pool"
	"github.com/neural-adb/nadb/internal/fsutil"
	"github.com/neural-adb/nadb/internal/memlimit"
	"github.com/neural-adb/nadb/internal/poolfile"
)

// synthHelp documents nadb data synth.
const synthHelp = `usage: nadb data synth -out DIR [-contexts C] [-arms K] [-dim D | -layout blocks -block B] [-float32] [-answers N] [-csv] [-seed S]

Generates a pool directory (go doc pool.Synth) for trying the tools and
measuring them, of any size the disk holds: the features are written a
context at a time; sizes whose generation would not fit in memory (the
utility of every row, one context's features) are refused up front:

  DIR/features.npy   (C, K, d) float32 or float64, written a context at a time
  DIR/contexts.txt   c1 … cC
  DIR/arms.txt       r1 … rK
  DIR/utility.npy    (C, K): the hidden linear utility
  DIR/answers.csv    N recorded Bradley-Terry answers of random duels (-answers)
  DIR/pool.csv       the same pool as a CSV file (-csv)

-layout dense draws embedding-like features (d = -dim); -layout blocks makes
every row zero except its arm's block of -block values and a constant 1
(d = K·(block+1)), as a classification data set posed as duels (Letter:
-arms 26 -block 16, d = 442).`

func cmdDataSynth(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("nadb data synth", flag.ContinueOnError)
	fs.SetOutput(stderr)
	s := pool.Synth{}
	out := fs.String("out", "", "folder to write the pool directory into (created if missing)")
	fs.IntVar(&s.Contexts, "contexts", 1000, "contexts (prompts)")
	fs.IntVar(&s.Arms, "arms", 8, "arms per context (responses)")
	fs.StringVar(&s.Layout, "layout", "dense", "dense (embeddings) or blocks (one non-zero block per row)")
	fs.IntVar(&s.Dim, "dim", 64, "feature dimension d (layout dense)")
	fs.IntVar(&s.Block, "block", 16, "values per arm block (layout blocks; d = arms·(block+1))")
	fs.BoolVar(&s.Float32, "float32", false, "store the features as float32 (else float64)")
	fs.IntVar(&s.Answers, "answers", 0, "recorded answers to write into answers.csv")
	fs.Float64Var(&s.Scale, "scale", 3, "norm of the hidden utility's θ")
	fs.Uint64Var(&s.Seed, "seed", 1, "seed")
	csv := fs.Bool("csv", false, "also write the pool as pool.csv (float64 features as the directory holds them)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, synthHelp)
		fmt.Fprintln(stderr, "\nflags:")
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usageError{fmt.Errorf("-out: name the folder to write the pool directory into")}
	}
	if err := s.Check(); err != nil {
		return usageError{err}
	}
	lim, err := memlimit.Current()
	if err != nil {
		return err
	}
	if err := s.CheckMemory(lim); err != nil {
		return usageError{err}
	}
	if err := s.WriteDir(*out, filepath.Join(*out, "answers.csv")); err != nil {
		return fmt.Errorf("-out: %w", err)
	}
	size := float64(s.Contexts) * float64(s.Arms) * float64(s.D()) * map[bool]float64{true: 4, false: 8}[s.Float32]
	fmt.Fprintf(stdout, "wrote %s: %d contexts × %d arms × %d features (%.3g GB of features.npy)\n", *out, s.Contexts, s.Arms, s.D(), size/1e9)
	if s.Answers > 0 {
		fmt.Fprintf(stdout, "wrote %s: %d answers\n", filepath.Join(*out, "answers.csv"), s.Answers)
	}
	if !*csv {
		return nil
	}
	pf, err := poolfile.OpenDir(*out)
	if err != nil {
		return err
	}
	defer pf.Close()
	path := filepath.Join(*out, "pool.csv")
	if err := fsutil.WriteWith(path, func(w io.Writer) error { return poolfile.WritePool(w, pf) }); err != nil {
		return fmt.Errorf("-csv: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s\n", path)
	return nil
}
