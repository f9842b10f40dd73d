package algorithms

// Neural-ADB's arm rule with uniformly random contexts: the comparator that
// isolates the value of the paper's context rule (eq. 3). Not in the paper;
// the lock-on study (package experiments/lockon) uses it as the bar a context
// rule must beat.

func init() {
	Register("neural-adb-ucb-randctx", "ours: Neural-ADB's UCB arm rule on uniformly random contexts (comparator for the context rule)",
		func(env Env) (Learner, error) { return NewNeuralADB(env, false, RandomContext) })
	Register("neural-adb-ts-randctx", "ours: Neural-ADB's TS arm rule on uniformly random contexts (comparator for the context rule)",
		func(env Env) (Learner, error) { return NewNeuralADB(env, true, RandomContext) })
	DeclareReads("neural-adb-ucb-randctx", "", ReadsFields(neuralADBReads))
	DeclareReads("neural-adb-ts-randctx", "", ReadsFields(neuralADBReads))
}

// RandomContext draws c_t uniformly from the offered contexts.
func RandomContext(l *NeuralADB, o Offer) int { return o.RandomContext(l.Pool, l.Rng) }
