package theory

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Claim is one instantiation of the right-hand side of Theorem 1 (the paper's
// statement, three ways of choosing its free constants) or of the repaired
// statement (package documentation).
type Claim int

const (
	// Literal is Theorem 1 as stated with the generator's documented Σ_max
	// (the least valid one where it exists; GeneratorDoc.SigmaMax) and the
	// a-priori C_s = L⁴:
	// G_T² = T·λ_min(Σ_max) − √(8·T·L⁴·log(d/δ)).
	Literal Claim = iota
	// LiteralRealisedC is Literal with the least admissible
	// C_s = ‖V_s − V_{s−1}‖² = ‖z_s‖⁴, the realised values.
	LiteralRealisedC
	// LiteralScalar is Literal with Σ_max = L²·I, an upper bound valid for
	// every sequence with ‖z_s‖ ≤ L.
	LiteralScalar
	// LiteralUnconditional is Literal with Σ_s read as the unconditional
	// moment E[z_s z_sᵀ] (no conditioning on the past) and Σ_max the least
	// upper bound of those (Hypotheses.SigmaMaxUnconditional). It differs
	// from Literal only for rules that are deterministic given the past but
	// random overall, such as greedy and ε-greedy over random candidates.
	LiteralUnconditional
	// Repaired is the corrected statement with a lower bound Σ_s ⪰ Σ_min:
	// G_T² = λ + T·λ_min(Σ_min) − √(8·T·L⁴·log(d/δ)).
	Repaired
	numClaims
)

// Claims lists every claim in table order.
var Claims = []Claim{Literal, LiteralRealisedC, LiteralScalar, LiteralUnconditional, Repaired}

var claimNames = [numClaims]string{"literal", "literal-realised-C", "literal-L2I", "literal-unconditional", "repaired"}

func (c Claim) String() string {
	if c < 0 || c >= numClaims {
		return fmt.Sprintf("Claim(%d)", int(c))
	}
	return claimNames[c]
}

// Describe returns a one-line statement of the claim.
func (c Claim) Describe() string {
	switch c {
	case Literal:
		return "Theorem 1 as stated: G² = T·λmin(Σmax) − √(8·T·L⁴·log(d/δ)), Σmax the generator's documented upper bound (the least valid one where it exists)"
	case LiteralRealisedC:
		return "Theorem 1 as stated with the realised C_s = ‖z_s‖⁴ (the least admissible C_s)"
	case LiteralScalar:
		return "Theorem 1 as stated with Σmax = L²·I (valid for every sequence with ‖z‖ ≤ L)"
	case LiteralUnconditional:
		return "Theorem 1 as stated with Σ_s read as the unconditional moment E[z_s z_sᵀ] and Σmax its least upper bound"
	case Repaired:
		return "repaired: G² = λ + T·λmin(Σmin) − √(8·T·L⁴·log(d/δ)), Σmin a lower bound on E[zzᵀ|F]"
	}
	return c.String()
}

// Hypotheses are the constants Theorem 1 assumes for a sequence: ‖z‖ ≤ L on
// Z, Σ_s ⪯ SigmaMax, and (for the repaired statement) Σ_s ⪰ SigmaMin, with
// Σ_s = E[z_s z_sᵀ | F_{s−1}]. SigmaMaxUnconditional bounds the unconditional
// moments E[z_s z_sᵀ] instead (nil: the same as SigmaMax, as for i.i.d. and
// deterministic sequences).
type Hypotheses struct {
	L                     float64
	SigmaMax              *mat.SymDense
	SigmaMin              *mat.SymDense // nil means 0
	SigmaMaxUnconditional *mat.SymDense // nil means SigmaMax
	Support               Support
}

// hypEigen holds the least eigenvalues of a Hypotheses' bounds.
type hypEigen struct{ max, min, maxUncond float64 }

func (h Hypotheses) eigen() hypEigen {
	e := hypEigen{max: lambdaMin(h.SigmaMax), min: lambdaMin(h.SigmaMin)}
	e.maxUncond = e.max
	if h.SigmaMaxUnconditional != nil {
		e.maxUncond = lambdaMin(h.SigmaMaxUnconditional)
	}
	return e
}

// Tracker accumulates V_T = λI + Σ_{s≤T} z_s z_sᵀ and the sums Theorem 1 needs
// as z_1, z_2, … arrive. It is O(d²) per step.
type Tracker struct {
	Lambda float64
	V      *mat.SymDense
	T      int
	// SumC is Σ_s ‖V_s − V_{s−1}‖² (operator norm), i.e. Σ_s ‖z_s‖⁴.
	SumC float64
	// MaxZ is max_s ‖z_s‖₂.
	MaxZ float64
}

// NewTracker returns V_0 = λI in dimension d. λ must be positive.
func NewTracker(d int, lambda float64) *Tracker {
	if d < 1 || !(lambda > 0) {
		panic(fmt.Sprintf("theory: NewTracker(d=%d, λ=%v) needs d ≥ 1 and λ > 0", d, lambda))
	}
	v := mat.NewSymDense(d, nil)
	for i := range d {
		v.SetSym(i, i, lambda)
	}
	return &Tracker{Lambda: lambda, V: v}
}

// Dim returns d.
func (t *Tracker) Dim() int { return t.V.SymmetricDim() }

// Add appends z: V ← V + z zᵀ.
func (t *Tracker) Add(z []float64) {
	if len(z) != t.Dim() {
		panic(fmt.Sprintf("theory: Tracker.Add got %d entries, want %d", len(z), t.Dim()))
	}
	t.V.SymRankOne(t.V, 1, mat.NewVecDense(len(z), z))
	n2 := floats.Dot(z, z)
	// ‖z zᵀ‖ (operator norm) = ‖z‖², so C_s = ‖z‖⁴.
	t.SumC += n2 * n2
	t.MaxZ = math.Max(t.MaxZ, math.Sqrt(n2))
	t.T++
}

// Forms returns V_T, V_T⁻¹ and λ_min(V_T).
func (t *Tracker) Forms() (*VForms, error) {
	var eig mat.EigenSym
	if !eig.Factorize(t.V, false) {
		return nil, fmt.Errorf("theory: eigen-decomposition of V_%d failed", t.T)
	}
	lmin := floats.Min(eig.Values(nil))
	var ch mat.Cholesky
	if !ch.Factorize(t.V) {
		return nil, fmt.Errorf("theory: V_%d is not positive definite (λ_min = %g)", t.T, lmin)
	}
	inv := mat.NewSymDense(t.Dim(), nil)
	if err := ch.InverseTo(inv); err != nil {
		return nil, fmt.Errorf("theory: inverting V_%d: %w", t.T, err)
	}
	v := mat.NewSymDense(t.Dim(), nil)
	v.CopySym(t.V)
	return &VForms{V: v, Inv: inv, LambdaMin: lmin}, nil
}

// Quantities are every term of Theorem 1 at one T, for one sequence.
type Quantities struct {
	T, Dim           int
	Lambda, L, Delta float64
	LambdaMinV       float64 // λ_min(V_T)
	// MaxNorm is max_{z∈Z} ‖z‖_{V_T⁻¹} over the hypotheses' support Z.
	MaxNorm float64
	// MaxNormBall is L/√λ_min(V_T), the maximum over the ball of radius L.
	MaxNormBall float64
	// SumC is Σ_s ‖z_s‖⁴ (realised C_s); SumCAPriori is T·L⁴.
	SumC, SumCAPriori float64
	// LambdaMinSigmaMax and LambdaMinSigmaMin are λ_min of the hypotheses'
	// bounds (0 for a nil Σ_min), LambdaMinSigmaMaxU that of the bound on the
	// unconditional moments.
	LambdaMinSigmaMax, LambdaMinSigmaMin, LambdaMinSigmaMaxU float64
	// Bounds holds L/G_T for every Claim.
	Bounds [numClaims]Bound
}

// Violated reports whether claim c's bound is defined and exceeded by MaxNorm.
func (q *Quantities) Violated(c Claim) bool { return q.Bounds[c].Violated(q.MaxNorm) }

// lambdaMin returns the least eigenvalue of a symmetric matrix (0 for nil).
func lambdaMin(m *mat.SymDense) float64 {
	if m == nil {
		return 0
	}
	var eig mat.EigenSym
	if !eig.Factorize(m, false) {
		panic("theory: eigen-decomposition failed")
	}
	return floats.Min(eig.Values(nil))
}

// Quantities evaluates Theorem 1 at the current T for hypotheses h and
// confidence δ.
func (t *Tracker) Quantities(h Hypotheses, delta float64) (Quantities, error) {
	if !(delta > 0 && delta < 1) {
		return Quantities{}, fmt.Errorf("theory: δ must be in (0, 1), got %v", delta)
	}
	if t.MaxZ > h.L*(1+1e-9) {
		return Quantities{}, fmt.Errorf("theory: a z_s has norm %g > L = %g: the sequence breaks the hypothesis ‖z‖ ≤ L", t.MaxZ, h.L)
	}
	f, err := t.Forms()
	if err != nil {
		return Quantities{}, err
	}
	return t.quantitiesFrom(f, h, delta, h.eigen()), nil
}

// quantitiesFrom fills Quantities from precomputed forms and eigenvalues.
func (t *Tracker) quantitiesFrom(f *VForms, h Hypotheses, delta float64, e hypEigen) Quantities {
	d := t.Dim()
	T := float64(t.T)
	L := h.L
	L4 := L * L * L * L
	logTerm := math.Log(float64(d) / delta)
	q := Quantities{
		T: t.T, Dim: d, Lambda: t.Lambda, L: L, Delta: delta,
		LambdaMinV:  f.LambdaMin,
		MaxNorm:     h.Support.MaxNorm(f),
		MaxNormBall: L / math.Sqrt(f.LambdaMin),
		SumC:        t.SumC, SumCAPriori: T * L4,
		LambdaMinSigmaMax: e.max, LambdaMinSigmaMin: e.min, LambdaMinSigmaMaxU: e.maxUncond,
	}
	tau := math.Sqrt(8 * q.SumCAPriori * logTerm)
	q.Bounds[Literal] = NewBound(L, T*e.max-tau)
	q.Bounds[LiteralRealisedC] = NewBound(L, T*e.max-math.Sqrt(8*q.SumC*logTerm))
	q.Bounds[LiteralScalar] = NewBound(L, T*L*L-tau)
	q.Bounds[LiteralUnconditional] = NewBound(L, T*e.maxUncond-tau)
	q.Bounds[Repaired] = NewBound(L, t.Lambda+T*e.min-tau)
	return q
}
