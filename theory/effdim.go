package theory

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Entries is a symmetric kernel K0(i, j) = ⟨φ_i, φ_j⟩ over pool rows
// (mlp.Features, gram.Dense and gram.Linear satisfy it).
type Entries interface {
	Rows() int
	Entry(i, j int) float64
}

// FeatureSet is what the effective dimension needs of the features: their
// kernel, and explicit rows φ_i ∈ R^p when the primal form is cheaper
// (mlp.Features satisfies it).
type FeatureSet interface {
	Entries
	GradientTo(dst []float64, i int) []float64
}

// EffDim is d̃ = log det(I_p + α·𝕍) (eq. 9, α = κ_μ/λ) with the order and
// route of the factorised matrix.
type EffDim struct {
	Value float64
	Route string // "primal" (p×p), "dual" ((K−1)·contexts square) or "series"
	Size  int    // order of the factorised matrix
	// Trace is tr(𝕍) = Σ_c n_c Σ_{a<b} ‖φ_{c,a} − φ_{c,b}‖².
	Trace float64
	// RankBound is min(p, (K−1)·distinct contexts) ≥ rank(𝕍).
	RankBound int
}

// TraceBound returns r·log(1 + α·tr(𝕍)/r) with r = RankBound, an upper bound
// on d̃ (AM–GM on the r nonzero eigenvalues of α𝕍).
func (e EffDim) TraceBound(alpha float64) float64 {
	r := float64(e.RankBound)
	if r == 0 {
		return 0
	}
	return r * math.Log1p(alpha*e.Trace/r)
}

// BriefBound returns p·log(1 + α·T·L²/p), the determinant–trace bound for
// T rank-one terms of norm ≤ L (one queried pair per round). It does not
// bound d̃ of eq. (9), whose 𝕍 has K(K−1)/2 terms per round; see PairsBound.
func BriefBound(p, T int, L, alpha float64) float64 {
	return float64(p) * math.Log1p(alpha*float64(T)*L*L/float64(p))
}

// PairsBound returns p·log(1 + α·T·P·L²/p), P = K(K−1)/2: the
// determinant–trace bound that does hold for eq. (9).
func PairsBound(p, T, arms int, L, alpha float64) float64 {
	P := float64(arms * (arms - 1) / 2)
	return float64(p) * math.Log1p(alpha*float64(T)*P*L*L/float64(p))
}

// distinct returns the contexts with a positive count, in order.
func distinct(counts []int) []int {
	var cs []int
	for c, n := range counts {
		if n < 0 {
			panic(fmt.Sprintf("theory: negative count %d for context %d", n, c))
		}
		if n > 0 {
			cs = append(cs, c)
		}
	}
	return cs
}

// helmert returns the K×(K−1) orthonormal basis U of {x : Σx = 0}
// (row-major), U Uᵀ = I − 11ᵀ/K.
func helmert(K int) []float64 {
	u := make([]float64, K*(K-1))
	for j := 1; j < K; j++ {
		s := 1 / math.Sqrt(float64(j*(j+1)))
		for a := 0; a < j; a++ {
			u[a*(K-1)+j-1] = s
		}
		u[j*(K-1)+j-1] = -float64(j) * s
	}
	return u
}

// seriesCutoff: when α·tr(𝕍) is below it, log det(I + α𝕍) is computed as
// α·tr(𝕍) − α²·tr(𝕍²)/2 (error ≤ (α·tr 𝕍)³/3), because 1 + x loses x in
// floating point long before log det does.
const seriesCutoff = 1e-6

// logDetIPlus returns log det(I + αD) for the symmetric PSD matrix D, with the
// series for tiny α·tr(D).
func logDetIPlus(D *mat.SymDense, alpha, trace float64) (float64, string, error) {
	n := D.SymmetricDim()
	if alpha*trace < seriesCutoff {
		fro2 := 0.0
		for i := range n {
			for j := range n {
				x := D.At(i, j)
				fro2 += x * x
			}
		}
		return alpha*trace - alpha*alpha*fro2/2, "series", nil
	}
	A := mat.NewSymDense(n, nil)
	A.ScaleSym(alpha, D)
	for i := range n {
		A.SetSym(i, i, A.At(i, i)+1)
	}
	var ch mat.Cholesky
	if !ch.Factorize(A) {
		return 0, "", fmt.Errorf("theory: I + α𝕍 (order %d) is not numerically positive definite", n)
	}
	return ch.LogDet(), "", nil
}

// EffectiveDimensionDual computes d̃ from the kernel alone. With the Helmert
// basis U of the zero-sum subspace, Σ_{a<b}(φ_a−φ_b)(φ_a−φ_b)ᵀ =
// K·Φ_cᵀ U Uᵀ Φ_c, so 𝕍 = BᵀB with B stacking √(n_c K)·UᵀΦ_c, and
// d̃ = log det(I + α·B Bᵀ) (Sylvester), a matrix of order (K−1)·#contexts
// whose blocks are K·√(n_c n_c')·Uᵀ K0[c, c'] U. counts[c] is the number of
// rounds whose context was c.
func EffectiveDimensionDual(k Entries, arms int, counts []int, alpha float64) (EffDim, error) {
	if arms < 2 || len(counts)*arms != k.Rows() {
		return EffDim{}, fmt.Errorf("theory: %d contexts × %d arms do not match a kernel of %d rows", len(counts), arms, k.Rows())
	}
	cs := distinct(counts)
	K, k1 := arms, arms-1
	m := k1 * len(cs)
	D := mat.NewSymDense(max(m, 1), nil)
	if m == 0 {
		return EffDim{Route: "dual"}, nil
	}
	U := helmert(K)
	blk := make([]float64, K*K)
	tmp := make([]float64, K*k1)
	out := make([]float64, k1*k1)
	for x, c := range cs {
		for y := x; y < len(cs); y++ {
			c2 := cs[y]
			for a := range K {
				for b := range K {
					blk[a*K+b] = k.Entry(c*K+a, c2*K+b)
				}
			}
			// tmp = blk·U (K × k1), out = Uᵀ·tmp (k1 × k1)
			for a := range K {
				for j := range k1 {
					s := 0.0
					for b := range K {
						s += blk[a*K+b] * U[b*k1+j]
					}
					tmp[a*k1+j] = s
				}
			}
			for i := range k1 {
				for j := range k1 {
					s := 0.0
					for a := range K {
						s += U[a*k1+i] * tmp[a*k1+j]
					}
					out[i*k1+j] = s
				}
			}
			w := float64(K) * math.Sqrt(float64(counts[c])*float64(counts[c2]))
			for i := range k1 {
				for j := range k1 {
					if x == y && j < i {
						continue
					}
					D.SetSym(x*k1+i, y*k1+j, w*out[i*k1+j])
				}
			}
		}
	}
	trace := 0.0
	for i := range m {
		trace += D.At(i, i)
	}
	v, route, err := logDetIPlus(D, alpha, trace)
	if route == "" {
		route = "dual"
	}
	return EffDim{Value: v, Route: route, Size: m, Trace: trace, RankBound: m}, err
}

// EffectiveDimensionPrimal computes d̃ from explicit features phi (rows × p):
// 𝕍 = Σ_c n_c (K·Φ_cᵀΦ_c − s_c s_cᵀ), s_c = Φ_cᵀ1, and d̃ = log det(I_p + α𝕍).
func EffectiveDimensionPrimal(phi *mat.Dense, arms int, counts []int, alpha float64) (EffDim, error) {
	rows, p := phi.Dims()
	if arms < 2 || len(counts)*arms != rows {
		return EffDim{}, fmt.Errorf("theory: %d contexts × %d arms do not match %d feature rows", len(counts), arms, rows)
	}
	V := mat.NewSymDense(p, nil)
	s := mat.NewVecDense(p, nil)
	for _, c := range distinct(counts) {
		blk := phi.Slice(c*arms, (c+1)*arms, 0, p)
		n := float64(counts[c])
		V.SymRankK(V, n*float64(arms), blk.T())
		s.Zero()
		for a := range arms {
			s.AddVec(s, blk.(*mat.Dense).RowView(a))
		}
		V.SymRankOne(V, -n, s)
	}
	trace := 0.0
	for i := range p {
		trace += V.At(i, i)
	}
	v, route, err := logDetIPlus(V, alpha, trace)
	if route == "" {
		route = "primal"
	}
	return EffDim{Value: v, Route: route, Size: p, Trace: trace, RankBound: min(p, (arms-1)*len(distinct(counts)))}, err
}

// EffectiveDimension computes d̃ by the cheaper exact route: the dual when
// (K−1)·#contexts ≤ p, else the primal with explicit rows of the queried
// contexts only.
func EffectiveDimension(f FeatureSet, p, arms int, counts []int, alpha float64) (EffDim, error) {
	cs := distinct(counts)
	if (arms-1)*len(cs) <= p {
		return EffectiveDimensionDual(f, arms, counts, alpha)
	}
	phi := mat.NewDense(f.Rows(), p, nil)
	for _, c := range cs {
		for a := range arms {
			f.GradientTo(phi.RawRowView(c*arms+a), c*arms+a)
		}
	}
	return EffectiveDimensionPrimal(phi, arms, counts, alpha)
}
