package main

import (
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/pool"
	"github.com/neural-adb/nadb/internal/enum"
	"github.com/neural-adb/nadb/internal/fsutil"
	"github.com/neural-adb/nadb/internal/gemm"
	"github.com/neural-adb/nadb/internal/memlimit"
)

// configFlags registers one flag per algorithms.Config field on fs.
func configFlags(fs *flag.FlagSet, cfg *algorithms.Config) {
	for _, f := range algorithms.Fields() {
		help := fmt.Sprintf("%s [%s]", f.Help, f.Source)
		if f.Enum != nil {
			help += " (one of " + strings.Join(f.Enum, ", ") + ")"
		}
		if f.Kind == algorithms.KindBool {
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

func cmdRun(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("nadb run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	spec := experiments.Spec{Algorithm: "neural-adb-ucb", Problem: experiments.DefaultProblem(), Config: algorithms.Default(), T: 1000, Every: 50, Seed: 1}
	fs.StringVar(&spec.Algorithm, "algo", spec.Algorithm, "algorithm (see nadb list)")
	fs.StringVar(&spec.Problem.Name, "problem", spec.Problem.Name, "problem: "+strings.Join(experiments.Problems(), ", ")+" (synthetic: "+enum.Join(experiments.Functions)+")")
	fs.IntVar(&spec.Problem.Dim, "d", spec.Problem.Dim, "feature dimension d ≥ 1")
	fs.IntVar(&spec.Problem.Arms, "K", spec.Problem.Arms, "arms per context K ≥ 2")
	fs.IntVar(&spec.Problem.Contexts, "contexts", spec.Problem.Contexts, "contexts in the fixed pool (with -candidates: the evaluation pool, never offered)")
	fs.IntVar(&spec.Problem.Candidates, "candidates", 0, "synthetic problems: 0 keeps the fixed pool; M > 0 draws M fresh candidate contexts every round (the paper's \"sampled at every t\" reading; M = 1 is pure streaming) and scores the policy on the -contexts evaluation pool")
	fs.TextVar(&spec.Problem.Theta, "theta", spec.Problem.Theta, "how θ is drawn: sphere (unit sphere), gaussian (N(0,I)), uniform (U(-1,1)^d)")
	fs.Float64Var(&spec.Problem.Holdout, "holdout", 0, "pool, cems, shuttle: contexts held out of the learner's pool to score its model on (held-out columns test_*, and reference rows after the table): a fraction in (0, 1) or a count ≥ 1, drawn by -seed; 0: none (pool), 101 students (cems), 2000 samples (shuttle); -contexts is then the training students (cems, 0: the rest) or the pool size (shuttle, 0: 300)")
	fs.Float64Var(&spec.Problem.Scale, "scale", 0, "shuttle: utility c of the true class, duels are Bradley-Terry on c·1[arm = label] (0: 2)")
	fs.StringVar(&spec.Problem.Data, "data", "", "cems, shuttle: folder with the layout of experiments/realdata/data (cems/, shuttle/) to read instead of the shipped copy")
	fs.StringVar(&spec.Problem.Pool, "pool", "", "pool: CSV with header context,arm,<features...>[,utility], one row per (context, arm), the same K ≥ 2 arms per context; utility (optional) drives simulated Bradley-Terry answers (format: go doc poolfile.ReadPool); or a pool directory: features.npy float32/float64 of shape (contexts, arms, d), contexts.txt, arms.txt, optional utility.npy (go doc poolfile.OpenDir)")
	fs.StringVar(&spec.Problem.Answers, "answers", "", "pool: CSV of recorded answers context,arm1,arm2,y (y = 1 arm1 won, 0 arm2 won, 0.5 tie), replayed instead of simulating")
	fs.TextVar(&spec.Problem.Missing, "missing", experiments.MissingRule(""), "pool with -answers, cems: a pair without a recorded answer is never offered to the learner (mask, the default), is offered and answered by a fair coin counted in unrecorded_share (coin), or is an error when the problem is built (error)")
	fs.BoolVar(&spec.Problem.Standardise, "standardise", false, "pool: rescale every feature column to mean 0 and standard deviation 1 before the learner sees it (pools whose columns differ in scale by more than 1e8, or exceed 1e8, are refused without it)")
	fs.IntVar(&spec.T, "T", spec.T, "rounds (duels) T > 0")
	fs.IntVar(&spec.Every, "every", spec.Every, "checkpoint period in rounds")
	fs.Uint64Var(&spec.Seed, "seed", spec.Seed, "seed of the problem instance, the feedback and the learner")
	out := fs.String("out", "", "write the checkpoints as CSV to this file (- for stdout, after the table unless -q)")
	quiet := fs.Bool("q", false, "do not print the table (nor the reference rows, which are then not computed)")
	refsOut := fs.String("references", "", "pool, cems, shuttle with held-out contexts: write the reference rows (non-learners fitted to the training contexts, scored on the held-out ones) as CSV reference,note,<held-out columns> to this file; they are computed only when printed (without -q) or written")
	configFlags(fs, &spec.Config)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: nadb run [flags]\n\nRuns one experiment and prints its metrics every -every rounds. A run whose\nestimated memory exceeds the limit is refused before it starts, naming the flag\nto change: the limit is the environment variable NADB_MAX_MEMORY (such as 8GB;\n0 turns the check off), else MemAvailable of /proc/meminfo.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if !experiments.IsSynthetic(spec.Problem.Name) {
		// The synthetic defaults do not apply; flags given explicitly are kept
		// (and rejected by Validate where the problem does not use them).
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if !set["d"] {
			spec.Problem.Dim = 0
		}
		if !set["K"] {
			spec.Problem.Arms = 0
		}
		if !set["theta"] {
			spec.Problem.Theta = ""
		}
		if !set["contexts"] {
			spec.Problem.Contexts = 0
		}
	}
	if err := checkReads(fs, spec.Algorithm, spec.Config); err != nil {
		return err
	}
	if err := spec.Validate(); err != nil {
		return usageError{flagError(err)}
	}
	if *out != "" {
		if err := guardRunOut("out", *out); err != nil {
			return err
		}
	}
	if *refsOut != "" {
		if err := guardRunOut("references", *refsOut); err != nil {
			return err
		}
	}
	if err := checkClobber(spec.Problem.Pool, []flagPath{{flag: "pool", path: spec.Problem.Pool}, {flag: "answers", path: spec.Problem.Answers}}, []flagPath{{flag: "out", path: *out}, {flag: "references", path: *refsOut}}); err != nil {
		return err
	}
	var err error
	if spec.Problem, err = spec.Problem.Resolve(); err != nil {
		return usageError{flagError(err)}
	}
	// Sizes the machine cannot hold are refused before anything is
	// allocated: a synthetic problem's from the flags, the others' once
	// their files are read.
	if err := checkMemory(spec, nil); err != nil {
		return err
	}
	prob, err := spec.Problem.Build(spec.Seed)
	if err != nil {
		return usageError{flagError(err)}
	}
	if err := checkMemory(spec, prob.Pool); err != nil {
		return err
	}
	if *refsOut != "" && !pool.HasHeldOut(prob) {
		return usageError{fmt.Errorf("-references: problem %s has no held-out contexts to score references on (pool with -holdout, cems and shuttle have them)", spec.Problem.Name)}
	}
	var extraCols []string
	if ev, ok := prob.Evaluator.(experiments.ExtraEvaluator); ok {
		extraCols = ev.ExtraColumns()
	}
	var done []experiments.Checkpoint // kept for a partial CSV if interrupted
	res, err := experiments.RunProblem(ctx, spec, prob, func(cp experiments.Checkpoint) {
		done = append(done, cp)
		if !*quiet && cp.T == 0 { // the learner is built: no setup error can follow
			fmt.Fprintln(stdout, runHeader(spec, prob.Pool))
			fmt.Fprintf(stdout, "%6s %10s %10s %11s %10s %12s %13s %8s", "t", "worst gap", "mean gap", "queried gap", "avg regret", "distinct ctx", "top ctx share", "seconds")
			for _, c := range extraCols {
				fmt.Fprintf(stdout, " %*s", max(len(c), 10), c)
			}
			fmt.Fprintln(stdout)
		}
		if !*quiet {
			fmt.Fprintf(stdout, "%6d %10.4g %10.4g %11.4g %10.4g %12d %13.3f %8.2f", cp.T, cp.WorstGap, cp.MeanGap, cp.QueriedGap, cp.AvgRegret, cp.Distinct, cp.TopShare, cp.Elapsed)
			for i, x := range cp.Extra {
				fmt.Fprintf(stdout, " %*.4g", max(len(extraCols[i]), 10), x)
			}
			fmt.Fprintln(stdout)
		}
	})
	var setup *experiments.SetupError
	if errors.As(err, &setup) {
		return usageError{err}
	}
	if err != nil && ctx.Err() != nil && *out != "" && len(done) > 0 {
		// Interrupted: keep the checkpoints computed so far.
		partial := &experiments.Result{Spec: spec, Checkpoints: done, ExtraColumns: extraCols}
		if werr := fsutil.WriteOut(*out, stdout, func(w io.Writer) error { return experiments.WriteCSV(w, partial) }); werr != nil {
			return fmt.Errorf("%w; writing the %d checkpoints done to %s: %v", err, len(done), *out, werr)
		}
		return fmt.Errorf("interrupted at t = %d of T = %d: the %d checkpoints done (t = 0 … %d) are in %s: %w", done[len(done)-1].T, spec.T, len(done), done[len(done)-1].T, *out, err)
	}
	if err != nil {
		return err
	}
	if gemm.CountingFlops() { // make speed: the run's arithmetic floor
		fmt.Fprintf(stderr, "matrix kernels: %d floating-point operations\n", gemm.Flops())
	}
	if err := references(stdout, prob, !*quiet, *refsOut); err != nil {
		return err
	}
	if *out == "" {
		return nil
	}
	return fsutil.WriteOut(*out, stdout, func(w io.Writer) error { return experiments.WriteCSV(w, res) })
}

// runHeader is the first line nadb run prints: the algorithm, the problem
// and its sizes as the learner sees them before the first round (p: in
// the fresh-context reading, the fresh candidates of a round and the
// evaluation pool the policy is scored on), T, the seed and, unless the
// learner chooses its duels, the collection rule (-collect).
func runHeader(spec experiments.Spec, p *algorithms.Pool) string {
	contexts := fmt.Sprintf("%d contexts", p.Contexts)
	if spec.Problem.Candidates > 0 {
		contexts = fmt.Sprintf("%d fresh candidate contexts per round, policy scored on %d evaluation contexts", spec.Problem.Candidates, spec.Problem.Contexts)
	}
	collect := ""
	if r := spec.Config.Collect.Rule(); r != algorithms.CollectOwn {
		collect = ", collect " + string(r)
	}
	return fmt.Sprintf("%s on %s (d=%d, K=%d, %s), T=%d, seed %d%s", spec.Algorithm, spec.Problem.Name, p.Dim, p.Arms, contexts, spec.T, spec.Seed, collect)
}

// references computes the reference rows of a problem with held-out
// contexts only when they are shown (print) or written (a CSV file path),
// since they cost a fit to every training answer.
func references(stdout io.Writer, prob *experiments.Problem, print bool, path string) error {
	if (!print && path == "") || !pool.HasHeldOut(prob) {
		return nil
	}
	cols, refs, _ := pool.HeldOutReferences(prob)
	if path != "" {
		err := fsutil.WriteWith(path, func(w io.Writer) error {
			cw := csv.NewWriter(w)
			cw.Write(append([]string{"reference", "note"}, cols...))
			for _, r := range refs {
				rec := []string{r.Name, r.Note}
				for _, v := range r.Values {
					rec = append(rec, strconv.FormatFloat(v, 'g', -1, 64))
				}
				cw.Write(rec)
			}
			cw.Flush()
			return cw.Error()
		})
		if err != nil {
			return err
		}
	}
	if print {
		names, w := make([]string, len(refs)), 0
		for i, r := range refs {
			names[i] = r.Name
			if r.Note != "" {
				names[i] += ": " + r.Note
			}
			w = max(w, utf8.RuneCountInString(names[i]))
		}
		fmt.Fprintf(stdout, "\nreferences on the held-out contexts (not learners; fitted to the training contexts):\n%-*s", w, "")
		for _, c := range cols {
			fmt.Fprintf(stdout, " %*s", max(len(c), 10), c)
		}
		fmt.Fprintln(stdout)
		for i, r := range refs {
			fmt.Fprintf(stdout, "%-*s", w, names[i])
			for i, x := range r.Values {
				fmt.Fprintf(stdout, " %*.4g", max(len(cols[i]), 10), x)
			}
			fmt.Fprintln(stdout)
		}
	}
	return nil
}

// checkMemory refuses, as a usage error naming the flag to change, a run
// whose estimated memory exceeds memlimit.Current: with pool nil, a synthetic
// problem's run from its flags (other problems pass); else the learner's on
// the built pool (a synthetic problem's was checked already).
func checkMemory(spec experiments.Spec, p *algorithms.Pool) error {
	shape, synthetic := spec.SyntheticShape()
	if p != nil {
		if synthetic {
			return nil
		}
		shape = algorithms.ShapeOf(p)
	} else if !synthetic {
		return nil
	}
	lim, err := memlimit.Current()
	if err != nil {
		return usageError{err}
	}
	if err := experiments.CheckMemory(spec, shape, lim); err != nil {
		return usageError{flagError(err)}
	}
	return nil
}

// flagError says which flag to fix when a library error names a field of
// the problem spec (its JSON name is the flag's name).
func flagError(err error) error {
	var fe *experiments.FieldError
	if errors.As(err, &fe) {
		return fmt.Errorf("-%s: %s", fe.Field, fe.Msg)
	}
	return err
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
