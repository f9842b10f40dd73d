package theory

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/neural-adb/nadb/internal/xmath"
)

// Sequence is one draw z_1..z_T of a Generator with the conditional second
// moments Σ_s = E[z_s z_sᵀ | F_{s−1}] and the constants of Theorem 1 for it.
type Sequence struct {
	// Z holds z_s in row s−1 (T × d).
	Z *mat.Dense
	// Sigma returns Σ_s for s = 1..T (read only; it may share storage).
	Sigma func(s int) *mat.SymDense
	// Hyp are L, Σ_max, Σ_min and Z; every z_s lies in Hyp.Support.
	Hyp Hypotheses
}

// Len returns T.
func (s *Sequence) Len() int { r, _ := s.Z.Dims(); return r }

// GeneratorDoc says how a generator's quantities are obtained.
type GeneratorDoc struct {
	Rule     string // how z_s is chosen
	Z        string // the input set Z
	Sigma    string // Σ_s = E[z_s z_sᵀ | F_{s−1}]
	SigmaMax string // the Σ_max used by the Literal claim, and why it is valid
	SigmaMin string // the Σ_min used by the Repaired claim
	// SigmaMaxUnconditional is the Σ_max of the LiteralUnconditional claim
	// when it differs from SigmaMax ("" otherwise).
	SigmaMaxUnconditional string
}

// Generator draws adapted sequences in R^Dim. The sequence may adapt to
// V_{s−1} = λI + Σ_{r<s} z_r z_rᵀ, hence λ.
type Generator interface {
	Name() string
	Dim() int
	Doc() GeneratorDoc
	Generate(seed uint64, T int, lambda float64) (*Sequence, error)
}

// Random streams of the generators (stream ids of package theory, ≥ 200 so
// that they never meet the learners' or the experiments' streams).
const (
	streamIsotropic = 200 + iota
	streamAnisotropic
	streamGreedy
	streamEpsGreedy
	streamAdvRandom
	streamSpikeUniform
)

// sphere writes r·u into dst, u uniform on the unit sphere of R^len(dst).
func sphere(dst []float64, r float64, rng *rand.Rand) {
	for {
		for i := range dst {
			dst[i] = rng.NormFloat64()
		}
		if n := floats.Norm(dst, 2); n > 1e-12 {
			floats.Scale(r/n, dst)
			return
		}
	}
}

// scaledIdentity returns c·I_d.
func scaledIdentity(d int, c float64) *mat.SymDense {
	m := mat.NewSymDense(d, nil)
	for i := range d {
		m.SetSym(i, i, c)
	}
	return m
}

func outer(z []float64) *mat.SymDense {
	m := mat.NewSymDense(len(z), nil)
	m.SymOuterK(1, mat.NewDense(len(z), 1, append([]float64(nil), z...)))
	return m
}

func checkArgs(name string, d int, L float64, T int, lambda float64) error {
	switch {
	case d < 1:
		return fmt.Errorf("%s: dimension %d < 1", name, d)
	case !(L > 0):
		return fmt.Errorf("%s: radius L = %v must be positive", name, L)
	case T < 1:
		return fmt.Errorf("%s: T = %d must be positive", name, T)
	case !(lambda > 0):
		return fmt.Errorf("%s: λ = %v must be positive", name, lambda)
	}
	return nil
}

// IIDIsotropic draws z_s = L·u_s, u_s i.i.d. uniform on the unit sphere.
type IIDIsotropic struct {
	D int
	L float64
}

func (g IIDIsotropic) Name() string { return "iid-isotropic" }
func (g IIDIsotropic) Dim() int     { return g.D }
func (g IIDIsotropic) Doc() GeneratorDoc {
	return GeneratorDoc{
		Rule:     "z_s = L·u_s, u_s i.i.d. uniform on the unit sphere",
		Z:        "sphere of radius L (maximum as over the ball: L/√λmin(V_T))",
		Sigma:    "E[uuᵀ] = I/d, so Σ_s = (L²/d)·I for every s",
		SigmaMax: "(L²/d)·I = Σ_s, the least upper bound",
		SigmaMin: "(L²/d)·I = Σ_s",
	}
}

func (g IIDIsotropic) Generate(seed uint64, T int, lambda float64) (*Sequence, error) {
	if err := checkArgs(g.Name(), g.D, g.L, T, lambda); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, streamIsotropic))
	z := mat.NewDense(T, g.D, nil)
	for s := range T {
		sphere(z.RawRowView(s), g.L, rng)
	}
	sig := scaledIdentity(g.D, g.L*g.L/float64(g.D))
	return &Sequence{Z: z, Sigma: func(int) *mat.SymDense { return sig },
		Hyp: Hypotheses{L: g.L, SigmaMax: sig, SigmaMin: sig, Support: Ball{R: g.L}}}, nil
}

// IIDAnisotropic draws z_s = A·u_s, u_s i.i.d. uniform on the unit sphere and
// A = diag(a), a_i = L·Ratio^{i/(d−1)} (a_0 = L ≥ a_i ≥ a_{d−1} = L·Ratio).
type IIDAnisotropic struct {
	D     int
	L     float64
	Ratio float64 // in (0, 1]
}

func (g IIDAnisotropic) Name() string { return "iid-anisotropic" }
func (g IIDAnisotropic) Dim() int     { return g.D }
func (g IIDAnisotropic) Doc() GeneratorDoc {
	return GeneratorDoc{
		Rule:     fmt.Sprintf("z_s = A·u_s, u_s i.i.d. uniform on the unit sphere, A = diag(L·%g^(i/(d−1)))", g.Ratio),
		Z:        "ellipsoid {A·u : ‖u‖ = 1}; max ‖z‖²_{V⁻¹} = λmax(A V⁻¹ A)",
		Sigma:    "Σ_s = A²/d for every s",
		SigmaMax: "A²/d = Σ_s, the least upper bound",
		SigmaMin: "A²/d = Σ_s",
	}
}

func (g IIDAnisotropic) axes() []float64 {
	a := make([]float64, g.D)
	for i := range a {
		a[i] = g.L
		if g.D > 1 {
			a[i] = g.L * xmath.Pow(g.Ratio, float64(i)/float64(g.D-1))
		}
	}
	return a
}

func (g IIDAnisotropic) Generate(seed uint64, T int, lambda float64) (*Sequence, error) {
	if err := checkArgs(g.Name(), g.D, g.L, T, lambda); err != nil {
		return nil, err
	}
	if !(g.Ratio > 0 && g.Ratio <= 1) {
		return nil, fmt.Errorf("%s: ratio %v must be in (0, 1]", g.Name(), g.Ratio)
	}
	a := g.axes()
	rng := rand.New(rand.NewPCG(seed, streamAnisotropic))
	z := mat.NewDense(T, g.D, nil)
	for s := range T {
		row := z.RawRowView(s)
		sphere(row, 1, rng)
		for i := range row {
			row[i] *= a[i]
		}
	}
	sig := mat.NewSymDense(g.D, nil)
	for i, ai := range a {
		sig.SetSym(i, i, ai*ai/float64(g.D))
	}
	return &Sequence{Z: z, Sigma: func(int) *mat.SymDense { return sig },
		Hyp: Hypotheses{L: g.L, SigmaMax: sig, SigmaMin: sig, Support: Ellipsoid{Axes: a}}}, nil
}

// greedyState keeps V⁻¹ and the candidates' norms ‖c_i‖²_{V⁻¹} under rank-one
// updates (Sherman–Morrison), O(d² + N·d) per step.
type greedyState struct {
	cand  *mat.Dense // N × d
	vinv  *mat.SymDense
	norm2 []float64
	u     []float64
}

func newGreedyState(cand *mat.Dense, lambda float64) *greedyState {
	n, d := cand.Dims()
	st := &greedyState{cand: cand, vinv: scaledIdentity(d, 1/lambda), norm2: make([]float64, n), u: make([]float64, d)}
	for i := range n {
		c := cand.RawRowView(i)
		st.norm2[i] = floats.Dot(c, c) / lambda
	}
	return st
}

// best returns the index of the candidate with the largest norm (lowest
// index among exact ties).
func (st *greedyState) best() int { return floats.MaxIdx(st.norm2) }

func (st *greedyState) add(z []float64) {
	d := len(z)
	u := mat.NewVecDense(d, st.u)
	u.MulVec(st.vinv, mat.NewVecDense(d, z))
	gamma := 1 + floats.Dot(z, st.u)
	n, _ := st.cand.Dims()
	for i := range n {
		cu := floats.Dot(st.cand.RawRowView(i), st.u)
		st.norm2[i] -= cu * cu / gamma
	}
	st.vinv.SymRankOne(st.vinv, -1/gamma, u)
}

// Greedy chooses z_s = argmax_i ‖c_i‖_{V_{s−1}⁻¹} over N candidates drawn once,
// i.i.d. uniform on the sphere of radius L: the "most uncertain direction"
// rule of APO and of Neural-ADB's context rule, on a fixed candidate set.
type Greedy struct {
	D, N int
	L    float64
}

func (g Greedy) Name() string { return "greedy" }
func (g Greedy) Dim() int     { return g.D }
func (g Greedy) Doc() GeneratorDoc {
	return GeneratorDoc{
		Rule:                  fmt.Sprintf("z_s = argmax over %d candidates (i.i.d. uniform on the sphere of radius L, drawn at s = 0) of ‖c‖_{V_{s−1}⁻¹}", g.N),
		Z:                     "sphere of radius L, the candidates' support (maximum L/√λmin(V_T))",
		Sigma:                 "the choice is a function of F_{s−1} (candidates and past), so Σ_s = z_s z_sᵀ (rank one)",
		SigmaMax:              "L²·I: the least valid upper bound, since a candidate lies near any direction u with positive probability and Σ_s = L²·uuᵀ then",
		SigmaMin:              "0 (Σ_s is rank one): the repaired statement is vacuous",
		SigmaMaxUnconditional: "(L²/d)·I: the candidates' law and V_0 = λI are rotation invariant and the rule commutes with rotations, so E[z_s z_sᵀ] = (L²/d)·I exactly",
	}
}

func (g Greedy) Generate(seed uint64, T int, lambda float64) (*Sequence, error) {
	if err := checkArgs(g.Name(), g.D, g.L, T, lambda); err != nil {
		return nil, err
	}
	if g.N < 1 {
		return nil, fmt.Errorf("%s: %d candidates, need ≥ 1", g.Name(), g.N)
	}
	rng := rand.New(rand.NewPCG(seed, streamGreedy))
	cand := mat.NewDense(g.N, g.D, nil)
	for i := range g.N {
		sphere(cand.RawRowView(i), g.L, rng)
	}
	st := newGreedyState(cand, lambda)
	z := mat.NewDense(T, g.D, nil)
	for s := range T {
		row := z.RawRowView(s)
		copy(row, cand.RawRowView(st.best()))
		st.add(row)
	}
	return &Sequence{Z: z, Sigma: func(s int) *mat.SymDense { return outer(z.RawRowView(s - 1)) },
		Hyp: Hypotheses{L: g.L, SigmaMax: scaledIdentity(g.D, g.L*g.L), SigmaMaxUnconditional: scaledIdentity(g.D, g.L*g.L/float64(g.D)), Support: Ball{R: g.L}}}, nil
}

// EpsGreedy is Greedy with exploration: with probability Eps, z_s is a fresh
// uniform draw from the sphere of radius L; otherwise the greedy candidate.
type EpsGreedy struct {
	D, N int
	L    float64
	Eps  float64 // in (0, 1)
}

func (g EpsGreedy) Name() string { return "eps-greedy" }
func (g EpsGreedy) Dim() int     { return g.D }
func (g EpsGreedy) Doc() GeneratorDoc {
	return GeneratorDoc{
		Rule:                  fmt.Sprintf("with probability %g a fresh uniform point of the sphere of radius L, else the greedy choice g_s among %d candidates", g.Eps, g.N),
		Z:                     "sphere of radius L (maximum L/√λmin(V_T))",
		Sigma:                 "Σ_s = ε(L²/d)·I + (1−ε)·g_s g_sᵀ, g_s the greedy candidate given F_{s−1}",
		SigmaMax:              "(ε/d + 1 − ε)·L²·I, the least valid upper bound (g_s can point anywhere)",
		SigmaMin:              "ε(L²/d)·I",
		SigmaMaxUnconditional: "(L²/d)·I: rotation invariance as for greedy, and the fresh draws are isotropic",
	}
}

func (g EpsGreedy) Generate(seed uint64, T int, lambda float64) (*Sequence, error) {
	if err := checkArgs(g.Name(), g.D, g.L, T, lambda); err != nil {
		return nil, err
	}
	if g.N < 1 || !(g.Eps > 0 && g.Eps < 1) {
		return nil, fmt.Errorf("%s: need N ≥ 1 and ε in (0, 1), got N = %d, ε = %v", g.Name(), g.N, g.Eps)
	}
	rng := rand.New(rand.NewPCG(seed, streamEpsGreedy))
	cand := mat.NewDense(g.N, g.D, nil)
	for i := range g.N {
		sphere(cand.RawRowView(i), g.L, rng)
	}
	st := newGreedyState(cand, lambda)
	z := mat.NewDense(T, g.D, nil)
	greedy := make([]int, T)
	for s := range T {
		row := z.RawRowView(s)
		greedy[s] = st.best()
		if rng.Float64() < g.Eps {
			sphere(row, g.L, rng)
		} else {
			copy(row, cand.RawRowView(greedy[s]))
		}
		st.add(row)
	}
	iso := g.Eps * g.L * g.L / float64(g.D)
	sigma := func(s int) *mat.SymDense {
		m := outer(cand.RawRowView(greedy[s-1]))
		m.ScaleSym(1-g.Eps, m)
		for i := range g.D {
			m.SetSym(i, i, m.At(i, i)+iso)
		}
		return m
	}
	return &Sequence{Z: z, Sigma: sigma, Hyp: Hypotheses{
		L:                     g.L,
		SigmaMax:              scaledIdentity(g.D, (g.Eps/float64(g.D)+1-g.Eps)*g.L*g.L),
		SigmaMin:              scaledIdentity(g.D, iso),
		SigmaMaxUnconditional: scaledIdentity(g.D, g.L*g.L/float64(g.D)),
		Support:               Ball{R: g.L},
	}}, nil
}

// axesSupport returns Z = {±L·e_j}, and 0 when withZero.
func axesSupport(d int, L float64, withZero bool) Finite {
	n, label := d, "±L·e_j"
	if withZero {
		n, label = d+1, "0 and ±L·e_j"
	}
	p := mat.NewDense(n, d, nil)
	for j := range d {
		p.Set(j, j, L)
	}
	return Finite{Points: p, Label: label}
}

// AdvSubspace is the deterministic adversary: z_s = L·e_s for s ≤ d (one
// round per axis), then z_s cycles through L·e_1, …, L·e_K (K = 0: z_s = 0).
// After the warm-up the sequence stays in a K-dimensional subspace.
type AdvSubspace struct {
	D, K int
	L    float64
}

func (g AdvSubspace) Name() string { return fmt.Sprintf("adversarial-subspace-k%d", g.K) }
func (g AdvSubspace) Dim() int     { return g.D }
func (g AdvSubspace) Doc() GeneratorDoc {
	rest := fmt.Sprintf("cycles through L·e_1..L·e_%d", g.K)
	switch g.K {
	case 0:
		rest = "is 0"
	case 1:
		rest = "stays at L·e_1"
	}
	return GeneratorDoc{
		Rule:     "z_s = L·e_s for s ≤ d, then z_s " + rest + " (deterministic)",
		Z:        "{±L·e_j} (and 0 when K = 0): the same maximum as the ball, V_T being diagonal",
		Sigma:    "deterministic, so Σ_s = z_s z_sᵀ; all diagonal, so they commute",
		SigmaMax: "the least diagonal upper bound diag_j(max_s Σ_s[j,j]) = L²·I (every axis is hit once); any valid Σmax has λmin ≥ L²/d",
		SigmaMin: "the greatest diagonal lower bound diag_j(min_s Σ_s[j,j]) (0 when K < d)",
	}
}

func (g AdvSubspace) Generate(seed uint64, T int, lambda float64) (*Sequence, error) {
	if err := checkArgs(g.Name(), g.D, g.L, T, lambda); err != nil {
		return nil, err
	}
	if g.K < 0 || g.K > g.D {
		return nil, fmt.Errorf("%s: subspace dimension K = %d outside [0, %d]", g.Name(), g.K, g.D)
	}
	z := mat.NewDense(T, g.D, nil)
	for s := range T {
		switch {
		case s < g.D:
			z.Set(s, s, g.L)
		case g.K > 0:
			z.Set(s, (s-g.D)%g.K, g.L)
		}
	}
	return diagonalSequence(z, g.L, axesSupport(g.D, g.L, g.K == 0), func(s int) *mat.SymDense { return outer(z.RawRowView(s - 1)) }), nil
}

// diagonalSequence completes a sequence whose Σ_s are all diagonal with the
// least diagonal upper bound and the greatest diagonal lower bound.
func diagonalSequence(z *mat.Dense, L float64, sup Support, sigma func(int) *mat.SymDense) *Sequence {
	T, d := z.Dims()
	hi := make([]float64, d)
	lo := make([]float64, d)
	for j := range lo {
		lo[j] = math.Inf(1)
	}
	for s := 1; s <= T; s++ {
		m := sigma(s)
		for j := range d {
			hi[j] = math.Max(hi[j], m.At(j, j))
			lo[j] = math.Min(lo[j], m.At(j, j))
		}
	}
	smax, smin := mat.NewSymDense(d, nil), mat.NewSymDense(d, nil)
	for j := range d {
		smax.SetSym(j, j, hi[j])
		smin.SetSym(j, j, lo[j])
	}
	return &Sequence{Z: z, Sigma: sigma, Hyp: Hypotheses{L: L, SigmaMax: smax, SigmaMin: smin, Support: sup}}
}

// AdvRandomSubspace is a randomised adversary: z_s = L·e_s for s ≤ d, then
// z_s = ±L·e_J with J uniform on {1..K} and a uniform sign.
type AdvRandomSubspace struct {
	D, K int
	L    float64
}

func (g AdvRandomSubspace) Name() string { return fmt.Sprintf("adversarial-random-k%d", g.K) }
func (g AdvRandomSubspace) Dim() int     { return g.D }
func (g AdvRandomSubspace) Doc() GeneratorDoc {
	return GeneratorDoc{
		Rule:     fmt.Sprintf("z_s = L·e_s for s ≤ d, then ±L·e_J with J uniform on the first %d axes", g.K),
		Z:        "{±L·e_j} (same maximum as the ball, V_T being diagonal)",
		Sigma:    fmt.Sprintf("L²·e_s e_sᵀ in the warm-up, then (L²/%d)·Σ_{j≤%d} e_j e_jᵀ; all diagonal", g.K, g.K),
		SigmaMax: "the least diagonal upper bound L²·I",
		SigmaMin: "the greatest diagonal lower bound (0 when K < d)",
	}
}

func (g AdvRandomSubspace) Generate(seed uint64, T int, lambda float64) (*Sequence, error) {
	if err := checkArgs(g.Name(), g.D, g.L, T, lambda); err != nil {
		return nil, err
	}
	if g.K < 1 || g.K > g.D {
		return nil, fmt.Errorf("%s: subspace dimension K = %d outside [1, %d]", g.Name(), g.K, g.D)
	}
	rng := rand.New(rand.NewPCG(seed, streamAdvRandom))
	z := mat.NewDense(T, g.D, nil)
	for s := range T {
		if s < g.D {
			z.Set(s, s, g.L)
			continue
		}
		sign := 1.0
		if rng.IntN(2) == 0 {
			sign = -1
		}
		z.Set(s, rng.IntN(g.K), sign*g.L)
	}
	after := mat.NewSymDense(g.D, nil)
	for j := range g.K {
		after.SetSym(j, j, g.L*g.L/float64(g.K))
	}
	sigma := func(s int) *mat.SymDense {
		if s <= g.D {
			return outer(z.RawRowView(s - 1))
		}
		return after
	}
	return diagonalSequence(z, g.L, axesSupport(g.D, g.L, false), sigma), nil
}
