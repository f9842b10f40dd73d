package theory

// Counterexamples to Theorem 1 as stated that do not rest on a degenerate
// sequence (the smallest one, z_1 = 1 then z_s = 0, can be read as an arm
// dueling itself): a deterministic sequence that never repeats 0, a
// continuous random one, and the monotonicity argument, under which every
// sequence violates the statement.

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// SpikeThenConstant is the deterministic sequence in d = 1 with z_1 = L and
// z_s = C·L for s ≥ 2 (0 < C ≤ 1): no zero step, every step of the same
// size after the first.
type SpikeThenConstant struct{ L, C float64 }

func (g SpikeThenConstant) Name() string { return "spike-then-constant" }
func (g SpikeThenConstant) Dim() int     { return 1 }
func (g SpikeThenConstant) Doc() GeneratorDoc {
	return GeneratorDoc{
		Rule:     fmt.Sprintf("z_1 = L, then z_s = %.4g·L (deterministic, d = 1)", g.C),
		Z:        "[−L, L] (maximum L/√V_T)",
		Sigma:    "deterministic, so Σ_1 = L² and Σ_s = C²L²",
		SigmaMax: "L² = Σ_1: in d = 1 every valid Σmax is at least Σ_1, so this is the least",
		SigmaMin: "C²L², the least Σ_s",
	}
}

func (g SpikeThenConstant) Generate(seed uint64, T int, lambda float64) (*Sequence, error) {
	if err := checkArgs(g.Name(), 1, g.L, T, lambda); err != nil {
		return nil, err
	}
	if !(g.C > 0 && g.C <= 1) {
		return nil, fmt.Errorf("%s: C = %v must be in (0, 1]", g.Name(), g.C)
	}
	z := mat.NewDense(T, 1, nil)
	for s := range T {
		z.Set(s, 0, g.C*g.L)
	}
	z.Set(0, 0, g.L)
	return spikeSequence(z, g.L, g.C*g.C*g.L*g.L), nil
}

// SpikeThenUniform is the random sequence in d = 1 with z_1 = L and z_s
// i.i.d. uniform on (−L, L) for s ≥ 2: continuous, with E[z_s²] = L²/3.
type SpikeThenUniform struct{ L float64 }

func (g SpikeThenUniform) Name() string { return "spike-then-uniform" }
func (g SpikeThenUniform) Dim() int     { return 1 }
func (g SpikeThenUniform) Doc() GeneratorDoc {
	return GeneratorDoc{
		Rule:     "z_1 = L, then z_s i.i.d. uniform on (−L, L) (d = 1)",
		Z:        "[−L, L] (maximum L/√V_T)",
		Sigma:    "Σ_1 = L², Σ_s = L²/3 for s ≥ 2 (independent of the past: conditional = unconditional)",
		SigmaMax: "L² = Σ_1, the least valid one in d = 1",
		SigmaMin: "L²/3",
	}
}

func (g SpikeThenUniform) Generate(seed uint64, T int, lambda float64) (*Sequence, error) {
	if err := checkArgs(g.Name(), 1, g.L, T, lambda); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, streamSpikeUniform))
	z := mat.NewDense(T, 1, nil)
	z.Set(0, 0, g.L)
	for s := 1; s < T; s++ {
		z.Set(s, 0, g.L*(2*rng.Float64()-1))
	}
	return spikeSequence(z, g.L, g.L*g.L/3), nil
}

// spikeSequence completes a d = 1 sequence with Σ_1 = L² and Σ_s = rest.
func spikeSequence(z *mat.Dense, L, rest float64) *Sequence {
	first := mat.NewSymDense(1, []float64{L * L})
	later := mat.NewSymDense(1, []float64{rest})
	sigma := func(s int) *mat.SymDense {
		if s == 1 {
			return first
		}
		return later
	}
	return &Sequence{Z: z, Sigma: sigma, Hyp: Hypotheses{L: L, SigmaMax: first, SigmaMin: later, Support: Ball{R: L}}}
}

// FirstViolation returns the smallest T ≤ maxT at which claim c is violated by
// the sequence gen draws with seed, as a Counterexample (Found is false if
// there is none up to maxT).
func FirstViolation(gen Generator, c Claim, seed uint64, maxT int, lambda, delta float64) (Counterexample, error) {
	seq, err := gen.Generate(seed, maxT, lambda)
	if err != nil {
		return Counterexample{}, err
	}
	eig := seq.Hyp.eigen()
	tr := NewTracker(gen.Dim(), lambda)
	for s := range maxT {
		tr.Add(seq.Z.RawRowView(s))
		f, err := tr.Forms()
		if err != nil {
			return Counterexample{}, err
		}
		if q := tr.quantitiesFrom(f, seq.Hyp, delta, eig); q.Violated(c) {
			return Counterexample{Found: true, Claim: c, Generator: gen, Seq: seq, Q: q}, nil
		}
	}
	return Counterexample{Claim: c, Generator: gen}, nil
}

// UniversalSigmaMax returns the M above which Theorem 1 as stated, with the
// admissible Σ_max = M·I, is violated by every sequence with ‖z_s‖ ≤ L at T,
// with probability 1: (λ + T·L² + τ)/T, τ = √(8·T·L⁴·log(d/δ)).
//
// Σ_s ⪯ L²·I ⪯ M·I for M ≥ L², so M·I is a valid Σ_max. The claimed bound
// L/√(T·M − τ) falls towards 0 as M grows, while V_T ⪯ (λ + T·L²)·I gives
// max_{‖z‖≤L} ‖z‖_{V_T⁻¹} ≥ L/√(λ + T·L²) for every sequence. A weaker
// hypothesis (a larger Σ_max) cannot yield a stronger conclusion in a true
// statement.
func UniversalSigmaMax(T, d int, lambda, L, delta float64) float64 {
	tau := math.Sqrt(8 * float64(T) * L * L * L * L * math.Log(float64(d)/delta))
	return (lambda + float64(T)*L*L + tau) / float64(T)
}

// MonotoneRow is Theorem 1's bound with Σ_max = M·I at one (T, M), against
// the smallest maximum norm any sequence can have.
type MonotoneRow struct {
	T, Dim              int
	Lambda, L, Delta, M float64
	MStar               float64 // UniversalSigmaMax at this T
	Bound               Bound   // L/√(T·M − τ)
	Floor               float64 // L/√(λ + T·L²) ≤ max_{‖z‖≤L} ‖z‖_{V_T⁻¹} for every sequence
	// Universal is M·I beyond UniversalSigmaMax: every sequence violates.
	Universal bool
}

// MonotoneTable evaluates the bound with Σ_max = M·I for every T and M.
func MonotoneTable(ts []int, ms []float64, d int, lambda, L, delta float64) []MonotoneRow {
	var rows []MonotoneRow
	for _, T := range ts {
		tau := math.Sqrt(8 * float64(T) * L * L * L * L * math.Log(float64(d)/delta))
		floor := L / math.Sqrt(lambda+float64(T)*L*L)
		for _, m := range ms {
			b := NewBound(L, float64(T)*m-tau)
			rows = append(rows, MonotoneRow{T: T, Dim: d, Lambda: lambda, L: L, Delta: delta, M: m, MStar: UniversalSigmaMax(T, d, lambda, L, delta),
				Bound: b, Floor: floor, Universal: b.Violated(floor)})
		}
	}
	return rows
}
