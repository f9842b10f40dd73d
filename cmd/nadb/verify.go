package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/neural-adb/nadb/experiments/sweep"
	"github.com/neural-adb/nadb/internal/fsutil"
	"github.com/neural-adb/nadb/verify"
)

func cmdVerify(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("nadb verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	scale := fs.String("scale", "reduced", "reduced (a check of the pipeline on a smaller problem, not evidence) or paper (the paper's setting; reuses the figure cache)")
	only := fs.String("only", "", "comma-separated claim ids (default: all)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "runs executed in parallel")
	cacheDir := fs.String("cache", ".cache/runs", "directory of cached run results (shared with nadb figures)")
	brief := fs.Bool("brief", false, "print a short table for a terminal instead of the Markdown one: each claim's id, verdict and statement (make claims)")
	out := fs.String("out", "", "also write the claims table as Markdown to this file, and, when it ends in .md, as CSV beside it (FILE.csv, for programs such as nadb paper) with every per-seed value the tests read (FILE-seeds.csv); make verify writes the paper-scale table to figures/claims.md, figures/claims.csv and figures/claims-seeds.csv; a reduced-scale run refuses to overwrite a paper-scale table")
	targetCosts := fs.String("target-costs", "", "instead of the claims: decide claim 10d (neural-adb-target's cost, verify/prereg/target.json) from the processor times the -cache recorded for the target-* figures' runs and the reports of GNU time -v in this directory (DIR/*.time), and print figures/target/target-costs.md (also written to -out); make target-costs measures and writes it")
	merge := fs.Bool("merge", false, "with -only and -out FILE.md: replace the rows of the claims evaluated in the existing FILE.md, FILE.csv and FILE-seeds.csv (of the same scale and first seed) and keep every other claim's rows, e.g. make verify-merge ONLY=9f,9g adds claims whose runs finished to figures/claims.md without recomputing the others")
	firstSeed := fs.Uint64("first-seed", 1, "first seed of every claim (its number of seeds unchanged): a confirmation on seeds no figure runs, such as -first-seed 31 for claims decided on seeds 1-30; the recorded verdicts (of seeds from 1) are then shown, not enforced")
	from := fs.String("from", "", "instead of testing the claims, print the claims table recorded in this claims CSV (written beside -out FILE.md) and run nothing: -from figures/claims.csv shows the committed paper-scale verdicts at once (make claims); only -brief and -only apply")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: nadb verify [flags]
       nadb verify -from FILE.csv [-brief] [-only ids]

Tests the paper's claims statistically and prints the claims table as Markdown on
stdout (-brief: a short table for a terminal). Exit status 1 when a computed
verdict differs from the recorded one (a regression guard) or a claim is
undecided. With -from, prints the table an earlier nadb verify -out recorded and
tests nothing: nadb verify -from figures/claims.csv -brief (make claims) shows
the committed paper-scale verdicts at once.

flags:`)
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	ids, err := claimIDs(*only)
	if err != nil {
		return err
	}
	if *from != "" {
		var conflict error
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "from", "brief", "only":
			default:
				if conflict == nil {
					conflict = usageError{fmt.Errorf("-from prints a recorded table and runs nothing: -%s does not apply (only -brief and -only do)", f.Name)}
				}
			}
		})
		if conflict != nil {
			return conflict
		}
		return printRecorded(stdout, stderr, *from, ids, *brief)
	}
	var sc verify.Scale
	switch *scale {
	case "reduced":
		sc = verify.Reduced
	case "paper":
		sc = verify.Paper
	default:
		return usageError{fmt.Errorf("scale: %q is not reduced or paper", *scale)}
	}
	if *workers < 1 {
		return usageError{fmt.Errorf("workers: need at least 1, got %d", *workers)}
	}
	if *firstSeed < 1 {
		return usageError{fmt.Errorf("first-seed: seeds start at 1, got %d", *firstSeed)}
	}
	sc.FirstSeed = *firstSeed
	if *merge && (*only == "" || claimsCSV(*out) == "") {
		return usageError{fmt.Errorf("merge: needs -only (the claims to replace) and -out FILE.md (the table to merge them into)")}
	}
	if *targetCosts != "" {
		return writeTargetCosts(stdout, sc, *cacheDir, *targetCosts, *out)
	}
	if *out != "" {
		if err := checkOutFile("out", *out); err != nil {
			return err
		}
		if err := guardPaperFile("out", *out, sc.Name, "(paper scale)"); err != nil {
			return err
		}
		if c := claimsCSV(*out); c != "" {
			if err := checkOutFile("out", c); err != nil {
				return err
			}
			if sc.Name != verify.Paper.Name && claimsCSVScale(c) == verify.Paper.Name {
				return refusePaperOverwrite("out", c, sc.Name)
			}
		}
	}
	if err := checkOutDir("cache", *cacheDir); err != nil {
		return err
	}
	prog := newProgress(stderr, sc.Name, *workers)
	rows, err := verify.Evaluate(ctx, sc, verify.Options{Cache: &sweep.Cache{Dir: *cacheDir}, Workers: *workers, OnEvent: prog.event, Only: ids})
	prog.finish()
	if err != nil {
		return prog.interrupted(ctx, err, *cacheDir)
	}
	var buf bytes.Buffer
	if err := verify.WriteMarkdown(&buf, rows); err != nil {
		return err
	}
	if *brief {
		if err := verify.WriteBrief(stdout, rows, 100); err != nil {
			return err
		}
	} else {
		stdout.Write(buf.Bytes())
	}
	if *out != "" {
		if err := writeClaims(*out, buf.Bytes(), rows, *merge); err != nil {
			return err
		}
	}
	if *firstSeed > 1 {
		return nil // a confirmation: the recorded verdicts are of other seeds
	}
	var differ []string
	for _, r := range rows {
		if !r.Agrees() {
			differ = append(differ, r.ID)
		}
	}
	if len(differ) > 0 {
		return fmt.Errorf("computed verdicts differ from the recorded ones (or are undecided) for claims %s", strings.Join(differ, ", "))
	}
	return nil
}

// claimIDs splits the -only list of claim ids (nil for none), each of
// which must be a claim of the table.
func claimIDs(only string) ([]string, error) {
	if only == "" {
		return nil, nil
	}
	ids := strings.Split(only, ",")
	known := map[string]bool{}
	var all []string
	for _, c := range verify.Table() {
		known[c.ID] = true
		all = append(all, c.ID)
	}
	for _, id := range ids {
		if !known[id] {
			return nil, usageError{fmt.Errorf("-only: unknown claim %q (known: %s)", id, strings.Join(all, ", "))}
		}
	}
	return ids, nil
}

// printRecorded prints the claims table recorded in the claims CSV path
// (verify.ReadCSV), the rows of ids only when given, as Markdown or, with
// brief, for a terminal: nothing is run and nothing is compared.
func printRecorded(stdout, stderr io.Writer, path string, ids []string, brief bool) error {
	f, err := os.Open(path)
	if err != nil {
		return usageError{fmt.Errorf("-from: %w (make verify writes the paper-scale figures/claims.csv; nadb verify -out FILE.md writes FILE.csv beside it)", err)}
	}
	defer f.Close()
	rows, err := verify.ReadCSV(f)
	if err != nil {
		return usageError{fmt.Errorf("-from %s: %w: not a claims CSV that this nadb verify reads; write it again with nadb verify -out (make verify for figures/claims.csv)", path, err)}
	}
	if len(rows) == 0 {
		return usageError{fmt.Errorf("-from %s: no claims, only a header", path)}
	}
	if ids != nil {
		for _, id := range ids {
			if !slices.ContainsFunc(rows, func(r verify.Row) bool { return r.ID == id }) {
				return usageError{fmt.Errorf("-only: claim %s is not in %s", id, path)}
			}
		}
		rows = slices.DeleteFunc(rows, func(r verify.Row) bool { return !slices.Contains(ids, r.ID) })
	}
	fmt.Fprintf(stderr, "nadb verify: the verdicts recorded in %s (%s scale); nothing was run\n", path, rows[0].Scale)
	if brief {
		return verify.WriteBrief(stdout, rows, 100)
	}
	return verify.WriteMarkdown(stdout, rows)
}

// writeClaims writes the claims table md of rows to out and, when out ends
// in .md, its CSV and per-seed CSV beside it. With merge, the rows replace
// those of the same claims in the existing files (verify.MergeMarkdown,
// verify.MergeCSV), all three merged before any is written.
func writeClaims(out string, md []byte, rows []verify.Row, merge bool) error {
	var csvb, seedsb bytes.Buffer
	if err := verify.WriteCSV(&csvb, rows); err != nil {
		return err
	}
	if err := verify.WriteSeedsCSV(&seedsb, rows); err != nil {
		return err
	}
	type file struct {
		path  string
		b     []byte
		merge func(old, fresh []byte) ([]byte, error)
		new   bool // may not exist yet: a table older than the per-seed files
	}
	files := []file{{out, md, verify.MergeMarkdown, false}}
	if c := claimsCSV(out); c != "" {
		files = append(files, file{c, csvb.Bytes(), verify.MergeCSV, false},
			file{strings.TrimSuffix(c, ".csv") + "-seeds.csv", seedsb.Bytes(), verify.MergeCSV, true})
	}
	if merge {
		for i, f := range files {
			old, err := os.ReadFile(f.path)
			if f.new && errors.Is(err, fs.ErrNotExist) {
				continue // started with the claims just evaluated
			}
			if err != nil {
				return fmt.Errorf("merge: %w (run without -merge to write the table whole)", err)
			}
			if files[i].b, err = f.merge(old, f.b); err != nil {
				return fmt.Errorf("merge into %s: %w", f.path, err)
			}
		}
	}
	for _, f := range files {
		if err := fsutil.WriteFile(f.path, f.b); err != nil {
			return err
		}
	}
	return nil
}

// writeTargetCosts decides claim 10d and prints its results file (also
// written to out, if set).
func writeTargetCosts(stdout io.Writer, sc verify.Scale, cacheDir, dir, out string) error {
	if out != "" {
		if err := checkOutFile("out", out); err != nil {
			return err
		}
	}
	sc.Seeds = sweep.PlusSeeds(sc)
	ratios, err := verify.TargetCostRatios(&sweep.Cache{Dir: cacheDir}, sc)
	if err != nil {
		return err
	}
	pools, err := verify.ReadTimeReports(dir)
	if err != nil {
		return err
	}
	tc := verify.TargetCosts{Ratios: ratios, Pools: pools}
	var buf bytes.Buffer
	if err := tc.WriteMarkdown(&buf, sc); err != nil {
		return err
	}
	stdout.Write(buf.Bytes())
	if out != "" {
		return fsutil.WriteFile(out, buf.Bytes())
	}
	return nil
}

// claimsCSV is the CSV written beside the Markdown claims table out
// (claims.md → claims.csv), or "" when out does not end in .md.
func claimsCSV(out string) string {
	if stem, ok := strings.CutSuffix(out, ".md"); ok {
		return stem + ".csv"
	}
	return ""
}

// claimsCSVScale is the scale of the claims CSV at path (its first row's
// scale column), or "" if it has none.
func claimsCSVScale(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	if err != nil {
		return ""
	}
	rec, err := r.Read()
	if err != nil {
		return ""
	}
	if i := slices.Index(header, "scale"); i >= 0 && i < len(rec) {
		return rec[i]
	}
	return ""
}
