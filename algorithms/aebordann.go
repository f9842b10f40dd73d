package algorithms

// ae-borda-nn is the paper's "AE-Borda (NN)" baseline (Section 4): the
// AE-Borda rule of aeborda.go with the paper's MLP as the Borda estimator and
// the gradient features φ = g(x;θ0)/√w of Neural-ADB as the uncertainty
// features:
//
//	μ(c,a) = h(x_{c,a};θ_t) + o,   σ(c,a) = ‖φ(c,a)‖_{V⁻¹},
//	V = (λ/κ)I + Σ_s φ(c_s,a_s)φ(c_s,a_s)ᵀ   (exact, internal/gram AddRow),
//
// h trained on the regressed rows by the squared error Σ_s (h(x_s) − (y_s − o))²
// plus the regulariser of Config.Regularizer, with Neural-ADB's optimiser and
// schedule (Config.Steps steps every Config.RetrainEvery observations, warm
// start unless Config.Reset). The policy is argmax_a h(x_{c,a};θ_T); Score
// returns h + o, a Borda estimate, not a Bradley–Terry utility.
//
// Interpretation: the paper says only that a neural network estimates the
// reward. We keep AE-Borda's regression target (the duel outcome of the first
// arm) and swap the linear model for the MLP, the raw features for φ, and λ
// for λ/κ in V0, so that σ has the scale of Neural-ADB's σ (eq. 6) with φ in
// place of a difference of φ's.

func init() {
	Register("ae-borda-nn", "AE-Borda (NN) (paper Sec. 4): AE-Borda's rule with the MLP regressing the Borda function and θ0 gradient features for σ",
		func(env Env) (Learner, error) {
			m, err := NewNeuralModel(env, true)
			if err != nil {
				return nil, err
			}
			return newAEBorda(env, bordaNet{m, env.Config.BordaOffset}, m.Conf), nil
		})
	DeclareReads("ae-borda-nn", "", ReadsFields(neuralReads, neuralConfReads, []string{"beta", "borda-offset"}))
}

// bordaNet adapts NeuralModel to the AE-Borda rule: it regresses y − o.
type bordaNet struct {
	*NeuralModel
	offset float64
}

func (b bordaNet) AddTarget(c, a int, y float64) { b.NeuralModel.AddTarget(c, a, y-b.offset) }

func (b bordaNet) means() []float64 { return b.RowScores() }

func (b bordaNet) Score(dst, x []float64) []float64 {
	dst = b.NeuralModel.Score(dst, x)
	for i := range dst {
		dst[i] += b.offset
	}
	return dst
}
