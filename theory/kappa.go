package theory

import (
	"fmt"
	"math"
	"slices"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/xmath"
)

// KappaRow tabulates κ_μ = min over contexts and arm pairs of
// μ'(f(c,a) − f(c,b)) (Assumption 1) for one synthetic problem over seeds,
// as computed by experiments.Latent.KappaMu: μ' of the largest
// within-context gap, evaluated without cancellation.
type KappaRow struct {
	Problem          string
	Seeds            int
	Min, Median, Max float64 // of κ_μ over seeds
	// MaxGap is the median over seeds of the largest within-context reward
	// difference max_c (max_a f − min_a f), which sets κ_μ = μ'(MaxGap).
	MaxGap float64
	// NuLower is √(2·log(1/δ)/(κ_μ·λ)) at the median κ_μ: a lower bound on
	// the ν_T that Theorems 2 and 3 prescribe (ν_T ≥ β_T·√(κ_μ/λ) and
	// β_T ≥ √(2 log(1/δ))/κ_μ), to compare with the ν = 1 of the experiments.
	NuLower float64
}

// KappaTable computes κ_μ of each named problem at base's size for seeds
// firstSeed, firstSeed+1, ….
func KappaTable(problems []string, base experiments.ProblemSpec, seeds int, firstSeed uint64, lambda, delta float64) ([]KappaRow, error) {
	if seeds < 1 {
		return nil, fmt.Errorf("theory: seeds = %d, need ≥ 1", seeds)
	}
	var rows []KappaRow
	for _, name := range problems {
		spec := base
		spec.Name = name
		ks := make([]float64, seeds)
		gaps := make([]float64, seeds)
		for i := range seeds {
			prob, err := spec.Build(firstSeed + uint64(i))
			if err != nil {
				return nil, err
			}
			lat, ok := prob.Evaluator.(*experiments.Latent)
			if !ok {
				return nil, fmt.Errorf("theory: problem %q has no latent rewards to compute κ_μ from", name)
			}
			ks[i] = lat.KappaMu()
			for c := 0; c < len(lat.F)/lat.Arms; c++ {
				fc := lat.F[c*lat.Arms : (c+1)*lat.Arms]
				gaps[i] = math.Max(gaps[i], slices.Max(fc)-slices.Min(fc))
			}
		}
		r := KappaRow{Problem: name, Seeds: seeds, Min: slices.Min(ks), Max: slices.Max(ks), Median: median(ks), MaxGap: median(gaps)}
		r.NuLower = math.Sqrt(2 * math.Log(1/delta) / (r.Median * lambda))
		rows = append(rows, r)
	}
	return rows, nil
}

// muPrime returns the logistic derivative μ'(x) = e^{−|x|}/(1 + e^{−|x|})²,
// accurate for every x (no cancellation in 1 − σ(x)); the tests check
// KappaMu against it.
func muPrime(x float64) float64 {
	e := xmath.Exp(-math.Abs(x))
	return e / ((1 + e) * (1 + e))
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
