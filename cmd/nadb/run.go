package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
)

// configFlags registers one flag per algorithms.Config field on fs.
func configFlags(fs *flag.FlagSet, cfg *algorithms.Config) {
	for _, f := range algorithms.Fields() {
		help := fmt.Sprintf("%s [%s]", f.Help, f.Source)
		if f.Enum != nil {
			help += " (one of " + strings.Join(f.Enum, ", ") + ")"
		}
		if f.Kind == "bool" {
			fs.Var(boolField{field{cfg, f.Name}}, f.Name, help)
			continue
		}
		fs.Var(field{cfg, f.Name}, f.Name, help)
	}
}

type field struct {
	cfg  *algorithms.Config
	name string
}

func (f field) String() string {
	if f.cfg == nil {
		return ""
	}
	v, _ := f.cfg.Get(f.name)
	return v
}
func (f field) Set(s string) error { return f.cfg.Set(f.name, s) }

type boolField struct{ field }

func (boolField) IsBoolFlag() bool { return true }

// parse runs fs.Parse and turns failures into usage errors.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	return nil
}

func cmdRun(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("nadb run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	spec := experiments.Spec{Algorithm: "neural-adb-ucb", Problem: experiments.DefaultProblem(), Config: algorithms.Default(), T: 1000, Every: 50, Seed: 1}
	fs.StringVar(&spec.Algorithm, "algo", spec.Algorithm, "algorithm (see nadb list)")
	fs.StringVar(&spec.Problem.Name, "problem", spec.Problem.Name, "problem: "+strings.Join(experiments.Functions, ", "))
	fs.IntVar(&spec.Problem.Dim, "d", spec.Problem.Dim, "feature dimension d ≥ 1")
	fs.IntVar(&spec.Problem.Arms, "K", spec.Problem.Arms, "arms per context K ≥ 2")
	fs.IntVar(&spec.Problem.Contexts, "contexts", spec.Problem.Contexts, "contexts in the fixed pool")
	fs.StringVar(&spec.Problem.Theta, "theta", spec.Problem.Theta, "how θ is drawn: sphere (unit sphere), gaussian (N(0,I)), uniform (U(-1,1)^d)")
	fs.IntVar(&spec.T, "T", spec.T, "rounds (duels) T > 0")
	fs.IntVar(&spec.Every, "every", spec.Every, "checkpoint period in rounds")
	fs.Uint64Var(&spec.Seed, "seed", spec.Seed, "seed of the problem instance, the feedback and the learner")
	out := fs.String("out", "", "write the checkpoints as CSV to this file")
	quiet := fs.Bool("q", false, "do not print the table")
	configFlags(fs, &spec.Config)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: nadb run [flags]\n\nRuns one experiment and prints its metrics every -every rounds.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := spec.Validate(); err != nil {
		return usageError{err}
	}
	if !*quiet {
		fmt.Fprintf(stdout, "%s on %s (d=%d, K=%d, %d contexts), T=%d, seed %d\n", spec.Algorithm, spec.Problem.Name, spec.Problem.Dim, spec.Problem.Arms, spec.Problem.Contexts, spec.T, spec.Seed)
		fmt.Fprintf(stdout, "%6s %10s %10s %11s %10s %12s %13s %8s\n", "t", "worst gap", "mean gap", "queried gap", "avg regret", "distinct ctx", "top ctx share", "seconds")
	}
	res, err := experiments.Run(ctx, spec, func(cp experiments.Checkpoint) {
		if !*quiet {
			fmt.Fprintf(stdout, "%6d %10.4g %10.4g %11.4g %10.4g %12d %13.3f %8.2f\n", cp.T, cp.WorstGap, cp.MeanGap, cp.QueriedGap, cp.AvgRegret, cp.Distinct, cp.TopShare, cp.Elapsed)
		}
	})
	if err != nil {
		return err
	}
	if *out == "" {
		return nil
	}
	return writeFile(*out, func(w io.Writer) error { return experiments.WriteCSV(w, res) })
}

// writeFile writes through a temporary file and renames it into place, so a
// failed or interrupted write never leaves a truncated file behind.
func writeFile(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(dirOf(path), ".nadb-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func dirOf(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[:i+1]
	}
	return "."
}

func cmdList(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("nadb list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, name := range algorithms.Names() {
		a, _ := algorithms.Lookup(name)
		fmt.Fprintf(tw, "%s\t%s\n", a.Name, a.Description)
	}
	return tw.Flush()
}

func cmdConfig(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("nadb config", flag.ContinueOnError)
	fs.SetOutput(stderr)
	md := fs.Bool("markdown", false, "print a Markdown table")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *md {
		fmt.Fprintln(stdout, "| flag | default | source | meaning |\n|---|---|---|---|")
		for _, f := range algorithms.Fields() {
			fmt.Fprintf(stdout, "| `-%s` | `%s` | %s | %s |\n", f.Name, f.Default, f.Source, f.Help)
		}
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, f := range algorithms.Fields() {
		fmt.Fprintf(tw, "-%s\t%s\t%s\t%s\n", f.Name, f.Default, f.Source, f.Help)
	}
	return tw.Flush()
}
