package realdata

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"slices"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/realdata/data"
	"github.com/neural-adb/nadb/internal/csvtab"
)

// The problems "cems" and "shuttle", registered with package experiments
// when this package is linked in. Both read the shipped data unless
// ProblemSpec.Data names a folder with the same layout; cems also takes the
// missing-answer rule.
func init() {
	uses := []string{"contexts", "holdout", "data", "data_sha256"}
	experiments.RegisterProblem("cems", experiments.ProblemKind{
		Uses: append(slices.Clone(uses), "missing"), Check: checkSizes, Canonical: canonical, Resolve: resolve,
		Build: func(p experiments.ProblemSpec, seed uint64) (*experiments.Problem, error) {
			dd, _, err := openData(p)
			if err != nil {
				return nil, err
			}
			prob, err := CEMS{Train: p.Contexts, Holdout: p.Holdout, Missing: p.Missing, FS: dd.fsys}.New(seed)
			return prob, dd.locate(err)
		},
	})
	experiments.RegisterProblem("shuttle", experiments.ProblemKind{
		Uses: append(uses, "scale"), Check: checkSizes, Canonical: canonical, Resolve: resolve,
		Build: func(p experiments.ProblemSpec, seed uint64) (*experiments.Problem, error) {
			dd, _, err := openData(p)
			if err != nil {
				return nil, err
			}
			prob, err := Shuttle{Contexts: p.Contexts, Holdout: p.Holdout, Scale: p.Scale, FS: dd.fsys}.New(seed)
			return prob, dd.locate(err)
		},
	})
}

func checkSizes(p experiments.ProblemSpec) error {
	field := func(name, format string, args ...any) error {
		return &experiments.FieldError{Pkg: "realdata", Field: name, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case p.Contexts < 0:
		return field("contexts", "must be ≥ 0 (0: the default), got %d", p.Contexts)
	case p.Scale < 0 || math.IsNaN(p.Scale) || math.IsInf(p.Scale, 0):
		return field("scale", "must be a positive number (0: the default 2), got %v", p.Scale)
	}
	if err := p.Missing.Validate(); err != nil {
		return field("missing", "%v", err)
	}
	return experiments.CheckHoldout(p.Holdout)
}

// canonical writes every field that equals its default as zero, so that a
// spec written with explicit defaults has the same cache key as one without.
func canonical(p experiments.ProblemSpec) experiments.ProblemSpec {
	switch p.Name {
	case "shuttle":
		if p.Contexts == DefaultShuttleContexts {
			p.Contexts = 0
		}
		if p.Holdout == DefaultShuttleHoldout {
			p.Holdout = 0
		}
		if p.Scale == DefaultShuttleScale {
			p.Scale = 0
		}
	case "cems":
		if p.Holdout == DefaultCEMSHoldout {
			p.Holdout = 0
		}
		if p.Missing == experiments.MissingMask {
			p.Missing = ""
		}
	}
	return p
}

// resolve records the content hash of a data folder's files.
func resolve(p experiments.ProblemSpec) (experiments.ProblemSpec, error) {
	if p.Data == "" {
		return p, nil
	}
	_, sum, err := openData(p)
	p.DataSHA = sum
	return p, err
}

// dataFiles returns the files the problem reads from its data folder.
func dataFiles(p experiments.ProblemSpec) []string {
	if p.Name == "cems" {
		return data.CEMS
	}
	return data.Shuttle
}

// dataDir is an opened data folder (fsys nil: the shipped data).
type dataDir struct {
	dir  string
	fsys fs.FS
}

// openData opens the data folder of a cems or shuttle spec and hashes it
// (empty hash for the shipped data), checking a recorded hash.
func openData(p experiments.ProblemSpec) (*dataDir, string, error) {
	fsys, err := data.Open(p.Data, dataFiles(p))
	if err != nil {
		return nil, "", err
	}
	if p.Data == "" {
		return &dataDir{}, "", nil
	}
	sum, err := data.Hash(fsys, dataFiles(p))
	if err != nil {
		return nil, "", err
	}
	if p.DataSHA != "" && p.DataSHA != sum {
		return nil, "", fmt.Errorf("realdata: data: the files of %s have changed since the run was specified (hash %s, spec records %s)", p.Data, sum, p.DataSHA)
	}
	return &dataDir{dir: p.Data, fsys: fsys}, sum, nil
}

// locate prefixes the file of an input error with the data folder.
func (d *dataDir) locate(err error) error {
	var ie *csvtab.Error
	if d.dir != "" && errors.As(err, &ie) {
		ie.File = filepath.Join(d.dir, filepath.FromSlash(ie.File))
	}
	return err
}
