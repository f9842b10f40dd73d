package experiments

// ProblemSpec names a problem and its size. It is part of a run's Spec and so
// of the cache key of every result: every field that changes the problem must
// be here.
type ProblemSpec struct {
	Name     string `json:"problem"`  // square, sine or cosine
	Dim      int    `json:"d"`        // feature dimension
	Arms     int    `json:"K"`        // arms per context
	Contexts int    `json:"contexts"` // pool size
	Theta    string `json:"theta"`    // how θ is drawn (see Synthetic.Theta)
}

// DefaultProblem is the paper's main setting: Square, d = 20, K = 10, 300 contexts.
func DefaultProblem() ProblemSpec {
	return ProblemSpec{Name: "square", Dim: 20, Arms: 10, Contexts: 300, Theta: "sphere"}
}

// Validate reports the first invalid field, named as the nadb flag.
func (p ProblemSpec) Validate() error {
	return p.synthetic().Validate()
}

// Build draws the problem instance for seed.
func (p ProblemSpec) Build(seed uint64) (*Problem, error) {
	return p.synthetic().New(seed)
}

func (p ProblemSpec) synthetic() Synthetic {
	return Synthetic{Function: p.Name, Dim: p.Dim, Arms: p.Arms, Contexts: p.Contexts, Theta: p.Theta}
}

