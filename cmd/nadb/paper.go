package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/neural-adb/nadb/paper/report"
)

func cmdPaper(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("nadb paper", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", ".", "the repository root whose committed results (figures/) are read")
	out := fs.String("out", "", "directory the generated LaTeX is written to (default ROOT/paper/generated)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: nadb paper [flags]

Writes the generated parts of the report (paper/generated/*.tex: tables,
figure captions, the claims table and a macro for every number the prose
cites) from the committed results. Results not made yet become visible
placeholders. make paper runs this and builds paper/report.pdf.

flags:`)
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if fi, err := os.Stat(filepath.Join(*root, "figures")); err != nil || !fi.IsDir() {
		return usageError{fmt.Errorf("-root: %s has no figures/ directory; run nadb paper from the repository root or name the root with -root", *root)}
	}
	if *out == "" {
		*out = filepath.Join(*root, "paper", "generated")
	}
	if err := checkOutDir("out", *out); err != nil {
		return err
	}
	files, err := report.Generate(*root)
	if err != nil {
		return err
	}
	paths, err := report.Write(*out, files)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "paper: wrote %d files to %s\n", len(paths), *out)
	return nil
}
