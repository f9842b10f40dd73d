package algorithms

import (
	"math"

	"github.com/neural-adb/nadb/internal/mlp"
	"github.com/neural-adb/nadb/internal/xmath"
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
		mb.w = xmath.Exp(crit(mb) - top)
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
		plusRowsTo(mb.h[start:end], mb.g[start:end], x, mb.u, d)
	}
}

// plusRowsTo writes h_r = g_r + uᵀx_r for the rows of x into h, a
// non-finite value replaced by 0 (the per-row scores of a member).
func plusRowsTo(h, g, x, u []float64, d int) {
	for n := range h {
		h[n] = g[n] + plusDot(u, x[n*d:(n+1)*d])
		if math.IsNaN(h[n]) || math.IsInf(h[n], 0) {
			h[n] = 0
		}
	}
}

// score writes h(x_r) of the member in use for arbitrary rows x (Scorer).
func (m *plusModel) score(dst, x []float64) []float64 {
	terms, averaged, _ := m.terms()
	return plusScoreTo(dst, x, m.pool.Dim, terms, averaged)
}

// terms returns what the scores are made of: while averaging, every member
// with w·τ > 0 with factor w·τ, and the calibration τ of the member in use;
// otherwise the member in use alone with factor and calibration τ (1 before
// any duel was scored, else max(τ, 1/64)).
func (m *plusModel) terms() (terms []plusTerm, averaged bool, scale float64) {
	mb := m.Current()
	if m.avg == nil {
		tau := 1.0
		if len(mb.marg) > 0 {
			tau = max(mb.tau, 1.0/64)
		}
		return []plusTerm{{w: tau, u: mb.u, net: mb.net}}, false, tau
	}
	for _, o := range m.members {
		if o.w*o.tau > 0 {
			terms = append(terms, plusTerm{w: o.w * o.tau, u: o.u, net: o.net})
		}
	}
	return terms, true, mb.tau
}

// plusTerm is one member's part of neural-adb-plus's scores: its factor w,
// its linear part u and its network (nil: g ≡ 0).
type plusTerm struct {
	w   float64
	u   []float64
	net *mlp.Net
}

// plusScoreTo writes the scores of the rows of x (d features each) into
// dst: averaged, Σ_k w_k (g_k(x) + u_kᵀx); otherwise w_1 (g_1(x) + u_1ᵀx) of
// the one term; a non-finite score replaced by 0.
func plusScoreTo(dst, x []float64, d int, terms []plusTerm, averaged bool) []float64 {
	if !averaged {
		return finiteScores(plusMemberScore(dst, x, d, terms[0]))
	}
	if dst == nil {
		dst = make([]float64, len(x)/d)
	}
	clear(dst)
	tmp := make([]float64, len(dst))
	for _, t := range terms {
		plusAxpy(1, plusMemberScore(tmp, x, d, t), dst)
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

// plusMemberScore writes w·(g(x_r) + uᵀx_r) of term t for the rows of x.
func plusMemberScore(dst, x []float64, d int, t plusTerm) []float64 {
	if t.net != nil {
		dst = t.net.Predict(dst, x, nil)
	} else {
		if dst == nil {
			dst = make([]float64, len(x)/d)
		}
		clear(dst)
	}
	for r := range dst {
		dst[r] = t.w * (dst[r] + plusDot(t.u, x[r*d:(r+1)*d]))
	}
	return dst
}
