package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// BootstrapPercentile returns the percentile bootstrap interval at level
// (e.g. 0.95) of a statistic of n paired units (seeds): b resamples of the
// indices 0…n−1 drawn with replacement from rng, stat evaluated on each,
// and the empirical α/2 and 1 − α/2 quantiles of the b values (order
// statistics ⌊b·α/2⌋ and ⌈b·(1 − α/2)⌉ − 1, counting from 0). The statistic
// may be ±Inf (for example "never reached"), which sorts to the ends; a NaN
// value makes both bounds NaN. The resamples, and so the interval, depend
// only on rng's state: with a fixed PCG stream the interval is reproducible.
// It panics if n < 1 or b < 1.
func BootstrapPercentile(n, b int, level float64, rng *rand.Rand, stat func(idx []int) float64) (lo, hi float64) {
	if n < 1 || b < 1 {
		panic("stats: BootstrapPercentile needs n ≥ 1 and b ≥ 1")
	}
	vals := make([]float64, b)
	idx := make([]int, n)
	for k := range vals {
		for i := range idx {
			idx[i] = rng.IntN(n)
		}
		vals[k] = stat(idx)
		if math.IsNaN(vals[k]) {
			return math.NaN(), math.NaN()
		}
	}
	slices.Sort(vals)
	alpha := 1 - level
	l := int(math.Floor(float64(b) * alpha / 2))
	h := int(math.Ceil(float64(b)*(1-alpha/2))) - 1
	return vals[min(max(l, 0), b-1)], vals[min(max(h, 0), b-1)]
}
