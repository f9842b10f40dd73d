package algorithms

import (
	"fmt"
	"slices"
)

// Which Config fields a learner reads. Config holds the hyper-parameters of
// every learner, and the nadb commands take each as a flag; a learner that
// fixes its own settings (neural-adb-target, neural-adb-plus) or has no
// network (random, apo, ae-dpo, ae-borda) ignores most of them. Each
// learner declares beside its registration the fields it reads
// (DeclareReads), so that a flag it would ignore is refused, naming what
// it does read, rather than validated and dropped. A learner registered
// without a declaration reads every field. TestReadsDeclared checks every
// declaration: a learner behaves bit for bit the same whatever the value of
// a field it does not declare.

// Fields read by the learners, grouped as their models read them.
var (
	// LinearBT: the MLE's ridge, Newton iterations and refit period.
	linearBTReads = []string{"lambda", "mle-iters", "retrain-every"}
	// The linear baselines' confidence state (newLinearConfidence).
	linearConfReads = []string{"lambda", "refresh-every"}
	// NeuralModel's network and training (Arch, TrainConfig, the schedule).
	neuralReads = []string{"depth", "width", "bias", "init", "init-scale", "optimizer", "lr", "steps", "retrain-every", "reset", "keep-moments", "batch", "loss-scale", "regularizer", "lambda"}
	// NeuralModel's confidence state V0 = (λ/κ)I on the gradient features.
	neuralConfReads = []string{"kappa", "feature-norm", "refresh-every"}
	// Neural-ADB's arm rules: σ² (NeuralModel.Sigma2) and ν.
	neuralADBReads = slices.Concat(neuralReads, neuralConfReads, []string{"nu", "sigma-width"})
)

// DeclareReads records which Config fields the registered learner name
// reads (Algorithm.Reads) and what the list leaves out (Algorithm.ReadsNote,
// "" if nothing). It panics if name is not registered or reads names a
// field that does not exist; call it from the init function that registers
// name.
func DeclareReads(name, note string, reads func(Config) []string) {
	valid := map[string]bool{}
	for _, f := range Fields() {
		valid[f.Name] = true
	}
	for _, c := range []Config{Default(), {}} {
		for _, f := range reads(c) {
			if !valid[f] {
				panic(fmt.Sprintf("algorithms: DeclareReads(%q): no Config field %q", name, f))
			}
		}
	}
	registry.Lock()
	defer registry.Unlock()
	a, ok := registry.m[name]
	if !ok {
		panic(fmt.Sprintf("algorithms: DeclareReads(%q): not registered", name))
	}
	a.Reads, a.ReadsNote = reads, note
	registry.m[name] = a
}

// ReadsFields returns the Reads of a learner that reads the fields of the
// lists whatever the configuration.
func ReadsFields(lists ...[]string) func(Config) []string {
	all := slices.Concat(lists...)
	return func(Config) []string { return all }
}

// FieldsRead returns the names of the Config fields a reads with c, in the
// order of Fields: every field without a declaration, else the declared
// ones and collect and consider.
func (a Algorithm) FieldsRead(c Config) []string {
	var read []string
	if a.Reads != nil {
		read = append(a.Reads(c), "collect", "consider")
	}
	var out []string
	for _, f := range Fields() {
		if read == nil || slices.Contains(read, f.Name) {
			out = append(out, f.Name)
		}
	}
	return out
}
