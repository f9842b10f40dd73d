package pool

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/csvtab"
	"github.com/neural-adb/nadb/internal/poolfile"
)

// The problem "pool": a pool file of one's own and, optionally, recorded
// answers (ProblemSpec.Pool, Answers, Missing) and held-out contexts
// (Holdout). Registered with package experiments when this package is linked
// in.
func init() {
	experiments.RegisterProblem("pool", experiments.ProblemKind{
		Uses:      []string{"pool", "pool_sha256", "answers", "answers_sha256", "missing", "holdout", "standardise"},
		Check:     check,
		Canonical: canonical,
		Resolve:   resolve,
		Build:     build,
	})
}

func check(p experiments.ProblemSpec) error {
	if p.Pool == "" {
		return errors.New("pool: no pool file: problem pool needs a pool CSV with header context,arm,<features…>[,utility], or a pool directory (features.npy, contexts.txt, arms.txt)")
	}
	if err := p.Missing.Validate(); err != nil {
		return &experiments.FieldError{Pkg: "pool", Field: "missing", Msg: err.Error()}
	}
	if p.Missing != "" && p.Answers == "" {
		return &experiments.FieldError{Pkg: "pool", Field: "missing", Msg: "the missing-answer rule only applies with an answers file"}
	}
	return experiments.CheckHoldout(p.Holdout)
}

func canonical(p experiments.ProblemSpec) experiments.ProblemSpec {
	if p.Missing == experiments.MissingMask {
		p.Missing = ""
	}
	return p
}

func resolve(p experiments.ProblemSpec) (experiments.ProblemSpec, error) {
	var err error
	if poolfile.IsDir(p.Pool) {
		sha, err := poolfile.HashDir(p.Pool)
		if err != nil {
			return p, fmt.Errorf("pool: %w", err)
		}
		if p.PoolSHA != "" && p.PoolSHA != sha {
			return p, fmt.Errorf("pool: %s has changed since the run was specified (sha256 %s, spec records %s)", p.Pool, sha, p.PoolSHA)
		}
		p.PoolSHA = sha
	} else if p.PoolSHA, err = experiments.HashFile("pool", p.Pool, p.PoolSHA); err != nil {
		return p, err
	}
	if p.Answers != "" {
		if _, p.AnswersSHA, err = experiments.ReadHashed("answers", p.Answers, p.AnswersSHA); err != nil {
			return p, err
		}
	}
	return p, nil
}

func build(p experiments.ProblemSpec, seed uint64) (*experiments.Problem, error) {
	// A pool directory's features stay mapped for the problem's life.
	pf, _, err := poolfile.Open(p.Pool, p.PoolSHA)
	var ce *csvtab.Error
	if err != nil && !errors.As(err, &ce) {
		return nil, fmt.Errorf("pool: %w", err)
	}
	if err != nil {
		return nil, err
	}
	if p.Standardise {
		if err := Standardise(pf); err != nil {
			return nil, err
		}
	} else if err := CheckScale(pf); err != nil {
		return nil, err
	}
	var ans *poolfile.Answers
	if p.Answers != "" {
		b, _, err := experiments.ReadHashed("answers", p.Answers, p.AnswersSHA)
		if err != nil {
			return nil, err
		}
		if ans, err = pf.ReadAnswers(bytes.NewReader(b), p.Answers); err != nil {
			return nil, err
		}
	}
	return NewPoolProblem(pf, ans, p, seed)
}
