package algorithms

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/neural-adb/nadb/internal/mlp"
)

// Model snapshots: a trained utility model h saved as JSON and read back as a
// Scorer, so that a policy learned from answers can be used, shared and
// inspected without the learner or its answers.
//
// # Format (version 1)
//
// One JSON object:
//
//	{
//	  "format": "nadb-model",         always this text (ModelFormat)
//	  "version": 1,                   ModelVersion; a reader refuses other versions
//	  "algorithm": "neural-adb-ucb",  the registered name of the learner
//	  "kind": "mlp",                  "linear", "mlp" or "ensemble"
//	  "input_dim": 58,                d, the features of one row
//	  "pool_sha256": "9c7e…",         sha256 of the pool file it was trained on ("" if none)
//	  "seed": 1,                      the learner's seed (the policy's tie-break priorities)
//	  "mlp": {"width": 50, "depth": 2, "bias": false, "zero": false},   kinds "mlp" and "ensemble"
//	  "ensemble": {…},                kind "ensemble" only (below)
//	  "theta": [0.12, -0.5, …],       θ ([] for kind "ensemble")
//	  "offset": 0                     o, added to every score (0 for kind "ensemble")
//	}
//
// The utility of a feature row x is
//
//	linear  h(x) = θᵀx + o,  θ ∈ R^d
//	mlp     h(x) = vᵀ z_L + b + o,  z_0 = x,  z_l = relu(W_l z_{l−1} + b_l),  l = 1…depth,
//
// the ReLU network of the paper's eq. (2) (internal/mlp), with θ the
// concatenation of W_1 (width × d, row-major), b_1, W_2 (width × width), b_2,
// …, W_depth, b_depth, v (width) and b, the biases present only when "bias"
// is true. "zero" is true while θ is the mirrored initialisation, whose
// output is 0 exactly (evaluating θ would leave rounding noise of order
// 1e-17); a reader then scores every row 0. The offset is the Borda offset
// of ae-borda and ae-borda-nn (whose scores are Borda estimates, not
// Bradley–Terry utilities) and 0 otherwise.
//
// Kind "ensemble" is the weighted model family of neural-adb-target and
// neural-adb-plus:
//
//	"ensemble": {
//	  "rule": "target",               "target", "plus-average" or "plus-best"
//	  "scale": 0.84,                  s > 0, the calibration
//	  "members": [                    1 … 1024 members
//	    {"weight": 0.61, "u": [d values], "theta": [θ of the "mlp" shape]},
//	    {"weight": 0.39, "u": [d values]}    no "theta": g ≡ 0 (a linear member)
//	  ]
//	}
//
// Member k is t_k(x) = u_kᵀx + g_k(x), g_k the ReLU network above without
// biases ("bias" and "zero" false) at the member's θ, or 0 without one.
// With fin(v) = v, or 0 when v is not finite, and w_k the weights:
//
//	target        h(x) = fin(s · Σ_k w_k · fin(t_k(x)));  the policy ranks Σ_k w_k · fin(t_k(x))
//	plus-average  h(x) = fin(Σ_k w_k · t_k(x));           the policy ranks Σ_k (w_k/s) · fin(t_k(x))
//	plus-best     h(x) = fin(s · t_1(x)), one member of weight 1;  the policy ranks fin(t_1(x))
//
// summed in member order. The policy ranks the uncalibrated scores as the
// learner does (h is s times them, up to rounding); rule "target" breaks
// exact ties by a hash of the seed and the row, the others by the seed's
// priorities. The kind was added without a new version: a reader that does
// not know it refuses the file (unknown kind, unknown field "ensemble")
// rather than misreading it.
//
// Numbers are written in the shortest form that reads back to the same
// float64, and a loaded model evaluates them with the learner's own code,
// so it scores every row exactly as the learner did.

// Model format name and version (see the format above).
const (
	ModelFormat  = "nadb-model"
	ModelVersion = 1
)

// ModelKind is the family of a saved utility model.
type ModelKind string

// Model kinds.
const (
	ModelLinear   ModelKind = "linear"   // h(x) = θᵀx + o
	ModelMLP      ModelKind = "mlp"      // the paper's ReLU network, plus o
	ModelEnsemble ModelKind = "ensemble" // weighted members uᵀx + g(x;θ) (neural-adb-target, neural-adb-plus)
)

// MLPShape is the architecture of a saved network.
type MLPShape struct {
	Width int  `json:"width"`
	Depth int  `json:"depth"`
	Bias  bool `json:"bias"`
	// Zero marks the mirrored initialisation, h ≡ 0 exactly.
	Zero bool `json:"zero"`
}

// Model is a snapshot of a trained utility model (format above).
type Model struct {
	Format     string    `json:"format"`
	Version    int       `json:"version"`
	Algorithm  string    `json:"algorithm"`
	Kind       ModelKind `json:"kind"`
	InputDim   int       `json:"input_dim"`
	PoolSHA256 string    `json:"pool_sha256"`
	Seed       uint64    `json:"seed"`
	MLP        *MLPShape `json:"mlp,omitempty"`
	Ensemble   *Ensemble `json:"ensemble,omitempty"`
	Theta      []float64 `json:"theta"`
	Offset     float64   `json:"offset"`
}

// Snapshotter is implemented by learners (and models) whose utility model can
// be saved: Snapshot returns the kind, shape, θ and offset of the current
// model (a copy), or nil when there is none. The caller fills in the
// provenance fields (Snapshot does).
type Snapshotter interface {
	Snapshot() *Model
}

// Errors a reader returns (wrapped, with the file and what to do).
var (
	ErrModelVersion = errors.New("unsupported model format version")
	ErrModelPool    = errors.New("model trained on another pool")
)

// Snapshot returns the model of learner l, built as algorithm name from env
// and trained on the pool file with sha256 poolSHA. It fails when l is not a
// Snapshotter.
func Snapshot(l Learner, name string, env Env, poolSHA string) (*Model, error) {
	s, ok := l.(Snapshotter)
	var m *Model
	if ok {
		m = s.Snapshot()
	}
	if m == nil {
		return nil, fmt.Errorf("algorithms: %s has no utility model that can be saved", name)
	}
	m.Format, m.Version, m.Algorithm, m.PoolSHA256, m.Seed = ModelFormat, ModelVersion, name, poolSHA, env.Seed
	return m, m.Validate()
}

// MaxModelValue bounds the absolute value of a model's parameters and
// offset. Trained weights are of order 1 (the paper's networks stay below
// 100); a value beyond 1e15 is not a trained model, and its scores would
// overflow to ±Inf.
const MaxModelValue = 1e15

// Validate reports the first field of m that does not describe a usable model:
// among others, an algorithm name that is not registered, and parameters
// that are not finite or beyond MaxModelValue.
func (m *Model) Validate() error {
	const maxDim, maxWidth, maxDepth = 1 << 24, 1 << 20, 1 << 10
	switch {
	case m.Format != ModelFormat:
		return fmt.Errorf("format is %q, want %q", m.Format, ModelFormat)
	case m.Version != ModelVersion:
		return fmt.Errorf("%w %d (this program reads version %d)", ErrModelVersion, m.Version, ModelVersion)
	case m.InputDim < 1 || m.InputDim > maxDim:
		return fmt.Errorf("input_dim is %d, want 1 … %d", m.InputDim, maxDim)
	case !(math.Abs(m.Offset) <= MaxModelValue):
		return fmt.Errorf("offset is %v, want a finite number of at most %g in absolute value", m.Offset, MaxModelValue)
	}
	if _, err := Lookup(m.Algorithm); err != nil {
		return fmt.Errorf("algorithm %q is not registered (nadb list shows the names): %w", m.Algorithm, err)
	}
	if m.Ensemble != nil && m.Kind != ModelEnsemble {
		return fmt.Errorf(`kind %q has an "ensemble"; only kind "ensemble" has one`, m.Kind)
	}
	want := 0
	switch m.Kind {
	case ModelLinear:
		if m.MLP != nil {
			return errors.New(`kind "linear" has an "mlp" shape; only kinds "mlp" and "ensemble" have one`)
		}
		want = m.InputDim
	case ModelMLP, ModelEnsemble:
		s := m.MLP
		switch {
		case s == nil:
			return fmt.Errorf(`kind %q needs an "mlp" shape {width, depth, bias}`, m.Kind)
		case s.Width < 1 || s.Width > maxWidth:
			return fmt.Errorf("mlp width is %d, want 1 … %d", s.Width, maxWidth)
		case s.Depth < 1 || s.Depth > maxDepth:
			return fmt.Errorf("mlp depth is %d, want 1 … %d", s.Depth, maxDepth)
		}
		if m.Kind == ModelEnsemble {
			return m.validateEnsemble()
		}
		want = m.arch().NumParams()
	default:
		return fmt.Errorf("kind is %q, want %q, %q or %q", m.Kind, ModelLinear, ModelMLP, ModelEnsemble)
	}
	if len(m.Theta) != want {
		return fmt.Errorf("theta has %d values, want %d for this kind and shape", len(m.Theta), want)
	}
	for i, v := range m.Theta {
		if !(math.Abs(v) <= MaxModelValue) {
			return fmt.Errorf("theta[%d] is %v, want a finite number of at most %g in absolute value", i, v, MaxModelValue)
		}
	}
	return nil
}

// checkNulls reports a JSON null where a model file needs a number: JSON
// decoding reads a null into a float64 as 0, silently.
func checkNulls(data []byte) error {
	var raw struct {
		Theta    []json.RawMessage `json:"theta"`
		Offset   json.RawMessage   `json:"offset"`
		InputDim json.RawMessage   `json:"input_dim"`
		Seed     json.RawMessage   `json:"seed"`
		Version  json.RawMessage   `json:"version"`
		Ensemble *rawEnsemble      `json:"ensemble"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil // reported by the strict decoding
	}
	for name, v := range map[string]json.RawMessage{"offset": raw.Offset, "input_dim": raw.InputDim, "seed": raw.Seed, "version": raw.Version} {
		if string(v) == "null" {
			return fmt.Errorf("%s is null, want a number", name)
		}
	}
	for i, v := range raw.Theta {
		if string(v) == "null" {
			return fmt.Errorf("theta[%d] is null, want a number", i)
		}
	}
	return ensembleNulls(raw.Ensemble)
}

// The numbers of an ensemble as written, for checkNulls.
type (
	rawNumber   = json.RawMessage
	rawEnsemble struct {
		Scale   rawNumber `json:"scale"`
		Members []struct {
			Weight rawNumber   `json:"weight"`
			U      []rawNumber `json:"u"`
			Theta  []rawNumber `json:"theta"`
		} `json:"members"`
	}
)

func (m *Model) arch() mlp.Arch {
	return mlp.Arch{In: m.InputDim, Width: m.MLP.Width, Depth: m.MLP.Depth, Bias: m.MLP.Bias}
}

// Write writes m as indented JSON after checking it.
func (m *Model) Write(w io.Writer) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("algorithms: model: %w", err)
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("algorithms: model: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ReadModel reads a model written by Model.Write; file names r in errors.
// When poolSHA is not empty, a model trained on a pool file with another
// sha256 is refused (ErrModelPool), as is a model of another format version
// (ErrModelVersion); both errors say what to do.
func ReadModel(r io.Reader, file, poolSHA string) (*Model, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("algorithms: model file %s: %w", file, err)
	}
	var head struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	err = json.Unmarshal(data, &head)
	if t := bytes.TrimSpace(data); err != nil && len(t) > 0 && t[0] == '{' {
		// A JSON object that does not parse: a model file cut short or
		// edited by hand (NaN is not JSON); say where.
		msg := err.Error()
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte{'\n'})
			msg = fmt.Sprintf("%v (line %d, byte %d)", err, line, se.Offset)
		}
		return nil, fmt.Errorf("algorithms: model file %s is not valid JSON: %s: fix it or export the model again", file, msg)
	}
	if err != nil || head.Format != ModelFormat {
		return nil, fmt.Errorf("algorithms: %s is not a model file (want a JSON object with \"format\": %q)", file, ModelFormat)
	}
	if head.Version != ModelVersion {
		return nil, fmt.Errorf("algorithms: model file %s: %w %d, but this program reads version %d: export the model again from its pool and answers with this program (or use the program that wrote it)",
			file, ErrModelVersion, head.Version, ModelVersion)
	}
	if err := checkNulls(data); err != nil {
		return nil, fmt.Errorf("algorithms: model file %s: %w", file, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	m := new(Model)
	if err := dec.Decode(m); err != nil {
		return nil, fmt.Errorf("algorithms: model file %s: %v", file, err)
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("algorithms: model file %s: %w", file, err)
	}
	if poolSHA != "" && m.PoolSHA256 != poolSHA {
		return nil, fmt.Errorf("algorithms: model file %s: %w: it was trained on a pool file with sha256 %q, but this pool file has sha256 %s: use the model with the pool file it was trained on, or export a model trained on this pool",
			file, ErrModelPool, m.PoolSHA256, poolSHA)
	}
	return m, nil
}

// Scorer returns the utility h of a valid model (Validate) as a Scorer; its
// scores equal those of the learner the model was taken from, bit for bit.
func (m *Model) Scorer() Scorer {
	if m.Kind == ModelEnsemble {
		return m.ensembleScorer()
	}
	s := &modelScorer{theta: m.Theta, offset: m.Offset, dim: m.InputDim}
	if m.Kind == ModelMLP {
		s.net = mlp.NewNet(m.arch())
		s.net.SetTheta(m.Theta)
		s.zero = m.MLP.Zero
	}
	return s
}

// Policy writes argmax_a h(x_{c,a}) for every committed context of p into dst,
// breaking exact ties with the priorities the learner drew from its seed (of
// kind "ensemble": as in the format above), so that it equals the learner's
// policy on the pool it was trained on.
func (m *Model) Policy(dst []int, p *Pool) []int {
	if p.Dim != m.InputDim {
		panic(fmt.Sprintf("algorithms: model of input_dim %d on a pool of dimension %d", m.InputDim, p.Dim))
	}
	if m.Kind == ModelEnsemble {
		return m.ensembleScorer().policy(dst, p, m.Seed)
	}
	r := newRowScores(p, m.Seed)
	ScoreRows(r.S, m.Scorer(), p, 0, p.Rows(), nil)
	return r.policy(dst)
}

type modelScorer struct {
	theta  []float64
	offset float64
	dim    int
	net    *mlp.Net // kind mlp
	zero   bool
}

// Score implements Scorer.
func (s *modelScorer) Score(dst, x []float64) []float64 {
	switch {
	case s.net == nil:
		dst = linearScore(dst, x, s.theta)
	case s.zero:
		rows := len(x) / s.dim
		if len(x) != rows*s.dim {
			panic("algorithms: Score input is not a whole number of rows")
		}
		if dst == nil {
			dst = make([]float64, rows)
		}
		clear(dst[:rows])
	default:
		dst = s.net.Predict(dst, x, nil)
	}
	if s.offset != 0 {
		for i := range dst {
			dst[i] += s.offset
		}
	}
	return dst
}

// The snapshots of the models of this package. A learner is a Snapshotter
// when its model is one.

// Snapshot implements Snapshotter: the network h(·;θ_t).
func (m *NeuralModel) Snapshot() *Model {
	a := m.Net.Arch
	return &Model{Kind: ModelMLP, InputDim: a.In, Theta: slices.Clone(m.Net.Theta),
		MLP: &MLPShape{Width: a.Width, Depth: a.Depth, Bias: a.Bias, Zero: m.Net.IdenticallyZero()}}
}

// Snapshot implements Snapshotter: θ̂.
func (m *LinearBT) Snapshot() *Model {
	return &Model{Kind: ModelLinear, InputDim: m.Pool.Dim, Theta: slices.Clone(m.Theta)}
}

// Snapshot implements Snapshotter: the Borda estimate θ̂ᵀx + o.
func (r *ridge) Snapshot() *Model {
	return &Model{Kind: ModelLinear, InputDim: r.pool.Dim, Theta: slices.Clone(r.theta), Offset: r.offset}
}

// Snapshot implements Snapshotter: the Borda estimate h + o.
func (b bordaNet) Snapshot() *Model {
	m := b.NeuralModel.Snapshot()
	m.Offset = b.offset
	return m
}

// Snapshot implements Snapshotter.
func (l *RandomDuels) Snapshot() *Model { return snapshotOf(l.model) }

// Snapshot implements Snapshotter.
func (l *APO) Snapshot() *Model { return snapshotOf(l.model) }

// Snapshot implements Snapshotter.
func (l *AEBorda) Snapshot() *Model { return snapshotOf(l.model) }

// Snapshot implements Snapshotter.
func (l *AEDPO) Snapshot() *Model { return l.model.Snapshot() }

func snapshotOf(m any) *Model {
	if s, ok := m.(Snapshotter); ok {
		return s.Snapshot()
	}
	return nil
}
