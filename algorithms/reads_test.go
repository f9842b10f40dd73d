package algorithms

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// readsAlt is a value other than the default of every Config field, one a
// learner that read the field would most likely behave differently with.
var readsAlt = map[string]string{
	"depth": "1", "width": "20", "bias": "true", "init": "he", "init-scale": "0.5",
	"optimizer": "gd", "lr": "0.01", "steps": "10", "retrain-every": "10", "reset": "true",
	"keep-moments": "true", "batch": "3", "loss-scale": "mean", "regularizer": "theta0",
	"lambda": "0.1", "kappa": "0.5", "nu": "0.3", "sigma-width": "twice", "feature-norm": "unit",
	"refresh-every": "1", "beta": "0.3", "mle-iters": "2", "borda-offset": "0",
	"collect": "passive", "consider": "3", "plus-ablate": "fixed-lambda", "objective": "policy",
}

// TestReadsDeclared: a learner that declares the Config fields it reads
// (DeclareReads) behaves bit for bit the same — its queries, policy, scores
// and σ² over 100 answers — whatever the value of a field it does not
// declare; so refusing such a field as a flag loses nothing (with fewer
// answers neural-adb-target's objective would not yet show).
func TestReadsDeclared(t *testing.T) {
	p, theta := testPool(t, 13, 12, 4, 3, 3)
	trace := func(name string, cfg Config) []float64 {
		l := mustNew(t, name, p, cfg, 5)
		rng := rand.New(rand.NewPCG(13, 2))
		var out []float64
		for range 100 {
			q := l.Select(Offer{})
			out = append(out, float64(q.Context), float64(q.Arm1), float64(q.Arm2))
			l.Observe(q, btAnswer(p, theta, q, rng))
		}
		for _, a := range l.Policy(nil) {
			out = append(out, float64(a))
		}
		if s, ok := l.(Scorer); ok {
			out = append(out, ScoreRows(nil, s, p, 0, p.Rows(), nil)...)
		}
		if s, ok := l.(interface{ Sigma2(c, a, b int) float64 }); ok {
			for c := range p.Contexts {
				out = append(out, s.Sigma2(c, 0, 1))
			}
		}
		return out
	}
	same := func(a, b []float64) bool {
		return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
	}
	for _, f := range Fields() {
		if _, ok := readsAlt[f.Name]; !ok {
			t.Fatalf("readsAlt has no value for field %s", f.Name)
		}
	}
	for _, name := range Names() {
		a, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if a.Reads == nil {
			continue
		}
		cfg := Default()
		read := a.FieldsRead(cfg)
		base := trace(name, cfg)
		for _, f := range Fields() {
			if slices.Contains(read, f.Name) {
				continue
			}
			alt := cfg
			if err := alt.Set(f.Name, readsAlt[f.Name]); err != nil {
				t.Fatal(err)
			}
			if !same(trace(name, alt), base) {
				t.Errorf("%s: -%s %s changes the learner, but it does not declare the field", name, f.Name, readsAlt[f.Name])
			}
		}
	}
}

// TestFieldsRead: without a declaration every field is read; with one, the
// declared fields and collect and consider, in the order of Fields.
func TestFieldsRead(t *testing.T) {
	var all []string
	for _, f := range Fields() {
		all = append(all, f.Name)
	}
	if got := (Algorithm{}).FieldsRead(Default()); !slices.Equal(got, all) {
		t.Errorf("undeclared: %v, want every field", got)
	}
	a, err := Lookup("neural-adb-plus")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"depth", "width", "retrain-every", "collect", "consider", "plus-ablate"}
	if got := a.FieldsRead(Default()); !slices.Equal(got, want) {
		t.Errorf("neural-adb-plus: %v, want %v", got, want)
	}
	cfg := Default()
	cfg.PlusAblate = PlusFixedLambda
	if got := a.FieldsRead(cfg); !slices.Contains(got, "lambda") {
		t.Errorf("neural-adb-plus with plus-ablate fixed-lambda: %v, want lambda among them", got)
	}
}
