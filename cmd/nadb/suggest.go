package main

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/fsutil"
)

// cmdSuggest writes the next queries to label: the learner replays the
// recorded answers, then proposes -n distinct duels, each chosen with the
// previous ones pending (label.LearnerProposer, algorithms.Pender).
func cmdSuggest(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("nadb suggest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	poolPath := fs.String("pool", "", "pool: a CSV file context,arm,<features...>[,utility] (go doc poolfile.ReadPool) or a directory with features.npy (contexts, arms, d), contexts.txt, arms.txt[, utility.npy] (go doc poolfile.OpenDir)")
	answersPath := fs.String("answers", "", "recorded answers: CSV context,arm1,arm2,y (y = 1 arm1 won, 0 arm2 won, 0.5 tie; ties are skipped)")
	n := fs.Int("n", 10, "number of distinct queries to suggest")
	out := fs.String("out", "-", "write the CSV to this file (- for stdout)")
	var ls learnerSpec
	ls.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: nadb suggest -pool F [-answers F] [-algo A] [-n N] [-out F] [-seed S] [config flags]

Replays the recorded answers into the learner and writes the next N distinct
queries to ask, in the order the learner chooses them, as CSV:

  context,arm1,arm2,score,sigma

with the identifiers of the pool file; score is the learner's h(arm1) - h(arm2)
and sigma its uncertainty of that difference (NaN when the learner has none).
Each query is chosen with the previous ones pending, so that learners whose
uncertainty depends on the queries asked (Neural-ADB, APO, ...) spread them.
The N queries are distinct, but a duel the answers file already holds may be
proposed again, as the learners' rules do not exclude answered duels (nadb
serve, by contrast, never shows one labeller a duel twice).
The default learner is the one nadb serve uses; -collect passive suggests
uniformly random duels instead (the learner's passive twin).

`+readsHelp()+`

flags:`)
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := checkReads(fs, ls.algo, ls.cfg); err != nil {
		return err
	}
	if *n < 1 {
		return usageError{fmt.Errorf("-n: need at least 1 query, got %d", *n)}
	}
	if *out == "" {
		*out = "-"
	}
	if err := guardRunOut("out", *out); err != nil {
		return err
	}
	if err := checkClobber(*poolPath, []flagPath{{flag: "pool", path: *poolPath}, {flag: "answers", path: *answersPath}}, []flagPath{{flag: "out", path: *out}}); err != nil {
		return err
	}
	in, err := readPoolInput(*poolPath, *answersPath)
	if err != nil {
		return err
	}
	lp, skipped, err := ls.proposer(ctx, in)
	if err != nil {
		return err
	}
	reportReplay(stderr, "suggest", in, skipped)
	pf := in.file
	K := pf.Pool.Arms
	var qs []algorithms.Query
	rows := [][]string{{"context", "arm1", "arm2", "score", "sigma"}}
	for len(qs) < *n {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("suggest: %d of %d queries chosen, nothing written: %w", len(qs), *n, err)
		}
		q, r, ok := lp.Propose(qs)
		if !ok {
			fmt.Fprintf(stderr, "nadb suggest: the pool has only %d distinct duels\n", len(qs))
			break
		}
		qs = append(qs, q)
		c := q.Context
		rows = append(rows, []string{pf.Contexts[c], pf.Arms[c*K+q.Arm1], pf.Arms[c*K+q.Arm2], formatNum(r.Score), formatNum(r.Sigma)})
	}
	write := func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.WriteAll(rows)
		return cw.Error()
	}
	if err := fsutil.WriteOut(*out, stdout, write); err != nil {
		return fmt.Errorf("-out: %w", err)
	}
	return nil
}
