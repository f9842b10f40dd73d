package algorithms

import (
	"math"
	"math/rand/v2"

	"github.com/neural-adb/nadb/internal/gram"
)

// Confidence is the exact confidence state of V = a·I + Σ_s ψ_s ψ_sᵀ (eqs. 3
// and 6) that the learners read: norms ‖·‖²_{V⁻¹} of arm pairs and arms of
// the contexts on offer. Rows are pool rows (n = c·Arms + a). Implemented by
// gram.Confidence (a fixed pool: every context's K×K block kept by rank-one
// updates), gram.Primal (low-dimensional raw features: V⁻¹ kept explicitly)
// and the streaming form of the fresh-context reading.
type Confidence interface {
	Add(i, j int)          // V ← V + ψψᵀ, ψ = φ_i − φ_j
	AddRow(i int)          // V ← V + φ_i φ_iᵀ
	Len() int              // updates so far
	Reg() float64          // a
	Block(c int) []float64 // Q_c = Φ_c V⁻¹ Φ_cᵀ, K×K row-major (read only)
	Norm2(c, a, b int) float64
	RowNorm2(c, a int) float64
	MaxPair(c int) (a, b int, norm2 float64)
	MaxPairFunc(c int, ok func(a, b int) bool) (a, b int, norm2 float64)
}

var (
	_ Confidence = (*gram.Confidence)(nil)
	_ Confidence = (*gram.Primal)(nil)
)

// maxPair is conf.MaxPair over the pairs o allows. Norms that are not
// numbers (features of extreme scale) rank lowest: a pair is always
// returned, the first allowed one if no norm is a number.
func maxPair(conf Confidence, o Offer, c, arms int) (a, b int, norm2 float64) {
	if o.Allowed == nil {
		a, b, norm2 = conf.MaxPair(c)
	} else {
		a, b, norm2 = conf.MaxPairFunc(c, func(a, b int) bool { return o.Allowed(c, a, b) })
	}
	if a != b && !math.IsNaN(norm2) {
		return a, b, norm2
	}
	for a := range arms {
		for b := a + 1; b < arms; b++ {
			if o.Allows(c, a, b) {
				return a, b, math.Inf(-1)
			}
		}
	}
	panic("algorithms: an offered context without an allowed pair")
}

// staleBounder is a Confidence that can bound a context's largest pair norm
// without bringing the context up to date (gram.Confidence).
type staleBounder interface {
	MaxPairBound(c int, ok func(a, b int) bool) (norm2 float64, exact bool)
}

// argmaxPreparer is a Confidence that can get ready for argmaxMaxPair's
// walk over ctxs under offer o (streamConfidence: solve the fresh contexts
// together, dropping those it proves the walk will skip), after which its
// MaxPairBound serves the walk.
type argmaxPreparer interface {
	prepareArgmax(o Offer, ctxs []int)
}

// argmaxMaxPair returns ctxs[ArgmaxRand(norms, -1, rng)] for the norms
// norms[i] of maxPair(conf, o, ctxs[i]), with the same draws from rng. When
// conf can bound norms it reads the norm of a context only if its bound
// reaches the largest norm read so far: a context below it can neither be
// ArgmaxRand's new maximum nor tie with it, so ArgmaxRand's walk, and its
// draws, are the same. Entries of norms for skipped contexts are left as
// they were.
func argmaxMaxPair(conf Confidence, o Offer, ctxs []int, norms []float64, arms int, rng *rand.Rand) int {
	if p, ok := conf.(argmaxPreparer); ok {
		p.prepareArgmax(o, ctxs)
	}
	bc, ok := conf.(staleBounder)
	if !ok {
		for i, c := range ctxs {
			_, _, norms[i] = maxPair(conf, o, c, arms)
		}
		return ctxs[ArgmaxRand(norms, -1, rng)]
	}
	var cur *int // the context allowed asks about; nil without Allowed
	var allowed func(a, b int) bool
	if o.Allowed != nil {
		cur = new(int)
		allowed = func(a, b int) bool { return o.Allowed(*cur, a, b) }
	}
	best, ties := -1, 0
	for i, c := range ctxs {
		if best >= 0 {
			if cur != nil {
				*cur = c
			}
			if bound, exact := bc.MaxPairBound(c, allowed); !exact && bound < norms[best] {
				continue
			}
		}
		_, _, v := maxPair(conf, o, c, arms)
		norms[i] = v
		switch {
		case best < 0 || v > norms[best]:
			best, ties = i, 1
		case v == norms[best]:
			ties++
			if rng.IntN(ties) == 0 {
				best = i
			}
		}
	}
	return ctxs[best]
}
