package pool

import (
	"math"

	"github.com/neural-adb/nadb/internal/logistic"
	"github.com/neural-adb/nadb/internal/poolfile"
)

// PairMetrics returns the pairwise accuracy and the mean Bradley–Terry
// negative log-likelihood of the utility estimates h (one per row c·K + a) on
// the strict answers recs: the share whose winner h scores higher (an exact
// tie counts ½) and the mean of −log μ(h(winner) − h(loser)). Both are NaN
// without answers.
func PairMetrics(h []float64, K int, recs []poolfile.Answer) (acc, nll float64) {
	if len(recs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, r := range recs {
		d := h[r.Context*K+r.Arm1] - h[r.Context*K+r.Arm2]
		if r.Y == 0 {
			d = -d
		}
		switch {
		case d > 0:
			acc++
		case d == 0:
			acc += 0.5
		}
		nll += logistic.Softplus(-d) // −log μ(d)
	}
	n := float64(len(recs))
	return acc / n, nll / n
}
