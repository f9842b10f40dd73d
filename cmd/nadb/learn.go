package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

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
	algo     string
	seed     uint64
	cfg      algorithms.Config
	consider int // candidate contexts per query (algorithms.Subsample); 0: all
}

// register adds -algo (with default algo), -seed and the configuration flags.
func (s *learnerSpec) register(fs *flag.FlagSet, algo string) {
	s.cfg = algorithms.Default()
	fs.StringVar(&s.algo, "algo", algo, "algorithm (see nadb list)")
	fs.Uint64Var(&s.seed, "seed", 1, "seed of the learner")
	fs.IntVar(&s.consider, "consider", 0, "offer the learner this many contexts per query, drawn at random from those allowed, which it scores exactly (go doc algorithms.Subsample; 0: every context). On a pool of many contexts, a rule that scores every context per query costs a pass over the pool per suggestion")
	configFlags(fs, &s.cfg)
}

// env returns the learner's environment on the pool of in.
func (s *learnerSpec) env(in *poolInput) algorithms.Env {
	return algorithms.Env{Pool: in.file.Pool, Config: s.cfg, Seed: s.seed}
}

// proposer builds the learner on the pool of in and feeds it the strict
// recorded answers in file order, as a replay (algorithms.Replayer: the
// retraining is coalesced rather than done on the online schedule); it
// returns the number of ties skipped.
func (s *learnerSpec) proposer(ctx context.Context, in *poolInput) (*label.LearnerProposer, int, error) {
	if s.algo == "" {
		return nil, 0, usageError{fmt.Errorf("-algo: name an algorithm (see nadb list)")}
	}
	// Refuse up front what would not fit once every answer is replayed
	// (algorithms.New checks the learner as built, before any answer).
	if in.answers != nil {
		lim, err := memlimit.Current()
		if err != nil {
			return nil, 0, err
		}
		parts := algorithms.EstimateMemory(s.algo, algorithms.ShapeOf(in.file.Pool), s.cfg, len(in.answers.List))
		var me *algorithms.MemoryError
		if errors.As(algorithms.CheckMemory(parts, lim), &me) {
			return nil, 0, usageError{fmt.Errorf("-algo %s: with the %d answers of %s the learner %s (a learner whose state grows more slowly, or fewer answers)", s.algo, len(in.answers.List), in.answersPath, me.Msg())}
		}
	}
	l, err := algorithms.New(s.algo, s.env(in))
	if err != nil {
		return nil, 0, usageError{fmt.Errorf("-algo %s: %w", s.algo, err)}
	}
	if s.consider < 0 {
		return nil, 0, usageError{fmt.Errorf("-consider: need 0 (every context) or a positive number, got %d", s.consider)}
	}
	if s.consider > 0 {
		l = algorithms.NewSubsample(l, in.file.Pool, s.consider, s.seed)
	}
	lp := label.NewLearnerProposer(l, in.file.Pool)
	if in.answers == nil {
		return lp, 0, nil
	}
	ties := 0
	algorithms.BeginReplay(l)
	defer algorithms.EndReplay(l)
	for _, a := range in.answers.List {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		q := algorithms.Query{Context: a.Context, Arm1: a.Arm1, Arm2: a.Arm2}
		switch a.Y {
		case 1:
			lp.Observe(q, algorithms.Arm1Won)
		case 0:
			lp.Observe(q, algorithms.Arm2Won)
		default:
			ties++
		}
	}
	return lp, ties, nil
}

// reportReplay says on stderr how many answers were replayed and skipped.
func reportReplay(stderr io.Writer, cmd string, in *poolInput, ties int) {
	if in.answers == nil {
		return
	}
	fmt.Fprintf(stderr, "nadb %s: replayed %d answers of %s", cmd, len(in.answers.List)-ties, in.answersPath)
	if ties > 0 {
		fmt.Fprintf(stderr, "; skipped %d ties (a tie is no answer a Bradley-Terry learner can use)", ties)
	}
	fmt.Fprintln(stderr)
}

// formatNum writes a float in the shortest form that reads back the same,
// NaN as "NaN".
func formatNum(x float64) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}
