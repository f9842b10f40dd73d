package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/memlimit"
	"github.com/neural-adb/nadb/internal/poolfile"
	"github.com/neural-adb/nadb/label"
)

// What suggest, export and serve share: a pool file of one's own, its
// recorded answers, and a learner replaying them.

// poolInput is a pool file, its sha256 and its recorded answers.
type poolInput struct {
	poolPath, answersPath string
	file                  *poolfile.PoolFile
	sha                   string
	answers               *poolfile.Answers // nil without an answers file
}

// poolSHA returns the sha256 of the pool (a model file records it): of the
// file, or HashDir of a pool directory, computed on first use.
func (in *poolInput) poolSHA() (string, error) {
	if in.sha != "" || !poolfile.IsDir(in.poolPath) {
		return in.sha, nil
	}
	sha, err := poolfile.HashDir(in.poolPath)
	if err != nil {
		return "", fmt.Errorf("-pool: %w", err)
	}
	in.sha = sha
	return sha, nil
}

// readPoolInput reads the files of -pool and -answers (optional).
func readPoolInput(poolPath, answersPath string) (*poolInput, error) {
	if poolPath == "" {
		return nil, usageError{fmt.Errorf("-pool: name the pool file (CSV context,arm,<features...>; nadb data cems writes an example) or pool directory (features.npy, contexts.txt, arms.txt)")}
	}
	pf, sha, err := poolfile.Open(poolPath, "")
	if err != nil {
		return nil, usageError{fmt.Errorf("-pool: %w", err)}
	}
	var se *poolfile.ScaleError
	if err := poolfile.CheckScale(pf); errors.As(err, &se) {
		return nil, usageError{fmt.Errorf("-pool: %s: %v: rescale the columns (for example to mean 0 and standard deviation 1) and write the pool again", poolPath, err)}
	}
	in := &poolInput{poolPath: poolPath, answersPath: answersPath, file: pf, sha: sha}
	if answersPath == "" {
		return in, nil
	}
	f, err := os.Open(answersPath)
	if err != nil {
		return nil, usageError{fmt.Errorf("-answers: %w", err)}
	}
	defer f.Close()
	if in.answers, err = pf.ReadAnswers(f, answersPath); err != nil {
		return nil, usageError{fmt.Errorf("-answers: %w", err)}
	}
	return in, nil
}

// learnerSpec is the learner of suggest, export and serve: -algo, -seed and
// the configuration flags.
type learnerSpec struct {
	algo string
	seed uint64
	cfg  algorithms.Config
}

// register adds -algo (default label.DefaultLearner), -seed and the
// configuration flags (-collect among them: who chooses the duels).
func (s *learnerSpec) register(fs *flag.FlagSet) {
	s.cfg = algorithms.Default()
	fs.StringVar(&s.algo, "algo", label.DefaultLearner, "algorithm (see nadb list); the default aims its duels at what -objective names (predict: the answers of new contexts; policy: each context's best arm in this pool)")
	fs.Uint64Var(&s.seed, "seed", 1, "seed of the learner")
	configFlags(fs, &s.cfg)
}

// checkReads refuses, as a usage error, a config flag set on fs that the
// learner algo does not read with cfg (algorithms.Algorithm.FieldsRead),
// naming the ones it reads: validated and then ignored, such a flag would
// only look as if it had been used. An unknown algo passes (refused later,
// by name).
func checkReads(fs *flag.FlagSet, algo string, cfg algorithms.Config) error {
	a, err := algorithms.Lookup(algo)
	if err != nil {
		return nil
	}
	read := a.FieldsRead(cfg)
	isField := map[string]bool{}
	for _, f := range algorithms.Fields() {
		isField[f.Name] = true
	}
	var unread string
	fs.Visit(func(f *flag.Flag) {
		if unread == "" && isField[f.Name] && !slices.Contains(read, f.Name) {
			unread = f.Name
		}
	})
	if unread == "" {
		return nil
	}
	msg := fmt.Sprintf("-%s: %s does not read it; the config flags it reads: -%s", unread, algo, strings.Join(read, ", -"))
	if a.ReadsNote != "" {
		msg += "; " + a.ReadsNote
	}
	return usageError{errors.New(msg)}
}

// readsHelp is the usage text's paragraph on the config flags a learner
// reads.
func readsHelp() string {
	read := "every config flag"
	if a, err := algorithms.Lookup(label.DefaultLearner); err == nil {
		read = "-" + strings.Join(a.FieldsRead(algorithms.Default()), ", -")
	}
	text := "Each learner reads its own config flags; one it does not read is refused, naming those it reads (the default learner reads " + read + ")."
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(text) {
		if i > 0 && n+1+len(w) > 76 {
			b.WriteByte('\n')
			n = 0
		} else if i > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}

// env returns the learner's environment on the pool of in.
func (s *learnerSpec) env(in *poolInput) algorithms.Env {
	return algorithms.Env{Pool: in.file.Pool, Config: s.cfg, Seed: s.seed}
}

// replayCounts counts the answers of a file a learner did not use.
type replayCounts struct {
	ties     int // y = 0.5 (ties and both bad)
	rechecks int // consistency checks (recheck = 1)
}

// proposer builds the learner on the pool of in, with the collect rule of
// the configuration choosing its queries, and feeds it the strict recorded
// answers in file order, as a replay (algorithms.Replayer: the retraining
// is coalesced rather than done on the online schedule), leaving out ties
// and consistency checks (a duel the same labeller had answered before).
func (s *learnerSpec) proposer(ctx context.Context, in *poolInput) (*label.LearnerProposer, replayCounts, error) {
	var n replayCounts
	if s.algo == "" {
		return nil, n, usageError{fmt.Errorf("-algo: name an algorithm (see nadb list)")}
	}
	// Refuse up front what would not fit once every answer is replayed
	// (algorithms.New checks the learner as built, before any answer).
	if in.answers != nil {
		lim, err := memlimit.Current()
		if err != nil {
			return nil, n, err
		}
		parts := algorithms.EstimateMemory(s.algo, algorithms.ShapeOf(in.file.Pool), s.cfg, len(in.answers.List))
		var me *algorithms.MemoryError
		if errors.As(algorithms.CheckMemory(parts, lim), &me) {
			return nil, n, usageError{fmt.Errorf("-algo %s: with the %d answers of %s the learner %s (another -algo whose state grows more slowly, or fewer answers in -answers)", s.algo, len(in.answers.List), in.answersPath, me.Msg())}
		}
	}
	l, err := algorithms.New(s.algo, s.env(in))
	if err != nil {
		return nil, n, usageError{fmt.Errorf("-algo %s: %w", s.algo, err)}
	}
	lp := label.NewLearnerProposer(l, in.file.Pool)
	lp.SetCollector(algorithms.NewCollector(s.cfg.Collect, s.seed))
	if in.answers == nil {
		return lp, n, nil
	}
	algorithms.BeginReplay(l)
	defer algorithms.EndReplay(l)
	for i, a := range in.answers.List {
		if err := ctx.Err(); err != nil {
			return nil, n, err
		}
		q := algorithms.Query{Context: a.Context, Arm1: a.Arm1, Arm2: a.Arm2}
		switch {
		case in.answers.Info != nil && in.answers.Info[i].Recheck:
			n.rechecks++
		case a.Y == 1:
			lp.Observe(q, algorithms.Arm1Won)
		case a.Y == 0:
			lp.Observe(q, algorithms.Arm2Won)
		default:
			n.ties++
		}
	}
	return lp, n, nil
}

// reportReplay says on stderr how many answers were replayed and skipped.
func reportReplay(stderr io.Writer, cmd string, in *poolInput, n replayCounts) {
	if in.answers == nil {
		return
	}
	fmt.Fprintf(stderr, "nadb %s: replayed %d answers of %s", cmd, len(in.answers.List)-n.ties-n.rechecks, in.answersPath)
	if n.ties > 0 {
		fmt.Fprintf(stderr, "; skipped %d ties (a tie, or both bad, is no answer a Bradley-Terry learner can use)", n.ties)
	}
	if n.rechecks > 0 {
		fmt.Fprintf(stderr, "; skipped %d consistency checks (a duel the same labeller had answered before)", n.rechecks)
	}
	if len(in.answers.List) == n.ties+n.rechecks {
		fmt.Fprint(stderr, "; with no answer to learn from, the learner is as built (untrained)")
	}
	fmt.Fprintln(stderr)
}

// priorRecords returns the answers of in as the label package's records
// (nil without an answers file).
func priorRecords(in *poolInput) []label.Record {
	if in.answers == nil {
		return nil
	}
	pf, K := in.file, in.file.Pool.Arms
	out := make([]label.Record, len(in.answers.List))
	for i, a := range in.answers.List {
		r := label.Record{Context: pf.Contexts[a.Context], Arm1: pf.Arms[a.Context*K+a.Arm1], Arm2: pf.Arms[a.Context*K+a.Arm2], Y: a.Y}
		if in.answers.Info != nil {
			info := in.answers.Info[i]
			r.Labeller, r.BothBad, r.Recheck = info.Labeller, info.BothBad, info.Recheck
		}
		out[i] = r
	}
	return out
}

// formatNum writes a float in the shortest form that reads back the same,
// NaN as "NaN".
func formatNum(x float64) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}
