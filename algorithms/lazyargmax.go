package algorithms

import (
	"container/heap"
	"math"
	"math/rand/v2"
	"slices"
)

// boundedConfidence is implemented by confidence states that solve blocks on
// demand (lazyConfidence) and can bound a context's norms without solving
// it: the bounds stay valid as V grows, since norms only shrink.
type boundedConfidence interface {
	Confidence
	// MaxPairBound bounds the largest pair norm of context c over any pairs.
	MaxPairBound(c int) float64
	// RowNorm2Bound bounds ‖φ_{c,a}‖²_{V⁻¹}.
	RowNorm2Bound(c, a int) float64
	// Prepare solves the blocks of the contexts together.
	Prepare(ctxs []int)
}

// lazyArgmax returns the index i of ctxs with the largest exact value, given
// upper bounds bound(i) ≥ exact value of i. It evaluates contexts in
// decreasing order of their bounds, in batches of 1, 2, 4, … up to batch
// (exact writes the values of the indices idx into out; a rule that keeps
// choosing one context solves one block per round), and stops once no bound
// left reaches the best value found, so its answer is that of evaluating
// every context.
// Values that are not numbers count as −∞; a bound that is not a number
// counts as +∞. Exact ties are broken uniformly at random by one ArgmaxRand
// over the tied indices in increasing order: the same draws ArgmaxRand over
// all values makes when no smaller values tie before the maximum.
func lazyArgmax(n, batch int, bound func(i int) float64, exact func(idx []int, out []float64), rng *rand.Rand) int {
	h := make(boundHeap, n)
	for i := range n {
		b := bound(i)
		if math.IsNaN(b) {
			b = math.Inf(1)
		}
		h[i] = boundItem{b, int32(i)}
	}
	heap.Init(&h)
	var (
		best  = math.Inf(-1)
		found bool
		ties  []int
		idx   []int
		vals  = make([]float64, batch)
	)
	for size := 1; h.Len() > 0; size = min(2*size, batch) {
		idx = idx[:0]
		for h.Len() > 0 && len(idx) < size && (!found || !(h[0].b < best)) {
			idx = append(idx, int(heap.Pop(&h).(boundItem).i))
		}
		if len(idx) == 0 {
			break
		}
		exact(idx, vals[:len(idx)])
		for k, i := range idx {
			v := vals[k]
			if math.IsNaN(v) {
				v = math.Inf(-1)
			}
			switch {
			case !found || v > best:
				best, found, ties = v, true, append(ties[:0], i)
			case v == best:
				ties = append(ties, i)
			}
		}
	}
	if len(ties) == 1 {
		return ties[0]
	}
	slices.Sort(ties)
	return ties[ArgmaxRand(make([]float64, len(ties)), -1, rng)]
}

type boundItem struct {
	b float64
	i int32
}

// boundHeap is a max-heap of bounds; equal bounds pop in increasing index.
type boundHeap []boundItem

func (h boundHeap) Len() int { return len(h) }
func (h boundHeap) Less(i, j int) bool {
	if h[i].b != h[j].b {
		return h[i].b > h[j].b
	}
	return h[i].i < h[j].i
}
func (h boundHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *boundHeap) Push(x any)   { *h = append(*h, x.(boundItem)) }
func (h *boundHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// maxNormArgmax is the argmax over the offered contexts ctxs of the largest
// allowed pair norm (eq. 3, and APO's joint rule) on a boundedConfidence:
// the index into ctxs, with lazyArgmax's tie rule.
func maxNormArgmax(conf boundedConfidence, o Offer, ctxs []int, arms int, rng *rand.Rand) int {
	var batch []int
	return lazyArgmax(len(ctxs), max(1, lazyBatchRows/arms),
		func(i int) float64 { return conf.MaxPairBound(ctxs[i]) },
		func(idx []int, out []float64) {
			batch = batch[:0]
			for _, i := range idx {
				batch = append(batch, ctxs[i])
			}
			conf.Prepare(batch)
			for k, i := range idx {
				_, _, out[k] = maxPair(conf, o, ctxs[i], arms)
			}
		}, rng)
}
