package algorithms

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Config holds every hyper-parameter of every registered learner. Each field
// carries its name (the json tag, also the nadb flag name), a one-line meaning,
// and where its default comes from:
//
//   - paper:  the value is fixed by the paper's text;
//   - choice: the paper is silent or inconsistent; the default is ours and
//     documented (see Choices, listed in the README);
//   - ours:   engineering settings that are not part of the paper's method.
//
// The zero Config is invalid; start from Default.
type Config struct {
	// Reward model (Section 3.1).
	Depth     int     `json:"depth" source:"paper" help:"hidden layers L of the ReLU MLP (paper: 2)"`
	Width     int     `json:"width" source:"paper" help:"hidden width w (paper: 50)"`
	Bias      bool    `json:"bias" source:"choice" help:"give every layer a bias; the paper's count p = dw + w² + w has none"`
	Init      string  `json:"init" source:"choice" enum:"mirrored|he|gaussian|uniform" help:"initialisation of θ0: mirrored Gaussian of Zhang et al. (h(x;θ0) = 0), He, N(0, init-scale²), or PyTorch's uniform"`
	InitScale float64 `json:"init-scale" source:"choice" help:"standard deviation for init=gaussian; multiplies the other schemes' scale"`

	// Training (eq. 2 and Appendix B).
	Optimizer    string  `json:"optimizer" source:"choice" enum:"adam|gd" help:"optimiser of the training loss"`
	LearningRate float64 `json:"lr" source:"choice" help:"learning rate"`
	Steps        int     `json:"steps" source:"paper" help:"gradient steps per retrain (paper: 50)"`
	RetrainEvery int     `json:"retrain-every" source:"paper" help:"retrain after every this many duels (paper: 20)"`
	Reset        bool    `json:"reset" source:"choice" help:"restart every retrain from θ0 instead of warm-starting from θ_t"`
	KeepMoments  bool    `json:"keep-moments" source:"choice" help:"keep Adam's moment estimates across retrains"`
	BatchSize    int     `json:"batch" source:"choice" help:"pairs per gradient step; 0 = full batch"`
	LossScale    string  `json:"loss-scale" source:"choice" enum:"sum|mean|width" help:"factor on the summed Bradley–Terry NLL: 1, 1/n, or 1/w as printed in eq. (2)"`
	Regularizer  string  `json:"regularizer" source:"paper" enum:"theta|theta0" help:"λ‖θ‖² (Appendix B, practical) or (λ/2)‖θ−θ0‖² (eq. 2)"`

	// Confidence (eqs. 3–7).
	Lambda       float64 `json:"lambda" source:"paper" help:"regularisation λ in the loss and in V0 = (λ/κ)I (paper: 1)"`
	Kappa        float64 `json:"kappa" source:"choice" help:"κ_μ in V0 = (λ/κ)I and σ² = (λ/κ)‖·‖²; not given by the paper"`
	Nu           float64 `json:"nu" source:"paper" help:"exploration scale ν_T (paper: fixed at 1)"`
	SigmaWidth   string  `json:"sigma-width" source:"choice" enum:"once|twice" help:"apply the 1/w of φ = g/√w once (σ² = (λ/κ)‖Δφ‖²_{V⁻¹}) or again inside σ as eq. (6) can also be read"`
	FeatureNorm  string  `json:"feature-norm" source:"choice" enum:"none|unit" help:"scale of the gradient features φ: as defined (none) or each φ(c,a) divided by its norm (unit); the paper does not normalise"`
	RefreshEvery int     `json:"refresh-every" source:"ours" help:"recompute the exact confidence state from scratch every this many updates (0 = never)"`

	// Baselines (Section 4).
	Beta        float64 `json:"beta" source:"choice" help:"confidence width β of the AE-Borda and AE-DPO bounds"`
	MLEIters    int     `json:"mle-iters" source:"ours" help:"Newton iterations of the linear logistic MLE refit"`
	BordaOffset float64 `json:"borda-offset" source:"choice" help:"subtracted from the duel outcome y before the AE-Borda regressions: 0.5, the Borda function's mean over arms, or 0 for the raw y"`

	// Extra holds parameters of learners added outside this package.
	Extra map[string]float64 `json:"extra,omitempty" source:"ours" help:"named parameters for custom learners"`
}

// Default returns the configuration used throughout unless stated otherwise.
func Default() Config {
	return Config{
		Depth: 2, Width: 50, Bias: false, Init: "mirrored", InitScale: 1,
		Optimizer: "adam", LearningRate: 1e-3, Steps: 50, RetrainEvery: 20,
		BatchSize: 0, LossScale: "sum", Regularizer: "theta",
		Lambda: 1, Kappa: 1, Nu: 1, SigmaWidth: "once", FeatureNorm: "none", RefreshEvery: 500,
		Beta: 1, MLEIters: 20, BordaOffset: 0.5,
	}
}

// Validate reports the first invalid field, by its flag name.
func (c Config) Validate() error {
	v := reflect.ValueOf(c)
	for _, f := range Fields() {
		fv := v.FieldByName(f.GoName)
		switch fv.Kind() {
		case reflect.Float64:
			x := fv.Float()
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("config: %s must be a finite number, got %v", f.Name, x)
			}
		case reflect.String:
			if f.Enum != nil && !slices.Contains(f.Enum, fv.String()) {
				return fmt.Errorf("config: %s must be one of %s, got %q", f.Name, strings.Join(f.Enum, ", "), fv.String())
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
		{c.Init == "mirrored" && c.Width%2 != 0, "width", "even for init=mirrored", c.Width},
		{!(c.InitScale > 0), "init-scale", "> 0", c.InitScale},
		{!(c.LearningRate > 0), "lr", "> 0", c.LearningRate},
		{c.Steps < 0, "steps", "≥ 0", c.Steps},
		{c.RetrainEvery < 1, "retrain-every", "≥ 1", c.RetrainEvery},
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
			return fmt.Errorf("config: %s must be %s, got %v", ch.name, ch.want, ch.got)
		}
	}
	for k, x := range c.Extra {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("config: extra parameter %q must be finite, got %v", k, x)
		}
	}
	return nil
}

// Field describes one Config field.
type Field struct {
	Name    string   // flag and JSON name
	GoName  string   // struct field name
	Kind    string   // int, float, bool or string
	Default string   // value in Default(), formatted
	Source  string   // paper, choice or ours
	Help    string   // one line
	Enum    []string // allowed values of a string field, nil if free
}

// Fields lists the Config fields in declaration order (Extra excluded).
func Fields() []Field {
	t := reflect.TypeFor[Config]()
	def := reflect.ValueOf(Default())
	var out []Field
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if sf.Type.Kind() == reflect.Map {
			continue
		}
		f := Field{Name: name, GoName: sf.Name, Source: sf.Tag.Get("source"), Help: sf.Tag.Get("help")}
		if e := sf.Tag.Get("enum"); e != "" {
			f.Enum = strings.Split(e, "|")
		}
		dv := def.Field(i)
		switch sf.Type.Kind() {
		case reflect.Int:
			f.Kind, f.Default = "int", strconv.FormatInt(dv.Int(), 10)
		case reflect.Float64:
			f.Kind, f.Default = "float", strconv.FormatFloat(dv.Float(), 'g', -1, 64)
		case reflect.Bool:
			f.Kind, f.Default = "bool", strconv.FormatBool(dv.Bool())
		case reflect.String:
			f.Kind, f.Default = "string", dv.String()
		default:
			panic("algorithms: unsupported Config field kind " + sf.Type.Kind().String())
		}
		out = append(out, f)
	}
	return out
}

// Set assigns a field from its text form, by flag name. It reports unknown
// names and unparsable values; range checks are Validate's.
func (c *Config) Set(name, value string) error {
	for _, f := range Fields() {
		if f.Name != name {
			continue
		}
		fv := reflect.ValueOf(c).Elem().FieldByName(f.GoName)
		switch f.Kind {
		case "int":
			x, err := strconv.Atoi(value)
			if err != nil {
				return fmt.Errorf("%s: %q is not an integer", name, value)
			}
			fv.SetInt(int64(x))
		case "float":
			x, err := strconv.ParseFloat(value, 64)
			if err != nil {
				return fmt.Errorf("%s: %q is not a number", name, value)
			}
			fv.SetFloat(x)
		case "bool":
			x, err := strconv.ParseBool(value)
			if err != nil {
				return fmt.Errorf("%s: %q is not true or false", name, value)
			}
			fv.SetBool(x)
		case "string":
			fv.SetString(value)
		}
		return nil
	}
	return fmt.Errorf("config: unknown field %q", name)
}

// Get returns a field's value in text form, by flag name.
func (c Config) Get(name string) (string, error) {
	for _, f := range Fields() {
		if f.Name != name {
			continue
		}
		fv := reflect.ValueOf(c).FieldByName(f.GoName)
		switch f.Kind {
		case "int":
			return strconv.FormatInt(fv.Int(), 10), nil
		case "float":
			return strconv.FormatFloat(fv.Float(), 'g', -1, 64), nil
		case "bool":
			return strconv.FormatBool(fv.Bool()), nil
		default:
			return fv.String(), nil
		}
	}
	return "", fmt.Errorf("config: unknown field %q", name)
}
