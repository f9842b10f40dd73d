package algorithms

import (
	"math"

	"github.com/neural-adb/nadb/internal/mlp"
)

// The per-row state of neural-adb-plus's model family: every member's scores
// on the pool, their average, and scores of arbitrary rows (Scorer).

// grow extends the per-row state to rows pool rows (new slots unused).
func (m *plusModel) grow(rows int) {
	for len(m.slot) < rows {
		m.slot = append(m.slot, -1)
	}
	for _, mb := range m.members {
		mb.g, mb.h = resize(mb.g, rows), resize(mb.h, rows)
	}
	if m.avg != nil {
		m.avg = resize(m.avg, rows)
	}
}

// evalRows recomputes g, h of every member and the averaged scores on the
// pool rows lo … hi−1 (rows whose features changed).
func (m *plusModel) evalRows(lo, hi int) {
	if lo >= hi {
		return
	}
	for _, mb := range m.members {
		m.refreshRows(mb, lo, hi)
	}
	if m.avg != nil {
		clear(m.avg[lo:hi])
		tb := m.Current().tau
		for _, mb := range m.members {
			plusAxpy(mb.w*mb.tau/tb, mb.h[lo:hi], m.avg[lo:hi])
		}
	}
}

// average sets the weights w_k ∝ exp(crit_k) of the members (the
// prequential log-likelihood is a log marginal likelihood, so these are
// Bayesian model-averaging weights over the grid) and the averaged scores
// h̄ = Σ_k w_k τ_k h_k / τ_best, the calibrated average on the scale of the
// member in use. While the member in use has τ = 0 (it predicts no better
// than a coin) nothing is averaged.
func (m *plusModel) average(crit func(*plusNet) float64) {
	tb := m.Current().tau
	if !(tb > 0) {
		m.avg = nil
		return
	}
	top := crit(m.Current())
	sum := 0.0
	for _, mb := range m.members {
		mb.w = math.Exp(crit(mb) - top)
		sum += mb.w
	}
	if m.avg == nil {
		m.avg = make([]float64, m.pool.Rows())
	}
	clear(m.avg)
	for _, mb := range m.members {
		mb.w /= sum
		plusAxpy(mb.w*mb.tau/tb, mb.h, m.avg)
	}
}

// refresh recomputes g and h on the whole pool.
func (m *plusModel) refresh(mb *plusNet) { m.refreshRows(mb, 0, m.pool.Rows()) }

// refreshRows recomputes g and h on the pool rows lo … hi−1; a non-finite
// score (features beyond what the arithmetic can hold) becomes 0.
func (m *plusModel) refreshRows(mb *plusNet, lo, hi int) {
	if m.full == nil {
		m.full = mlp.NewBatch(mb.net.Arch, 1024)
	}
	d := m.pool.Dim
	for start, x := range m.pool.Blocks(lo, hi, &m.xblock) {
		end := start + len(x)/d
		mb.net.Predict(mb.g[start:end], x, m.full)
		for n := start; n < end; n++ {
			mb.h[n] = mb.g[n] + plusDot(mb.u, x[(n-start)*d:(n-start+1)*d])
			if math.IsNaN(mb.h[n]) || math.IsInf(mb.h[n], 0) {
				mb.h[n] = 0
			}
		}
	}
}

// score writes h(x_r) of the member in use for arbitrary rows x (Scorer).
func (m *plusModel) score(dst, x []float64) []float64 {
	mb := m.Current()
	if m.avg == nil {
		tau := 1.0
		if len(mb.marg) > 0 {
			tau = max(mb.tau, 1.0/64)
		}
		return finiteScores(m.memberScore(dst, x, mb, tau))
	}
	if dst == nil {
		dst = make([]float64, len(x)/m.pool.Dim)
	}
	clear(dst)
	tmp := make([]float64, len(dst))
	for _, o := range m.members {
		if o.w*o.tau > 0 {
			plusAxpy(1, m.memberScore(tmp, x, o, o.w*o.tau), dst)
		}
	}
	return finiteScores(dst)
}

// finiteScores replaces non-finite scores (features beyond what the
// arithmetic can hold) by 0.
func finiteScores(s []float64) []float64 {
	for i, v := range s {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			s[i] = 0
		}
	}
	return s
}

// memberScore writes scale·h(x_r) of member mb for the rows of x.
func (m *plusModel) memberScore(dst, x []float64, mb *plusNet, scale float64) []float64 {
	dst = mb.net.Predict(dst, x, nil)
	d := m.pool.Dim
	for r := range dst {
		dst[r] = scale * (dst[r] + plusDot(mb.u, x[r*d:(r+1)*d]))
	}
	return dst
}
