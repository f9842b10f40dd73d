package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/neural-adb/nadb/experiments/realdata"
	"github.com/neural-adb/nadb/internal/fsutil"
)

// cmdData writes a shipped data set as the files of a pool of one's own.
func cmdData(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	usage := func() {
		fmt.Fprintln(stderr, `usage: nadb data cems -out DIR
       nadb data synth -out DIR [flags]   (nadb data synth -h)

Writes the shipped CEMSChoice data (303 students, 6 schools; go doc
realdata.CEMSFiles) as the files of a pool of your own:

  DIR/pool.csv     context,arm,<58 features>: one row per (student, school)
  DIR/answers.csv  context,arm1,arm2,y: every recorded answer (ties as 0.5)
  DIR/display.csv  context,arm,label: the question and the school names

for nadb suggest, export and serve.`)
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		usage()
		if len(args) == 0 {
			return usageError{errors.New("data: name a data set (cems, synth)")}
		}
		return flag.ErrHelp
	}
	if args[0] == "synth" {
		return cmdDataSynth(stdout, stderr, args[1:])
	}
	if args[0] != "cems" {
		return usageError{fmt.Errorf("data: unknown data set %q (known: cems, synth)", args[0])}
	}
	fs := flag.NewFlagSet("nadb data cems", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "folder to write pool.csv, answers.csv and display.csv into (created if missing)")
	fs.Usage = func() {
		usage()
		fmt.Fprintln(stderr, "\nflags:")
		fs.PrintDefaults()
	}
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	if *out == "" {
		return usageError{errors.New("-out: name the folder to write the files into")}
	}
	f, err := realdata.NewCEMSFiles(nil)
	if err != nil {
		return err
	}
	for _, file := range []struct {
		name  string
		write func(io.Writer) error
	}{{"pool.csv", f.WritePool}, {"answers.csv", f.WriteAnswers}, {"display.csv", f.WriteDisplay}} {
		if err := fsutil.WriteWith(filepath.Join(*out, file.name), file.write); err != nil {
			return usageError{fmt.Errorf("-out: %w", err)}
		}
	}
	p := f.Pool.Pool
	fmt.Fprintf(stdout, "wrote %s: %d contexts × %d arms, %d features\n", filepath.Join(*out, "pool.csv"), p.Contexts, p.Arms, p.Dim)
	fmt.Fprintf(stdout, "wrote %s: %d answers (%d ties)\n", filepath.Join(*out, "answers.csv"), len(f.Answers.List), len(f.Answers.List)-len(f.Answers.Strict()))
	fmt.Fprintf(stdout, "wrote %s: %d labels\n", filepath.Join(*out, "display.csv"), len(f.Display))
	return nil
}
