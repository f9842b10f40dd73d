package algorithms

// random-nn (ours, not in the paper): the Random baseline's selection —
// uniform context, uniform distinct arm pair — with the paper's MLP as the
// estimator, trained exactly as in Neural-ADB (eq. 2, the same Config
// fields, retrained every Config.RetrainEvery duels) and the policy of eq. (8),
// π(c) = argmax_a h(x_{c,a};θ_T). Against neural-adb-* it measures the value
// of the selection rule with the network held fixed; against random, the
// value of the network with the selection held fixed. No confidence state is
// built: the rule never uses one.

func init() {
	Register("random-nn", "ours: uniform context and distinct arm pair, the paper's MLP as the estimator (separates rule from network)",
		func(env Env) (Learner, error) {
			m, err := NewNeuralModel(env, false)
			if err != nil {
				return nil, err
			}
			return newRandomDuels(env, m), nil
		})
	DeclareReads("random-nn", "", ReadsFields(neuralReads))
}
