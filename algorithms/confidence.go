package algorithms

import (
	"math"

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
