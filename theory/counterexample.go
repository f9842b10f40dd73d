package theory

import (
	"fmt"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// diagString prints the diagonal of a diagonal matrix (nil: 0).
func diagString(m *mat.SymDense) string {
	if m == nil {
		return "0"
	}
	d := m.SymmetricDim()
	f := make([]string, d)
	for i := range d {
		f[i] = fmtFloat(m.At(i, i))
	}
	return "diag(" + strings.Join(f, ", ") + ")"
}

// Counterexample is a sequence for which a claim of Theorem 1 fails. The
// sequences searched are deterministic, so the failure has probability 1,
// more than any δ < 1 allows.
type Counterexample struct {
	Found     bool
	Claim     Claim
	Generator Generator
	Seq       *Sequence // the first T rows are the counterexample
	Q         Quantities
}

// SmallestCounterexample searches the deterministic adversaries
// AdvSubspace{D: d, K: k, L: L}, k = 0..d, for the smallest d ≤ maxDim and
// then the smallest T ≤ maxT at which claim c is violated on Z.
func SmallestCounterexample(c Claim, maxDim, maxT int, lambda, L, delta float64) (Counterexample, error) {
	for d := 1; d <= maxDim; d++ {
		var best Counterexample
		for k := 0; k <= d; k++ {
			gen := AdvSubspace{D: d, K: k, L: L}
			seq, err := gen.Generate(0, maxT, lambda)
			if err != nil {
				return Counterexample{}, err
			}
			eig := seq.Hyp.eigen()
			tr := NewTracker(d, lambda)
			for s := range maxT {
				if best.Found && s+1 >= best.Q.T {
					break
				}
				tr.Add(seq.Z.RawRowView(s))
				f, err := tr.Forms()
				if err != nil {
					return Counterexample{}, err
				}
				// For T ≥ d the least diagonal Σ_max of the prefix is that of
				// the whole sequence (the warm-up attains every maximum); the
				// whole sequence's Σ_min is a valid lower bound for a prefix.
				q := tr.quantitiesFrom(f, seq.Hyp, delta, eig)
				if s+1 >= d && q.Violated(c) {
					best = Counterexample{Found: true, Claim: c, Generator: gen, Seq: seq, Q: q}
					break
				}
			}
		}
		if best.Found {
			return best, nil
		}
	}
	return Counterexample{Claim: c}, nil
}

// String prints the counterexample exactly: the sequence, every term of the
// theorem, and the comparison.
func (ce Counterexample) String() string {
	if !ce.Found {
		return fmt.Sprintf("no counterexample to %s found", ce.Claim)
	}
	q := ce.Q
	var b strings.Builder
	fmt.Fprintf(&b, "Claim %q fails for d = %d, T = %d (λ = %g, L = %g, δ = %g).\n", ce.Claim.String(), q.Dim, q.T, q.Lambda, q.L, q.Delta)
	fmt.Fprintf(&b, "Sequence (%s, deterministic): %s\n", ce.Generator.Name(), runs(ce.Seq, q.T))
	fmt.Fprintf(&b, "Σ_s = z_s z_sᵀ; Σmax = %s (least diagonal upper bound; for d = 1 every valid Σmax is ≥ max_s Σ_s = L²); Σmin = %s.\n",
		diagString(ce.Seq.Hyp.SigmaMax), diagString(ce.Seq.Hyp.SigmaMin))
	fmt.Fprintf(&b, "V_T = λI + Σ z_s z_sᵀ has λmin(V_T) = %s; Z = %s; max_{z∈Z} ‖z‖_{V_T⁻¹} = %s.\n",
		fmtFloat(q.LambdaMinV), ce.Seq.Hyp.Support, fmtFloat(q.MaxNorm))
	sumC := q.SumCAPriori
	cname := "a priori C_s = L⁴"
	if ce.Claim == LiteralRealisedC {
		sumC, cname = q.SumC, "realised C_s = ‖z_s‖⁴"
	}
	bnd := q.Bounds[ce.Claim]
	switch ce.Claim {
	case Repaired:
		fmt.Fprintf(&b, "G_T² = λ + T·λmin(Σmin) − √(8·T·L⁴·log(d/δ)) = %g + %d·%g − √(%g·log(%g)) = %s.\n",
			q.Lambda, q.T, q.LambdaMinSigmaMin, 8*q.SumCAPriori, float64(q.Dim)/q.Delta, fmtFloat(bnd.Radicand))
	case LiteralScalar:
		fmt.Fprintf(&b, "G_T² = T·L² − √(8·ΣC_s·log(d/δ)) = %d·%g − √(%g·log(%g)) = %s (Σmax = L²·I, %s).\n",
			q.T, q.L*q.L, 8*sumC, float64(q.Dim)/q.Delta, fmtFloat(bnd.Radicand), cname)
	default:
		fmt.Fprintf(&b, "G_T² = T·λmin(Σmax) − √(8·ΣC_s·log(d/δ)) = %d·%g − √(%g·log(%g)) = %s (%s).\n",
			q.T, q.LambdaMinSigmaMax, 8*sumC, float64(q.Dim)/q.Delta, fmtFloat(bnd.Radicand), cname)
	}
	fmt.Fprintf(&b, "Bound L/G_T = %s < %s = max_{z∈Z} ‖z‖_{V_T⁻¹}: violated with probability 1 > δ.", bnd, fmtFloat(q.MaxNorm))
	return b.String()
}

// runs prints z_1..z_T compressing runs of equal vectors.
func runs(seq *Sequence, T int) string {
	var parts []string
	vec := func(s int) string {
		row := seq.Z.RawRowView(s)
		f := make([]string, len(row))
		for i, x := range row {
			f[i] = fmtFloat(x)
		}
		return "(" + strings.Join(f, ", ") + ")"
	}
	for s := 0; s < T; {
		e := s
		for e+1 < T && floats.Equal(seq.Z.RawRowView(e+1), seq.Z.RawRowView(s)) {
			e++
		}
		if e == s {
			parts = append(parts, fmt.Sprintf("z_%d = %s", s+1, vec(s)))
		} else {
			parts = append(parts, fmt.Sprintf("z_%d = … = z_%d = %s", s+1, e+1, vec(s)))
		}
		s = e + 1
	}
	return strings.Join(parts, ", ")
}
