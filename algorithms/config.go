package algorithms

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/neural-adb/nadb/internal/enum"
	"github.com/neural-adb/nadb/internal/mlp"
)

// Config holds every hyper-parameter of every registered learner. Each field
// carries its name (the json tag, also the name of the nadb flag), a one-line
// meaning, and where its default comes from:
//
//   - paper:  the value is fixed by the paper's text;
//   - choice: the paper is silent or inconsistent; the default is ours and
//     documented (see Fields, listed in the README);
//   - ours:   engineering settings that are not part of the paper's method.
//
// Fields that take one of a few names have their own types (mlp.Init,
// mlp.Optimizer, mlp.LossScale, mlp.Regularizer, SigmaWidth, FeatureNorm):
// text becomes a value only through their UnmarshalText, which rejects
// unknown names, and code compares typed constants. The zero Config is
// invalid; start from Default.
type Config struct {
	// Reward model (Section 3.1).
	Depth     int      `json:"depth" source:"paper" help:"hidden layers L of the ReLU MLP (paper: 2)"`
	Width     int      `json:"width" source:"paper" help:"hidden width w (paper: 50)"`
	Bias      bool     `json:"bias" source:"choice" help:"give every layer a bias; the paper's count p = dw + w² + w has none"`
	Init      mlp.Init `json:"init" source:"choice" help:"initialisation of θ0: mirrored Gaussian of Zhang et al. (h(x;θ0) = 0), He, N(0, init-scale²), or PyTorch's uniform"`
	InitScale float64  `json:"init-scale" source:"choice" help:"standard deviation for init=gaussian; multiplies the other schemes' scale"`

	// Training (eq. 2 and Appendix B).
	Optimizer    mlp.Optimizer   `json:"optimizer" source:"choice" help:"optimiser of the training loss"`
	LearningRate float64         `json:"lr" source:"choice" help:"learning rate"`
	Steps        int             `json:"steps" source:"paper" help:"gradient steps per retrain (paper: 50)"`
	RetrainEvery int             `json:"retrain-every" source:"paper" help:"retrain after every this many duels (paper: 20)"`
	Reset        bool            `json:"reset" source:"choice" help:"restart every retrain from θ0 instead of warm-starting from θ_t"`
	KeepMoments  bool            `json:"keep-moments" source:"choice" help:"keep Adam's moment estimates across retrains"`
	BatchSize    int             `json:"batch" source:"choice" help:"pairs per gradient step; 0 = full batch"`
	LossScale    mlp.LossScale   `json:"loss-scale" source:"choice" help:"factor on the summed Bradley–Terry NLL: 1, 1/n, or 1/w as printed in eq. (2)"`
	Regularizer  mlp.Regularizer `json:"regularizer" source:"paper" help:"λ‖θ‖² (Appendix B, practical) or (λ/2)‖θ−θ0‖² (eq. 2)"`

	// Confidence (eqs. 3–7).
	Lambda       float64     `json:"lambda" source:"paper" help:"regularisation λ in the loss and in V0 = (λ/κ)I (paper: 1)"`
	Kappa        float64     `json:"kappa" source:"choice" help:"κ_μ in V0 = (λ/κ)I and σ² = (λ/κ)‖·‖²; not given by the paper"`
	Nu           float64     `json:"nu" source:"paper" help:"exploration scale ν_T (paper: fixed at 1)"`
	SigmaWidth   SigmaWidth  `json:"sigma-width" source:"choice" help:"apply the 1/w of φ = g/√w once (σ² = (λ/κ)‖Δφ‖²_{V⁻¹}) or again inside σ as eq. (6) can also be read"`
	FeatureNorm  FeatureNorm `json:"feature-norm" source:"choice" help:"scale of the gradient features φ: as defined (none) or each φ(c,a) divided by its norm (unit); the paper does not normalise"`
	RefreshEvery int         `json:"refresh-every" source:"ours" help:"recompute the exact confidence state from scratch every this many updates (0 = never)"`

	// Baselines (Section 4).
	Beta        float64 `json:"beta" source:"choice" help:"confidence width β of the AE-Borda and AE-DPO bounds"`
	MLEIters    int     `json:"mle-iters" source:"ours" help:"Newton iterations of the linear logistic MLE refit"`
	BordaOffset float64 `json:"borda-offset" source:"choice" help:"subtracted from the duel outcome y before the AE-Borda regressions: 0.5, the Borda function's mean over arms, or 0 for the raw y"`

	// Who chooses the duels (collect.go): every learner honours it.
	Collect Collect `json:"collect,omitempty" source:"ours" help:"who chooses the duels: the learner (own), uniformly at random (passive: the learner's passive twin), or a uniformly random context with the learner's pair in it (random-context)"`

	// Large pools (subsample.go): the contexts a rule scores per query.
	Consider int `json:"consider,omitempty" source:"ours" help:"offer the learner this many contexts per query, drawn at random from those allowed, which its rule scores exactly (0: every context); on a pool of many contexts a rule that scores every context costs a pass over the pool per query"`

	// Ours (neural-adb-plus, plus_doc.go).
	PlusAblate PlusAblation `json:"plus-ablate,omitempty" source:"ours" help:"neural-adb-plus with one ingredient removed, for the ablation study (none: the full learner); other learners ignore it"`

	// Ours (neural-adb-target, target_doc.go).
	Objective Objective `json:"objective,omitempty" source:"ours" help:"what neural-adb-target's duels aim at: predicting the answers of new contexts (predict: held-out use, labelling one's own data) or the policy on this pool (policy: the paper's fixed-pool mean gap); other learners ignore it"`
}

// Objective is what neural-adb-target chooses its duels for: the loss the
// user will score, estimated on target contexts drawn from the context
// distribution (target_doc.go). Its zero value means ObjectivePredict and
// is left out of the JSON form, so that configurations written before the
// field existed keep their JSON (and the cache keys hashed from it).
type Objective string

// Objective values.
const (
	// ObjectivePredict: the answers to duels of new contexts (held-out
	// log-loss); the default, and the labelling commands'.
	ObjectivePredict Objective = "predict"
	// ObjectivePolicy: which arm is best in each context of the pool (the
	// pool's mean gap, the paper's fixed-pool reading).
	ObjectivePolicy Objective = "policy"
)

// Objectives lists the valid values.
var Objectives = []Objective{ObjectivePredict, ObjectivePolicy}

// UnmarshalText implements encoding.TextUnmarshaler; "predict" is stored as
// the zero value.
func (o *Objective) UnmarshalText(b []byte) (err error) {
	*o, err = enum.Parse("objective", string(b), Objectives)
	if *o == ObjectivePredict {
		*o = ""
	}
	return err
}

// Validate reports whether o is one of Objectives or the zero value.
func (o Objective) Validate() error {
	if o == "" {
		return nil
	}
	return enum.Check("objective", o, Objectives)
}

// Values lists the valid names.
func (Objective) Values() []string { return enum.Strings(Objectives) }

// Rule returns o with the zero value spelled out (ObjectivePredict).
func (o Objective) Rule() Objective {
	if o == "" {
		return ObjectivePredict
	}
	return o
}

// SigmaWidth says how often the 1/w of the features enters σ² (eq. 6).
type SigmaWidth string

// SigmaWidth values.
const (
	SigmaOnce  SigmaWidth = "once"  // φ = g/√w, σ² = (λ/κ)‖Δφ‖²_{V⁻¹} (default)
	SigmaTwice SigmaWidth = "twice" // σ² = (λ/(κw))‖Δφ‖²_{V⁻¹}
)

// SigmaWidths lists the valid values.
var SigmaWidths = []SigmaWidth{SigmaOnce, SigmaTwice}

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *SigmaWidth) UnmarshalText(b []byte) (err error) {
	*s, err = enum.Parse("sigma-width", string(b), SigmaWidths)
	return err
}

// Validate reports whether s is one of SigmaWidths.
func (s SigmaWidth) Validate() error { return enum.Check("sigma-width", s, SigmaWidths) }

// Values lists the valid names.
func (SigmaWidth) Values() []string { return enum.Strings(SigmaWidths) }

// FeatureNorm is the scale of the gradient features φ.
type FeatureNorm string

// FeatureNorm values.
const (
	FeatureAsDefined FeatureNorm = "none" // φ = g(x;θ0)/√w as the paper defines it (default)
	FeatureUnit      FeatureNorm = "unit" // every φ(c,a) divided by its norm
)

// FeatureNorms lists the valid values.
var FeatureNorms = []FeatureNorm{FeatureAsDefined, FeatureUnit}

// UnmarshalText implements encoding.TextUnmarshaler.
func (f *FeatureNorm) UnmarshalText(b []byte) (err error) {
	*f, err = enum.Parse("feature-norm", string(b), FeatureNorms)
	return err
}

// Validate reports whether f is one of FeatureNorms.
func (f FeatureNorm) Validate() error { return enum.Check("feature-norm", f, FeatureNorms) }

// Values lists the valid names.
func (FeatureNorm) Values() []string { return enum.Strings(FeatureNorms) }

// PlusAblation names the ingredient of neural-adb-plus an ablation removes
// (plusOptions). Its zero value means PlusNone and is left out of the JSON
// form, so that configurations written before the field existed keep their
// JSON (and the cache keys hashed from it).
type PlusAblation string

// PlusAblation values.
const (
	PlusNone          PlusAblation = "none"            // the full learner (stored as the zero value)
	PlusFixedLambda   PlusAblation = "fixed-lambda"    // one λ (Config.Lambda) instead of the grid
	PlusRawLikelihood PlusAblation = "raw-likelihood"  // members ranked without the fitted temperature
	PlusNoAverage     PlusAblation = "no-average"      // the best member instead of the average
	PlusNoStepBudget  PlusAblation = "no-step-budget"  // Steps Adam steps per retrain throughout
	PlusNoFisher      PlusAblation = "no-fisher"       // every duel's curvature weight 1/4
	PlusNoNuFit       PlusAblation = "no-nu-fit"       // ν̂ = 1
	PlusNoKG          PlusAblation = "no-kg"           // the duel of the largest own expected improvement
	PlusNoRandomDuels PlusAblation = "no-random-duels" // no random duels
)

// PlusAblations lists the valid values.
var PlusAblations = []PlusAblation{PlusNone, PlusFixedLambda, PlusRawLikelihood, PlusNoAverage, PlusNoStepBudget, PlusNoFisher, PlusNoNuFit, PlusNoKG, PlusNoRandomDuels}

// UnmarshalText implements encoding.TextUnmarshaler; "none" is stored as
// the zero value.
func (a *PlusAblation) UnmarshalText(b []byte) (err error) {
	*a, err = enum.Parse("plus-ablate", string(b), PlusAblations)
	if *a == PlusNone {
		*a = ""
	}
	return err
}

// Validate reports whether a is one of PlusAblations or the zero value.
func (a PlusAblation) Validate() error {
	if a == "" {
		return nil
	}
	return enum.Check("plus-ablate", a, PlusAblations)
}

// Values lists the valid names.
func (PlusAblation) Values() []string { return enum.Strings(PlusAblations) }

// enumValue is implemented by the typed fields of Config.
type enumValue interface {
	Validate() error
	Values() []string
}

// Default returns the configuration used throughout unless stated otherwise.
func Default() Config {
	return Config{
		Depth: 2, Width: 50, Bias: false, Init: mlp.InitMirrored, InitScale: 1,
		Optimizer: mlp.Adam, LearningRate: 1e-3, Steps: 50, RetrainEvery: 20,
		BatchSize: 0, LossScale: mlp.ScaleSum, Regularizer: mlp.RegTheta,
		Lambda: 1, Kappa: 1, Nu: 1, SigmaWidth: SigmaOnce, FeatureNorm: FeatureAsDefined, RefreshEvery: 500,
		Beta: 1, MLEIters: 20, BordaOffset: 0.5,
	}
}

// Arch returns the network architecture of this configuration on inputs of
// dimension dim: the one conversion from Config to mlp.Arch.
func (c Config) Arch(dim int) mlp.Arch {
	return mlp.Arch{In: dim, Width: c.Width, Depth: c.Depth, Bias: c.Bias}
}

// TrainConfig returns the training settings of this configuration.
func (c Config) TrainConfig() mlp.TrainConfig {
	return mlp.TrainConfig{
		Optimizer: c.Optimizer, LearningRate: c.LearningRate, Steps: c.Steps,
		Reset: c.Reset, KeepMoments: c.KeepMoments, BatchSize: c.BatchSize,
		LossScale: c.LossScale, Regularizer: c.Regularizer, Lambda: c.Lambda,
	}
}

// Validate reports the first invalid field by name ("algorithms: width must
// be ≥ 1, got 0"). It is the one place a Config is checked; New calls it.
func (c Config) Validate() error {
	v := reflect.ValueOf(c)
	for _, f := range Fields() {
		fv := v.FieldByName(f.GoName)
		if e, ok := fv.Interface().(enumValue); ok {
			if err := e.Validate(); err != nil {
				return fmt.Errorf("algorithms: %s: %w", f.Name, err)
			}
			continue
		}
		if fv.Kind() == reflect.Float64 {
			if x := fv.Float(); math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("algorithms: %s must be a finite number, got %v", f.Name, x)
			}
		}
	}
	checks := []struct {
		bad  bool
		name string
		want string
		got  any
	}{
		{c.Depth < 1, "depth", "≥ 1", c.Depth},
		{c.Width < 1, "width", "≥ 1", c.Width},
		{c.Init == mlp.InitMirrored && c.Width%2 != 0, "width", "even for init=mirrored", c.Width},
		{!(c.InitScale > 0), "init-scale", "> 0", c.InitScale},
		{!(c.LearningRate > 0), "lr", "> 0", c.LearningRate},
		{c.Steps < 0, "steps", "≥ 0", c.Steps},
		{c.RetrainEvery < 1, "retrain-every", "≥ 1", c.RetrainEvery},
		{c.Consider < 0, "consider", "≥ 0 (0: every context)", c.Consider},
		{c.BatchSize < 0, "batch", "≥ 0", c.BatchSize},
		{!(c.Lambda > 0), "lambda", "> 0", c.Lambda},
		{!(c.Kappa > 0), "kappa", "> 0", c.Kappa},
		{c.Nu < 0, "nu", "≥ 0", c.Nu},
		{c.RefreshEvery < 0, "refresh-every", "≥ 0", c.RefreshEvery},
		{c.Beta < 0, "beta", "≥ 0", c.Beta},
		{c.MLEIters < 1, "mle-iters", "≥ 1", c.MLEIters},
		{c.BordaOffset < 0 || c.BordaOffset > 1, "borda-offset", "in [0, 1]", c.BordaOffset},
	}
	for _, ch := range checks {
		if ch.bad {
			return fmt.Errorf("algorithms: %s must be %s, got %v", ch.name, ch.want, ch.got)
		}
	}
	return nil
}

// Kind is the kind of value a Config field holds.
type Kind string

// Field kinds.
const (
	KindInt   Kind = "int"
	KindFloat Kind = "float"
	KindBool  Kind = "bool"
	KindEnum  Kind = "enum" // one of Field.Enum
)

// Field describes one Config field.
type Field struct {
	Name    string   // flag and JSON name
	GoName  string   // struct field name
	Kind    Kind     // what it holds
	Default string   // value in Default(), formatted
	Source  string   // paper, choice or ours
	Help    string   // one line
	Enum    []string // allowed values of an enum field, nil otherwise
}

// Fields lists the Config fields in declaration order.
func Fields() []Field {
	t := reflect.TypeFor[Config]()
	def := reflect.ValueOf(Default())
	var out []Field
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		f := Field{Name: name, GoName: sf.Name, Source: sf.Tag.Get("source"), Help: sf.Tag.Get("help")}
		dv := def.Field(i)
		if e, ok := dv.Interface().(enumValue); ok {
			f.Kind, f.Default, f.Enum = KindEnum, dv.String(), e.Values()
			if f.Default == "" { // a zero value that stands for the first value (omitempty)
				f.Default = f.Enum[0]
			}
			out = append(out, f)
			continue
		}
		switch sf.Type.Kind() {
		case reflect.Int:
			f.Kind, f.Default = KindInt, strconv.FormatInt(dv.Int(), 10)
		case reflect.Float64:
			f.Kind, f.Default = KindFloat, strconv.FormatFloat(dv.Float(), 'g', -1, 64)
		case reflect.Bool:
			f.Kind, f.Default = KindBool, strconv.FormatBool(dv.Bool())
		default:
			panic("algorithms: unsupported Config field kind " + sf.Type.Kind().String())
		}
		out = append(out, f)
	}
	return out
}

// Set assigns a field from its text form, by name. It reports unknown names
// and values that do not parse (an enum name outside the field's set among
// them); range checks are Validate's.
func (c *Config) Set(name, value string) error {
	for _, f := range Fields() {
		if f.Name != name {
			continue
		}
		fv := reflect.ValueOf(c).Elem().FieldByName(f.GoName)
		switch f.Kind {
		case KindInt:
			x, err := strconv.Atoi(value)
			if err != nil {
				return fmt.Errorf("algorithms: %s: %q is not an integer", name, value)
			}
			fv.SetInt(int64(x))
		case KindFloat:
			x, err := strconv.ParseFloat(value, 64)
			if err != nil {
				return fmt.Errorf("algorithms: %s: %q is not a number", name, value)
			}
			fv.SetFloat(x)
		case KindBool:
			x, err := strconv.ParseBool(value)
			if err != nil {
				return fmt.Errorf("algorithms: %s: %q is not true or false", name, value)
			}
			fv.SetBool(x)
		case KindEnum:
			if err := fv.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(value)); err != nil {
				return fmt.Errorf("algorithms: %s: %w", name, err)
			}
		}
		return nil
	}
	return fmt.Errorf("algorithms: unknown config field %q", name)
}

// Get returns a field's value in text form, by name.
func (c Config) Get(name string) (string, error) {
	for _, f := range Fields() {
		if f.Name != name {
			continue
		}
		fv := reflect.ValueOf(c).FieldByName(f.GoName)
		switch f.Kind {
		case KindInt:
			return strconv.FormatInt(fv.Int(), 10), nil
		case KindFloat:
			return strconv.FormatFloat(fv.Float(), 'g', -1, 64), nil
		case KindBool:
			return strconv.FormatBool(fv.Bool()), nil
		default:
			return fv.String(), nil
		}
	}
	return "", fmt.Errorf("algorithms: unknown config field %q", name)
}
