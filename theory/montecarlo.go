package theory

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/neural-adb/nadb/internal/par"
	"github.com/neural-adb/nadb/internal/stats"
)

// Theorem1Options configures CheckTheorem1.
type Theorem1Options struct {
	Generators []Generator
	T          []int // checkpoints, strictly increasing, ≥ 1
	Seeds      int   // sequences per generator
	FirstSeed  uint64
	Lambda     float64 // V_0 = λI
	Delta      float64 // the theorem's δ
	Level      float64 // level of the reported intervals (0.95)
	// SlopePoints is the number of largest checkpoints the log–log slopes
	// are fitted on (at least 3).
	SlopePoints int
	// Workers runs sequences in parallel (0: GOMAXPROCS). Results do not
	// depend on it.
	Workers int
}

// SyntheticGenerators returns the synthetic generators in dimension d with
// ‖z‖ ≤ L: i.i.d. isotropic, i.i.d. anisotropic (axis ratio 0.7), greedy and
// ε-greedy (ε = 0.5) over 8d candidates, the adversaries staying in a
// 0- and a 1-dimensional subspace and a random d/2-dimensional one, and the
// two sequences in d = 1 that start with z_1 = L and then never vanish
// (L/√2 throughout, or i.i.d. uniform on (−L, L)).
func SyntheticGenerators(d int, L float64) []Generator {
	return []Generator{
		IIDIsotropic{D: d, L: L},
		IIDAnisotropic{D: d, L: L, Ratio: 0.7},
		Greedy{D: d, N: 8 * d, L: L},
		EpsGreedy{D: d, N: 8 * d, L: L, Eps: 0.5},
		AdvSubspace{D: d, K: 0, L: L},
		AdvSubspace{D: d, K: 1, L: L},
		AdvRandomSubspace{D: d, K: max(1, d/2), L: L},
		SpikeThenConstant{L: L, C: 1 / math.Sqrt2},
		SpikeThenUniform{L: L},
	}
}

// DefaultTheorem1Options returns the synthetic check: d = 4, L = λ = 1,
// δ = 0.05, T = 8 … 16384 (4096 when quick), 200 seeds (30 when quick).
func DefaultTheorem1Options(quick bool) Theorem1Options {
	o := Theorem1Options{
		Generators: SyntheticGenerators(4, 1),
		Seeds:      200, Lambda: 1, Delta: 0.05, Level: 0.95, SlopePoints: 5,
	}
	maxExp := 14
	if quick {
		o.Seeds, maxExp = 30, 12
	}
	for e := 3; e <= maxExp; e++ {
		o.T = append(o.T, 1<<e)
	}
	return o
}

// NeuralTheorem1Options returns the check on the sequences Neural-ADB (as
// written, and with random contexts) queries at the reduced scale of
// DefaultNeuralSequence: T = 8 … 1024 (256 when quick), 20 seeds (4).
func NeuralTheorem1Options(quick bool) Theorem1Options {
	o := Theorem1Options{
		Generators: []Generator{DefaultNeuralSequence("neural-adb-ucb"), DefaultNeuralSequence("neural-adb-ucb-randctx")},
		Seeds:      20, Lambda: 1, Delta: 0.05, Level: 0.95, SlopePoints: 4,
	}
	maxExp := 10
	if quick {
		o.Seeds, maxExp = 4, 8
	}
	for e := 3; e <= maxExp; e++ {
		o.T = append(o.T, 1<<e)
	}
	return o
}

func (o Theorem1Options) validate() error {
	switch {
	case len(o.Generators) == 0:
		return fmt.Errorf("theory: no generators")
	case len(o.T) == 0 || o.T[0] < 1 || !increasing(o.T):
		return fmt.Errorf("theory: checkpoints %v must be positive and strictly increasing", o.T)
	case o.Seeds < 1:
		return fmt.Errorf("theory: seeds = %d, need ≥ 1", o.Seeds)
	case !(o.Lambda > 0):
		return fmt.Errorf("theory: λ = %v must be positive", o.Lambda)
	case !(o.Delta > 0 && o.Delta < 1):
		return fmt.Errorf("theory: δ = %v must be in (0, 1)", o.Delta)
	case !(o.Level > 0 && o.Level < 1):
		return fmt.Errorf("theory: level = %v must be in (0, 1)", o.Level)
	case o.SlopePoints < 3:
		return fmt.Errorf("theory: slope points = %d, need ≥ 3", o.SlopePoints)
	}
	return nil
}

func increasing(x []int) bool {
	for i := 1; i < len(x); i++ {
		if x[i] <= x[i-1] {
			return false
		}
	}
	return true
}

// ClaimPoint aggregates one claim at one checkpoint over seeds.
type ClaimPoint struct {
	Defined    int // seeds whose bound is defined
	Violations int // seeds with max_{z∈Z} ‖z‖_{V_T⁻¹} > bound
	// BallViolations counts seeds with L/√λmin(V_T) > bound: the proof's
	// intermediate claim λmin(V_T) ≥ G_T² fails.
	BallViolations int
	// Bound is the mean of the defined bounds (undefined when none is).
	Bound Bound
	// Freq is Violations/N with its Clopper–Pearson interval at Level.
	Freq, FreqLo, FreqHi float64
}

// Theorem1Point aggregates one generator at one checkpoint.
type Theorem1Point struct {
	Generator string
	T, N      int
	// MaxNorm is the mean of max_{z∈Z} ‖z‖_{V_T⁻¹} and MaxNormHalf the
	// half-width of its t interval at Level (0 when N = 1).
	MaxNorm, MaxNormHalf float64
	MaxNormBall          float64 // mean of L/√λmin(V_T)
	LambdaMinV           float64 // mean of λmin(V_T)
	L                    float64 // mean of L (constant except for pool-based generators)
	Claims               [numClaims]ClaimPoint
}

// Slope is a log–log slope with the half-width of its interval; OK is false
// when fewer than three points were available (then Value and Half are 0).
type Slope struct {
	Value, Half float64
	Points      int
	OK          bool
}

func (s Slope) String() string {
	if !s.OK {
		return "n/a"
	}
	return fmt.Sprintf("%.3f ± %.3f", s.Value, s.Half)
}

// Verdict summarises a claim for one generator over all checkpoints.
type Verdict string

const (
	// Holds: no checkpoint shows a violation frequency above δ (the
	// Clopper–Pearson lower end stays ≤ δ).
	Holds Verdict = "holds"
	// Fails: at some checkpoint the violation frequency is above δ with
	// confidence (its Clopper–Pearson lower end exceeds δ).
	Fails Verdict = "fails"
	// Vacuous: the bound is undefined at every checkpoint and seed.
	Vacuous Verdict = "vacuous"
)

// ClaimSummary is a claim's verdict for one generator.
type ClaimSummary struct {
	Claim   Claim
	Verdict Verdict
	// WorstT and WorstFreq locate the highest violation frequency.
	WorstT    int
	WorstFreq float64
	// FirstFailT is the smallest checkpoint whose violation frequency is
	// above δ with confidence (0 if none).
	FirstFailT int
	// DefinedFrom is the smallest checkpoint where the bound is defined for
	// every seed (0 if none).
	DefinedFrom int
	// BoundSlope is the log–log slope of the mean bound over the largest
	// SlopePoints checkpoints where it is defined for every seed.
	BoundSlope Slope
}

// GeneratorSummary is one generator's results.
type GeneratorSummary struct {
	Name string
	Dim  int
	Doc  GeneratorDoc
	// EmpiricalSlope is the log–log slope of mean max_{z∈Z}‖z‖_{V_T⁻¹} over
	// the largest SlopePoints checkpoints (Theorem 1 predicts −1/2).
	EmpiricalSlope Slope
	Claims         []ClaimSummary
}

// Theorem1Report is the result of CheckTheorem1.
type Theorem1Report struct {
	Options    Theorem1Options
	Points     []Theorem1Point // generator-major, then T
	Generators []GeneratorSummary
	// Sequences holds every drawn sequence's quantities, generator-major,
	// then seed: the per-seed values that Points aggregate (absent in a
	// report read back from theorem1.csv).
	Sequences []SequenceValues
}

// SequenceValues is one drawn sequence of a generator: its seed and its
// quantities at every checkpoint (Options.T).
type SequenceValues struct {
	Generator string
	Seed      uint64
	Q         []Quantities
}

// seqResult holds one sequence's quantities at every checkpoint.
type seqResult struct {
	q   []Quantities
	err error
}

// CheckTheorem1 draws opts.Seeds sequences from every generator, evaluates
// every claim at every checkpoint, and aggregates violation frequencies,
// bounds and slopes. It is deterministic for given options.
func CheckTheorem1(ctx context.Context, opts Theorem1Options) (*Theorem1Report, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	G := len(opts.Generators)
	res := make([][]seqResult, G)
	for g := range res {
		res[g] = make([]seqResult, opts.Seeds)
	}
	err := par.ForEach(ctx, G*opts.Seeds, opts.Workers, func(k int) error {
		g, i := k/opts.Seeds, k%opts.Seeds
		q, err := runSequence(opts.Generators[g], opts.FirstSeed+uint64(i), opts)
		res[g][i] = seqResult{q: q, err: err}
		return nil
	}, nil)
	if err != nil {
		return nil, err
	}
	rep := &Theorem1Report{Options: opts}
	for g, gen := range opts.Generators {
		for i := range res[g] {
			if err := res[g][i].err; err != nil {
				return nil, fmt.Errorf("%s, seed %d: %w", gen.Name(), opts.FirstSeed+uint64(i), err)
			}
		}
		for i, r := range res[g] {
			rep.Sequences = append(rep.Sequences, SequenceValues{Generator: gen.Name(), Seed: opts.FirstSeed + uint64(i), Q: r.q})
		}
		pts := aggregate(gen.Name(), res[g], opts)
		rep.Points = append(rep.Points, pts...)
		rep.Generators = append(rep.Generators, summarise(gen, pts, opts))
	}
	return rep, nil
}

// runSequence draws one sequence and evaluates it at every checkpoint.
func runSequence(gen Generator, seed uint64, opts Theorem1Options) ([]Quantities, error) {
	Tmax := opts.T[len(opts.T)-1]
	seq, err := gen.Generate(seed, Tmax, opts.Lambda)
	if err != nil {
		return nil, err
	}
	eig := seq.Hyp.eigen()
	tr := NewTracker(gen.Dim(), opts.Lambda)
	out := make([]Quantities, 0, len(opts.T))
	next := 0
	for s := range Tmax {
		tr.Add(seq.Z.RawRowView(s))
		if s+1 != opts.T[next] {
			continue
		}
		if tr.MaxZ > seq.Hyp.L*(1+1e-9) {
			return nil, fmt.Errorf("z_%d has norm %g > L = %g", s+1, tr.MaxZ, seq.Hyp.L)
		}
		f, err := tr.Forms()
		if err != nil {
			return nil, err
		}
		out = append(out, tr.quantitiesFrom(f, seq.Hyp, opts.Delta, eig))
		next++
	}
	return out, nil
}

// clopperPearson returns the exact two-sided interval of a binomial
// proportion k/n at level.
func clopperPearson(k, n int, level float64) (lo, hi float64) {
	a := (1 - level) / 2
	lo, hi = 0, 1
	if k > 0 {
		lo = distuv.Beta{Alpha: float64(k), Beta: float64(n - k + 1)}.Quantile(a)
	}
	if k < n {
		hi = distuv.Beta{Alpha: float64(k + 1), Beta: float64(n - k)}.Quantile(1 - a)
	}
	return lo, hi
}

func aggregate(name string, res []seqResult, opts Theorem1Options) []Theorem1Point {
	n := len(res)
	pts := make([]Theorem1Point, len(opts.T))
	norms := make([]float64, n)
	for k, T := range opts.T {
		p := Theorem1Point{Generator: name, T: T, N: n}
		ball, lmin, L := 0.0, 0.0, 0.0
		for i, r := range res {
			q := r.q[k]
			norms[i] = q.MaxNorm
			ball += q.MaxNormBall
			lmin += q.LambdaMinV
			L += q.L
		}
		p.MaxNorm, p.MaxNormHalf = stats.MeanCI(norms, opts.Level)
		if n == 1 {
			p.MaxNormHalf = 0
		}
		p.MaxNormBall, p.LambdaMinV, p.L = ball/float64(n), lmin/float64(n), L/float64(n)
		for _, c := range Claims {
			cp := &p.Claims[c]
			sum := 0.0
			for _, r := range res {
				q := r.q[k]
				b := q.Bounds[c]
				if !b.Defined {
					continue
				}
				cp.Defined++
				sum += b.Value
				if b.Violated(q.MaxNorm) {
					cp.Violations++
				}
				if b.Violated(q.MaxNormBall) {
					cp.BallViolations++
				}
			}
			if cp.Defined > 0 {
				cp.Bound = Bound{Value: sum / float64(cp.Defined), Defined: true}
			}
			cp.Freq = float64(cp.Violations) / float64(n)
			cp.FreqLo, cp.FreqHi = clopperPearson(cp.Violations, n, opts.Level)
		}
		pts[k] = p
	}
	return pts
}

// logSlope fits log y on log x over the last k points with y > 0.
func logSlope(x, y []float64, k int, level float64) Slope {
	var lx, ly []float64
	for i := range x {
		if y[i] > 0 && !math.IsInf(y[i], 0) && !math.IsNaN(y[i]) {
			lx = append(lx, math.Log(x[i]))
			ly = append(ly, math.Log(y[i]))
		}
	}
	if len(lx) > k {
		lx, ly = lx[len(lx)-k:], ly[len(ly)-k:]
	}
	if len(lx) < 3 {
		return Slope{Points: len(lx)}
	}
	b, half := stats.Slope(lx, ly, level)
	if math.IsNaN(half) {
		half = 0 // a perfect fit: zero residual variance
	}
	return Slope{Value: b, Half: half, Points: len(lx), OK: true}
}

func summarise(gen Generator, pts []Theorem1Point, opts Theorem1Options) GeneratorSummary {
	s := GeneratorSummary{Name: gen.Name(), Dim: gen.Dim(), Doc: gen.Doc()}
	ts := make([]float64, len(pts))
	emp := make([]float64, len(pts))
	for k, p := range pts {
		ts[k] = float64(p.T)
		emp[k] = p.MaxNorm
	}
	s.EmpiricalSlope = logSlope(ts, emp, opts.SlopePoints, opts.Level)
	for _, c := range Claims {
		cs := ClaimSummary{Claim: c, Verdict: Vacuous, WorstFreq: -1}
		var bx, by []float64
		for _, p := range pts {
			cp := p.Claims[c]
			if cp.Defined > 0 && cs.Verdict == Vacuous {
				cs.Verdict = Holds
			}
			if cp.Defined == p.N {
				if cs.DefinedFrom == 0 {
					cs.DefinedFrom = p.T
				}
				bx = append(bx, float64(p.T))
				by = append(by, cp.Bound.Value)
			}
			if cp.Freq > cs.WorstFreq {
				cs.WorstFreq, cs.WorstT = cp.Freq, p.T
			}
			if cp.FreqLo > opts.Delta {
				cs.Verdict = Fails
				if cs.FirstFailT == 0 {
					cs.FirstFailT = p.T
				}
			}
		}
		cs.BoundSlope = logSlope(bx, by, opts.SlopePoints, opts.Level)
		s.Claims = append(s.Claims, cs)
	}
	return s
}

// Verdict returns the verdict of claim c for the named generator.
func (r *Theorem1Report) Verdict(generator string, c Claim) (ClaimSummary, bool) {
	for _, g := range r.Generators {
		if g.Name != generator {
			continue
		}
		for _, cs := range g.Claims {
			if cs.Claim == c {
				return cs, true
			}
		}
	}
	return ClaimSummary{}, false
}

// fmtFloat formats x for tables with the shortest round-tripping digits.
func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
