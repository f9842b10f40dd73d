package pool

import (
	"bytes"
	"errors"
	"io"

	"github.com/neural-adb/nadb/experiments"
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
		return errors.New("pool: no pool file: problem pool needs a pool CSV with header context,arm,<features…>[,utility]")
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
	if p.PoolSHA, err = experiments.HashFile("pool", p.Pool, p.PoolSHA); err != nil {
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
	var pf *poolfile.PoolFile
	if _, err := experiments.ParseHashed("pool", p.Pool, p.PoolSHA, func(r io.Reader) (err error) {
		pf, err = poolfile.ReadPool(r, p.Pool)
		return err
	}); err != nil {
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
