package main

import (
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/fsutil"
	"github.com/neural-adb/nadb/label"
)

// exportHelp documents the command and its CSV columns.
const exportHelp = `usage: nadb export -pool F -answers F [-algo A] [-out F] [-model M] [-seed S] [config flags]
       nadb export -pool F -load M [-answers F] [-out F]
       nadb export -pool F -session DIR [-answers F] [-out F]

Writes the learned policy as CSV, one row per (context, arm) of the pool:

  context,arm,policy,score,sigma,queries

  context, arm  the identifiers of the pool file
  policy        1 for the policy's arm of the context, argmax of score; 0 otherwise
  score         the model's utility h(context, arm) (Borda estimate for ae-borda*)
  sigma         the learner's uncertainty of h(arm) - h(policy's arm): 0 for the
                policy's arm, NaN when the learner has none (and with -load)
  queries       the strict answers (ties left out) of the context the learner has
                seen; empty with -load and no -answers

The first form replays the answers into the learner (ties and consistency
checks are skipped; the default learner is the one nadb serve uses) and,
with -model, saves its model as JSON (the nadb-model format, go doc
algorithms.Model). The second reads such a model back; it is refused for a
pool file other than the one it was trained on, another format version, an
algorithm name that is not registered, or parameters that are null, not
finite or absurd.

The third writes the answers of a labelling session (the log folder of nadb
serve -log) instead of a policy, as an answers file with the columns
context,arm1,arm2,y,labeller,both_bad,recheck (a ranking as the duels it
implies): with -answers, that file's answers first, so that the output holds
every answer the session's learner was given. A folder without a log, or a
log of another pool, is refused.

-out and -model take - for stdout.
`

func cmdExport(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("nadb export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	poolPath := fs.String("pool", "", "pool: a CSV file context,arm,<features...>[,utility] (go doc poolfile.ReadPool) or a directory with features.npy (contexts, arms, d), contexts.txt, arms.txt[, utility.npy] (go doc poolfile.OpenDir)")
	answersPath := fs.String("answers", "", "recorded answers: CSV context,arm1,arm2,y (y = 1 arm1 won, 0 arm2 won, 0.5 tie)")
	out := fs.String("out", "-", "write the CSV to this file (- for stdout)")
	modelPath := fs.String("model", "", "also save the learner's model to this JSON file (- for stdout, with -out naming a file)")
	loadPath := fs.String("load", "", "export from this saved model instead of a learner (no -algo)")
	session := fs.String("session", "", "write the answers of the labelling session logged in this folder (nadb serve -log) instead of a policy")
	var ls learnerSpec
	ls.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, exportHelp+"\n"+readsHelp()+"\n\nflags:")
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if *out == "" {
		*out = "-"
	}
	if *out == "-" && *modelPath == "-" {
		return usageError{errors.New("-model -: the policy goes to stdout too; name a file with -out or -model")}
	}
	for name, path := range map[string]string{"out": *out, "model": *modelPath} {
		if path != "" {
			if err := guardRunOut(name, path); err != nil {
				return err
			}
		}
	}
	if *session == "" && *loadPath == "" {
		if err := checkReads(fs, ls.algo, ls.cfg); err != nil {
			return err
		}
	}
	ins := []flagPath{{flag: "pool", path: *poolPath}, {flag: "answers", path: *answersPath}, {flag: "load", path: *loadPath}}
	if *session != "" {
		ins = append(ins, flagPath{flag: "session", path: filepath.Join(*session, label.LogName), shown: "the log of -session " + *session})
	}
	if err := checkClobber(*poolPath, ins, []flagPath{{flag: "out", path: *out}, {flag: "model", path: *modelPath}}); err != nil {
		return err
	}
	in, err := readPoolInput(*poolPath, *answersPath)
	if err != nil {
		return err
	}
	only := func(form string, allowed ...string) error {
		var conflict string
		fs.Visit(func(f *flag.Flag) {
			if !slices.Contains(allowed, f.Name) && conflict == "" {
				conflict = f.Name
			}
		})
		if conflict != "" {
			return usageError{fmt.Errorf("-%s: not used with %s", conflict, form)}
		}
		return nil
	}
	if *session != "" {
		if err := only("-session (it writes the session's answers, not a policy)", "pool", "answers", "out", "session"); err != nil {
			return err
		}
		var logErr error // the log's fault, not the output's
		write := func(w io.Writer) error {
			ew := &errWriter{w: w}
			rep, err := label.ExportLog(*session, label.PoolCatalogue{File: in.file}, priorRecords(in), ew)
			if rep != nil {
				fmt.Fprintln(stderr, "nadb export:", rep)
			}
			if err != nil && ew.err == nil {
				logErr = err
			}
			return err
		}
		if err := fsutil.WriteOut(*out, stdout, write); err != nil {
			if logErr != nil {
				return usageError{fmt.Errorf("-session: %w", err)}
			}
			return fmt.Errorf("-out: %w", err)
		}
		return nil
	}
	var sum label.Summary
	if *loadPath != "" {
		if err := only("-load (the model file fixes the algorithm and its settings)", "pool", "answers", "out", "load"); err != nil {
			return err
		}
		if sum, err = loadedSummary(in, *loadPath); err != nil {
			return err
		}
	} else {
		if *answersPath == "" {
			return usageError{errors.New("-answers: name the answers file the learner learns from (or -load a saved model)")}
		}
		lp, skipped, err := ls.proposer(ctx, in)
		if err != nil {
			return err
		}
		reportReplay(stderr, "export", in, skipped)
		sum = lp.Summary()
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("export: nothing written: %w", err)
		}
		if *modelPath != "" {
			sha, err := in.poolSHA()
			if err != nil {
				return err
			}
			m, err := algorithms.Snapshot(lp.Learner(), ls.algo, ls.env(in), sha)
			if err != nil {
				return usageError{fmt.Errorf("-model: %w", err)}
			}
			if err := fsutil.WriteOut(*modelPath, stdout, m.Write); err != nil {
				return fmt.Errorf("-model: %w", err) // a write error: exit status 1, as suggest's
			}
		}
	}
	write := func(w io.Writer) error { return writeExport(w, in, sum) }
	if err := fsutil.WriteOut(*out, stdout, write); err != nil {
		return fmt.Errorf("-out: %w", err)
	}
	return nil
}

// errWriter remembers the first error of the writes to w.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	n, err := e.w.Write(p)
	if err != nil && e.err == nil {
		e.err = err
	}
	return n, err
}

// loadedSummary reads the model of -load, checked against the pool file, and
// returns its policy and scores, with the strict answers per context when
// an answers file is given.
func loadedSummary(in *poolInput, path string) (label.Summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return label.Summary{}, usageError{fmt.Errorf("-load: %w", err)}
	}
	defer f.Close()
	sha, err := in.poolSHA()
	if err != nil {
		return label.Summary{}, err
	}
	m, err := algorithms.ReadModel(f, path, sha)
	if err != nil {
		return label.Summary{}, usageError{fmt.Errorf("-load: %w", err)}
	}
	p := in.file.Pool
	if m.InputDim != p.Dim {
		return label.Summary{}, usageError{fmt.Errorf("-load: %s has input_dim %d, but %s has %d features", path, m.InputDim, in.poolPath, p.Dim)}
	}
	policy := m.Policy(nil, p)
	scores := algorithms.ScoreRows(nil, m.Scorer(), p, 0, p.Rows(), nil)
	for n, v := range scores {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return label.Summary{}, usageError{fmt.Errorf("-load: %s scores context %q, arm %q as %v: its parameters do not fit the features of %s", path, in.file.Contexts[n/p.Arms], in.file.Arms[n], v, in.poolPath)}
		}
	}
	queries := make([]int, p.Contexts)
	for c := range queries {
		queries[c] = -1
	}
	if in.answers != nil {
		clear(queries)
		for _, a := range in.answers.Strict() {
			queries[a.Context]++
		}
	}
	sum := label.Summary{Contexts: make([]label.ContextSummary, p.Contexts)}
	for c := range sum.Contexts {
		sigmas := make([]float64, p.Arms)
		for a := range sigmas {
			sigmas[a] = math.NaN()
		}
		sum.Contexts[c] = label.ContextSummary{Arm: policy[c], Scores: scores[c*p.Arms : (c+1)*p.Arms], Sigmas: sigmas, Queries: queries[c]}
	}
	return sum, nil
}

// writeExport writes the CSV of exportHelp. A negative query count is
// written empty.
func writeExport(w io.Writer, in *poolInput, sum label.Summary) error {
	pf := in.file
	K := pf.Pool.Arms
	cw := csv.NewWriter(w)
	cw.Write([]string{"context", "arm", "policy", "score", "sigma", "queries"})
	for c, cs := range sum.Contexts {
		queries := ""
		if cs.Queries >= 0 {
			queries = strconv.Itoa(cs.Queries)
		}
		for a := range K {
			policy, score := "0", math.NaN()
			if a == cs.Arm {
				policy = "1"
			}
			if cs.Scores != nil {
				score = cs.Scores[a]
			}
			sigma := math.NaN()
			if cs.Sigmas != nil {
				sigma = cs.Sigmas[a]
			}
			cw.Write([]string{pf.Contexts[c], pf.Arms[c*K+a], policy, formatNum(score), formatNum(sigma), queries})
		}
	}
	cw.Flush()
	return cw.Error()
}
