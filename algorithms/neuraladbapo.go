package algorithms

// neural-adb-apo is the paper's "Neural-ADB (APO)" baseline (Section 4): the
// APO rule of apo.go — context and arm pair chosen jointly by the largest
// ‖φ(c,a) − φ(c,b)‖_{V⁻¹}, V updated with that pair's difference — on the
// gradient features φ = g(x;θ0)/√w of Neural-ADB with V0 = (λ/κ)I and the
// exact confidence algebra of internal/gram, and the paper's MLP trained on
// the answers as in Neural-ADB (eq. 2) for the policy π(c) = argmax_a h
// (eq. 8). It is eq. (3) with the arms of the max-norm pair queried instead
// of the greedy/UCB pair of eqs. (4)–(5).
//
// Interpretation: the paper says only that a neural network estimates the
// reward; we use the same network, features, V and training schedule as
// neural-adb-ucb so that the two differ in the arm rule alone.

func init() {
	Register("neural-adb-apo", "Neural-ADB (APO) (paper Sec. 4): APO's joint max-norm context and pair on the θ0 gradient features; MLP policy",
		func(env Env) (Learner, error) {
			m, err := NewNeuralModel(env, true)
			if err != nil {
				return nil, err
			}
			return newAPO(env, m, m.Conf), nil
		})
	DeclareReads("neural-adb-apo", "", ReadsFields(neuralReads, neuralConfReads))
}
