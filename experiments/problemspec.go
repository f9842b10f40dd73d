package experiments

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/neural-adb/nadb/internal/enum"
)

// ProblemSpec names a problem and its size. It is part of a run's Spec and so
// of the cache key of every result: every field that changes the problem must
// be here. Fields a problem does not use must be zero (Validate rejects them),
// and zero fields are left out of the JSON, so a spec has one spelling.
//
// The fields are flat (one struct for every kind of problem) so that the JSON,
// and with it every cache key, has one simple form. The synthetic problems are
// registered by this package; "pool" by package experiments/pool, "cems" and
// "shuttle" by package experiments/realdata (see RegisterProblem).
//
// User files enter the key by content: Resolve records the sha256 of the pool
// and answers files and of a data folder's files, and Build refuses to run
// when a recorded hash no longer matches the file. The shipped data are part
// of the code and carry no hash.
type ProblemSpec struct {
	Name string `json:"problem"` // a Functions entry, or another registered problem

	Dim  int `json:"d,omitempty"` // synthetic: feature dimension
	Arms int `json:"K,omitempty"` // synthetic: arms per context
	// Contexts is the pool size: synthetic problems and shuttle (0: 300);
	// for cems, the number of training students (0: all not held out).
	Contexts int       `json:"contexts,omitempty"`
	Theta    ThetaDraw `json:"theta,omitempty"` // synthetic: how θ is drawn
	// Candidates > 0 is the fresh-context reading of a synthetic problem:
	// that many new contexts every round, Contexts the evaluation pool (see
	// Synthetic.Candidates); 0 is the fixed pool.
	Candidates int `json:"candidates,omitempty"`

	// Holdout is the number of contexts held out of the learner's pool and
	// used to score its model (holdout.go): a value in (0, 1) is a fraction
	// of the contexts, a whole number ≥ 1 a count, and 0 the problem's
	// default (pool: none; cems: 101 students; shuttle: 2000 samples). A
	// whole number marshals as it did when the field was an int, so the
	// cache keys of existing specs are unchanged.
	Holdout float64 `json:"holdout,omitempty"`
	// Scale is shuttle's utility of the true class (0: 2).
	Scale float64 `json:"scale,omitempty"`

	// Bring your own pool (problem pool; formats in package internal/poolfile).
	Pool       string      `json:"pool,omitempty"`           // pool file
	PoolSHA    string      `json:"pool_sha256,omitempty"`    // its sha256 (Resolve)
	Answers    string      `json:"answers,omitempty"`        // recorded answers file, optional
	AnswersSHA string      `json:"answers_sha256,omitempty"` // its sha256 (Resolve)
	Missing    MissingRule `json:"missing,omitempty"`        // rule for unrecorded pairs ("" is MissingMask)
	// Standardise rescales every feature column of a pool file to mean 0
	// and standard deviation 1 (constant columns to 0) before any learner
	// sees it.
	Standardise bool `json:"standardise,omitempty"`

	// Data is the folder of the real data sets (cems, shuttle); "" means the
	// copy shipped in the binary (experiments/realdata/data).
	Data    string `json:"data,omitempty"`
	DataSHA string `json:"data_sha256,omitempty"` // content hash of the files read (Resolve)
}

// ProblemKind is how one named problem is checked and built: a registry
// entry (RegisterProblem).
type ProblemKind struct {
	// Uses lists the ProblemSpec fields the problem reads, by JSON name
	// ("problem" is implied); every other field must be zero.
	Uses []string
	// Check reports invalid values of the used fields; it reads no files.
	Check func(ProblemSpec) error
	// Canonical writes fields equal to their defaults as zero (nil: none).
	Canonical func(ProblemSpec) ProblemSpec
	// Resolve fills in content hashes of user files (nil: none).
	Resolve func(ProblemSpec) (ProblemSpec, error)
	// Build draws the problem instance for seed.
	Build func(p ProblemSpec, seed uint64) (*Problem, error)
}

var problems = struct {
	sync.Mutex
	order []string
	m     map[string]ProblemKind
}{m: map[string]ProblemKind{}}

// RegisterProblem adds a problem under a unique name. Call it from an init
// function of the package that implements the problem; a program that wants
// the problem imports that package (for its side effect, if nothing else).
func RegisterProblem(name string, k ProblemKind) {
	problems.Lock()
	defer problems.Unlock()
	if _, dup := problems.m[name]; dup || name == "" || k.Build == nil {
		panic("experiments: invalid or duplicate problem registration " + name)
	}
	problems.m[name] = k
	problems.order = append(problems.order, name)
}

// Problems lists every registered problem name, the synthetic ones first.
func Problems() []string {
	problems.Lock()
	defer problems.Unlock()
	return slices.Clone(problems.order)
}

func lookupProblem(name string) (ProblemKind, error) {
	problems.Lock()
	k, ok := problems.m[name]
	problems.Unlock()
	if !ok {
		// A program that needs pool, cems or shuttle links in
		// experiments/pool and experiments/realdata, which register them.
		return k, fmt.Errorf("experiments: %w", enum.Unknown("problem", name, Problems()))
	}
	return k, nil
}

// IsSynthetic reports whether name is a synthetic problem (Functions).
func IsSynthetic(name string) bool { return slices.Contains(Functions, Function(name)) }

// DefaultProblem is the paper's main setting: Square, d = 20, K = 10, 300 contexts.
func DefaultProblem() ProblemSpec {
	return ProblemSpec{Name: string(Square), Dim: 20, Arms: 10, Contexts: 300, Theta: ThetaSphere}
}

func init() {
	for _, f := range Functions {
		RegisterProblem(string(f), ProblemKind{
			Uses:  []string{"d", "K", "contexts", "theta", "candidates"},
			Check: func(p ProblemSpec) error { return p.synthetic().Validate() },
			Build: func(p ProblemSpec, seed uint64) (*Problem, error) { return p.synthetic().New(seed) },
		})
	}
}

func (p ProblemSpec) synthetic() Synthetic {
	return Synthetic{Function: Function(p.Name), Dim: p.Dim, Arms: p.Arms, Contexts: p.Contexts, Theta: p.Theta, Candidates: p.Candidates}
}

// Validate reports the first invalid field by its name. It reads no files
// (Build does).
func (p ProblemSpec) Validate() error {
	k, err := lookupProblem(p.Name)
	if err != nil {
		return err
	}
	v := reflect.ValueOf(p)
	t := v.Type()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "problem" || slices.Contains(k.Uses, name) || v.Field(i).IsZero() {
			continue
		}
		return fmt.Errorf("experiments: %s is not used by problem %s (it uses %s)", name, p.Name, strings.Join(k.Uses, ", "))
	}
	if k.Check != nil {
		return k.Check(p)
	}
	return nil
}

// Resolve returns p with fields equal to their defaults written as zero and
// the content hashes of its user files filled in (pool, answers, or the files
// of a data folder), so that a cache key made from the spec changes when a
// file does and not with how a default was spelled. A hash already present
// must match. Specs built by hand for a sweep should be resolved.
func (p ProblemSpec) Resolve() (ProblemSpec, error) {
	if err := p.Validate(); err != nil {
		return p, err
	}
	k, _ := lookupProblem(p.Name)
	if k.Canonical != nil {
		p = k.Canonical(p)
	}
	if k.Resolve != nil {
		return k.Resolve(p)
	}
	return p, nil
}

// Build draws the problem instance for seed.
func (p ProblemSpec) Build(seed uint64) (*Problem, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	k, _ := lookupProblem(p.Name)
	return k.Build(p, seed)
}

// ReadHashed reads a user file named by field (for messages) and checks it
// against the sha256 want, if not empty. It returns the contents and their
// hash. Like ParseHashed it reads regular files only.
func ReadHashed(field, path, want string) ([]byte, string, error) {
	f, err := openRegular(field, path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", field, err)
	}
	sum := sha256.Sum256(b)
	got := hex.EncodeToString(sum[:])
	if want != "" && want != got {
		return nil, "", fmt.Errorf("%s: %s has changed since the run was specified (sha256 %s, spec records %s)", field, path, got, want)
	}
	return b, got, nil
}

// MissingRule says what a replayed pool does about arm pairs without a
// recorded answer (ProblemSpec.Missing; the rules are package
// experiments/pool's).
type MissingRule string

// Missing-answer rules.
const (
	// MissingMask offers the learner only the pairs with a recorded answer,
	// in the contexts that have one (Problem.Offer): no answer is invented.
	// The default, also written "".
	MissingMask MissingRule = "mask"
	// MissingCoin offers every pair and answers an unrecorded one by a fair
	// coin, counted in unrecorded_share.
	MissingCoin MissingRule = "coin"
	// MissingError requires a record for every pair of every context; a gap
	// is an error when the problem is built.
	MissingError MissingRule = "error"
)

// MissingRules lists the rules, the default first.
var MissingRules = []MissingRule{MissingMask, MissingCoin, MissingError}

// OrDefault returns m, or MissingMask when m is empty.
func (m MissingRule) OrDefault() MissingRule {
	if m == "" {
		return MissingMask
	}
	return m
}

// UnmarshalText implements encoding.TextUnmarshaler.
// The empty text is the default rule.
func (m *MissingRule) UnmarshalText(b []byte) (err error) {
	if len(b) == 0 {
		*m = ""
		return nil
	}
	*m, err = enum.Parse("missing-answer rule", string(b), MissingRules)
	return err
}

// MarshalText implements encoding.TextMarshaler (for flag.TextVar).
func (m MissingRule) MarshalText() ([]byte, error) { return []byte(m), nil }

// Validate reports whether m is one of MissingRules or empty (the default).
func (m MissingRule) Validate() error {
	if m == "" {
		return nil
	}
	return enum.Check("missing-answer rule", m, MissingRules)
}
