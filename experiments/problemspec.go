package experiments

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/neural-adb/nadb/experiments/data"
)

// ProblemSpec names a problem and its size. It is part of a run's Spec and so
// of the cache key of every result: every field that changes the problem must
// be here. Fields a problem does not use must be zero (Validate rejects them),
// and zero fields are left out of the JSON, so a spec has one spelling.
//
// User files enter the key by content: Resolve records the sha256 of the pool
// and answers files and of a -data folder's files, and Build refuses to run
// when a recorded hash no longer matches the file. The shipped data are part
// of the code and carry no hash.
type ProblemSpec struct {
	Name string `json:"problem"` // a Functions entry, or pool, cems, shuttle

	Dim  int `json:"d,omitempty"` // synthetic: feature dimension
	Arms int `json:"K,omitempty"` // synthetic: arms per context
	// Contexts is the pool size: synthetic problems and shuttle (0: 300);
	// for cems, the number of training students (0: all not held out).
	Contexts int    `json:"contexts,omitempty"`
	Theta    string `json:"theta,omitempty"` // synthetic: how θ is drawn (see Synthetic.Theta)

	// Holdout is the held-out evaluation set: students (cems, 0: 101) or
	// samples (shuttle, 0: 2000).
	Holdout int `json:"holdout,omitempty"`
	// Scale is shuttle's utility of the true class (0: 2).
	Scale float64 `json:"scale,omitempty"`

	// Bring your own pool (problem pool; formats in pool.go).
	Pool       string `json:"pool,omitempty"`           // pool file
	PoolSHA    string `json:"pool_sha256,omitempty"`    // its sha256 (Resolve)
	Answers    string `json:"answers,omitempty"`        // recorded answers file, optional
	AnswersSHA string `json:"answers_sha256,omitempty"` // its sha256 (Resolve)
	Missing    string `json:"missing,omitempty"`        // rule for unrecorded pairs: coin ("" too) or error

	// Data is the folder of the real data sets (cems, shuttle); "" means the
	// copy shipped in the binary (experiments/data).
	Data    string `json:"data,omitempty"`
	DataSHA string `json:"data_sha256,omitempty"` // content hash of the files read (Resolve)
}

// Problems lists every problem name.
var Problems = append(slices.Clone(Functions), "pool", "cems", "shuttle")

// IsSynthetic reports whether name is a synthetic problem (Functions).
func IsSynthetic(name string) bool { return slices.Contains(Functions, name) }

// DefaultProblem is the paper's main setting: Square, d = 20, K = 10, 300 contexts.
func DefaultProblem() ProblemSpec {
	return ProblemSpec{Name: "square", Dim: 20, Arms: 10, Contexts: 300, Theta: "sphere"}
}

// Validate reports the first invalid field, named as the nadb flag. It reads
// no files (Build does).
func (p ProblemSpec) Validate() error {
	if !slices.Contains(Problems, p.Name) {
		return fmt.Errorf("problem: unknown problem %q (want one of %v)", p.Name, Problems)
	}
	type field struct {
		flag string
		set  bool
		why  string
	}
	synthetic := []field{
		{"d", p.Dim != 0, "fixed by the data"}, {"K", p.Arms != 0, "fixed by the data"}, {"theta", p.Theta != "", "synthetic problems only"},
	}
	pool := []field{
		{"pool", p.Pool != "" || p.PoolSHA != "", "-problem pool only"}, {"answers", p.Answers != "" || p.AnswersSHA != "", "-problem pool only"},
		{"missing", p.Missing != "", "-problem pool only"},
	}
	sizes := []field{{"holdout", p.Holdout != 0, "cems and shuttle only"}}
	realData := []field{{"data", p.Data != "" || p.DataSHA != "", "cems and shuttle only"}}
	scale := []field{{"scale", p.Scale != 0, "shuttle only"}}
	contexts := []field{{"contexts", p.Contexts != 0, "the pool file fixes the contexts"}}
	var unused []field
	switch p.Name {
	case "pool":
		unused = slices.Concat(synthetic, sizes, realData, scale, contexts)
	case "cems":
		unused = slices.Concat(synthetic, pool, scale)
	case "shuttle":
		unused = slices.Concat(synthetic, pool)
	default:
		unused = slices.Concat(pool, sizes, realData, scale)
	}
	for _, f := range unused {
		if f.set {
			return fmt.Errorf("%s: not used by -problem %s (%s)", f.flag, p.Name, f.why)
		}
	}
	switch p.Name {
	case "pool":
		if p.Pool == "" {
			return errors.New("pool: -problem pool needs -pool FILE (a CSV with header context,arm,<features…>[,utility]; see nadb run -h)")
		}
		if p.Missing != "" && !slices.Contains(MissingRules, p.Missing) {
			return fmt.Errorf("missing: unknown rule %q (want one of %v)", p.Missing, MissingRules)
		}
		if p.Missing != "" && p.Answers == "" {
			return errors.New("missing: only used with -answers FILE")
		}
	case "cems", "shuttle":
		if p.Contexts < 0 {
			return fmt.Errorf("contexts: must be ≥ 0 (0: the default), got %d", p.Contexts)
		}
		if p.Holdout < 0 {
			return fmt.Errorf("holdout: must be ≥ 0 (0: the default), got %d", p.Holdout)
		}
		if p.Scale < 0 || math.IsNaN(p.Scale) || math.IsInf(p.Scale, 0) {
			return fmt.Errorf("scale: must be a positive number (0: the default 2), got %v", p.Scale)
		}
	default:
		return p.synthetic().Validate()
	}
	return nil
}

// Resolve returns p with fields equal to their defaults written as zero and
// the content hashes of its user files filled in (pool, answers, or the files
// a -data folder provides), so that a cache key made from the spec changes
// when a file does and not with how a default was spelled. A hash already
// present must match. Specs built by hand for a sweep should be resolved.
func (p ProblemSpec) Resolve() (ProblemSpec, error) {
	if err := p.Validate(); err != nil {
		return p, err
	}
	p = p.canonical()
	var err error
	switch p.Name {
	case "pool":
		if _, p.PoolSHA, err = readHashed("pool", p.Pool, p.PoolSHA); err != nil {
			return p, err
		}
		if p.Answers != "" {
			if _, p.AnswersSHA, err = readHashed("answers", p.Answers, p.AnswersSHA); err != nil {
				return p, err
			}
		}
	case "cems", "shuttle":
		if p.Data != "" {
			if _, p.DataSHA, err = p.openData(); err != nil {
				return p, err
			}
		}
	}
	return p, nil
}

// canonical writes every field that equals its default as zero, so that a
// spec written with explicit defaults has the same cache key as one without.
func (p ProblemSpec) canonical() ProblemSpec {
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
	case "pool":
		if p.Missing == "coin" {
			p.Missing = ""
		}
	}
	return p
}

// readHashed reads a user file and checks it against want (if not empty).
func readHashed(flag, path, want string) ([]byte, string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", flag, err)
	}
	sum := sha256.Sum256(b)
	got := hex.EncodeToString(sum[:])
	if want != "" && want != got {
		return nil, "", fmt.Errorf("%s: %s has changed since the run was specified (sha256 %s, spec records %s)", flag, path, got, want)
	}
	return b, got, nil
}

// dataFiles returns the files the problem reads from its data folder.
func (p ProblemSpec) dataFiles() []string {
	if p.Name == "cems" {
		return data.CEMS
	}
	return data.Shuttle
}

// openData opens the data folder of a cems or shuttle spec and hashes it
// (empty hash for the shipped data), checking a recorded hash.
func (p ProblemSpec) openData() (*dataDir, string, error) {
	fsys, err := data.Open(p.Data, p.dataFiles())
	if err != nil {
		return nil, "", err
	}
	if p.Data == "" {
		return &dataDir{}, "", nil
	}
	sum, err := data.Hash(fsys, p.dataFiles())
	if err != nil {
		return nil, "", err
	}
	if p.DataSHA != "" && p.DataSHA != sum {
		return nil, "", fmt.Errorf("data: the files of %s have changed since the run was specified (hash %s, spec records %s)", p.Data, sum, p.DataSHA)
	}
	return &dataDir{dir: p.Data, fsys: fsys}, sum, nil
}

// Build draws the problem instance for seed.
func (p ProblemSpec) Build(seed uint64) (*Problem, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	switch p.Name {
	case "pool":
		return p.buildPool(seed)
	case "cems":
		dd, _, err := p.openData()
		if err != nil {
			return nil, err
		}
		prob, err := CEMS{Train: p.Contexts, Holdout: p.Holdout, FS: dd.fsys}.New(seed)
		return prob, dd.locate(err)
	case "shuttle":
		dd, _, err := p.openData()
		if err != nil {
			return nil, err
		}
		prob, err := Shuttle{Contexts: p.Contexts, Holdout: p.Holdout, Scale: p.Scale, FS: dd.fsys}.New(seed)
		return prob, dd.locate(err)
	}
	return p.synthetic().New(seed)
}

func (p ProblemSpec) buildPool(seed uint64) (*Problem, error) {
	b, _, err := readHashed("pool", p.Pool, p.PoolSHA)
	if err != nil {
		return nil, err
	}
	pf, err := ReadPool(bytes.NewReader(b), p.Pool)
	if err != nil {
		return nil, err
	}
	var ans *Answers
	if p.Answers != "" {
		if b, _, err = readHashed("answers", p.Answers, p.AnswersSHA); err != nil {
			return nil, err
		}
		if ans, err = pf.ReadAnswers(bytes.NewReader(b), p.Answers); err != nil {
			return nil, err
		}
	}
	return NewPoolProblem(pf, ans, p.Missing, p.Answers, seed)
}

// dataDir is an opened -data folder (fsys nil: the shipped data).
type dataDir struct {
	dir  string
	fsys fs.FS
}

func (p ProblemSpec) synthetic() Synthetic {
	return Synthetic{Function: p.Name, Dim: p.Dim, Arms: p.Arms, Contexts: p.Contexts, Theta: p.Theta}
}

// locate prefixes the file of an InputError with the data folder.
func (d *dataDir) locate(err error) error {
	var ie *InputError
	if d.dir != "" && errors.As(err, &ie) {
		ie.File = filepath.Join(d.dir, filepath.FromSlash(ie.File))
	}
	return err
}
