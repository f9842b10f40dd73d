package algorithms

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/neural-adb/nadb/internal/gemm"
	"github.com/neural-adb/nadb/internal/logistic"
	"github.com/neural-adb/nadb/internal/xmath"
)

// plusFitTemperature returns the τ ∈ {0} ∪ {2^{j/4}: j = −24…8} that maximises
// the discounted log-likelihood Σ_s γ^{n−s} log μ(τ m_s) of the prequential
// margins, and that maximum: the member's prequential fit after the one scale
// correction that leaves its policy unchanged.
func plusFitTemperature(marg []float64, gamma float64) (tau, ll float64) {
	n := len(marg)
	w := make([]float64, n)
	f := 1.0
	for s := n - 1; s >= 0; s-- {
		w[s] = f
		f *= gamma
	}
	tau, ll = 0, 0
	for _, ws := range w {
		ll -= ws * math.Ln2
	}
	for j := -24; j <= 8; j++ {
		t := xmath.Pow(2, float64(j)/4)
		v := 0.0
		for s, ms := range marg {
			v += w[s] * logistic.LogSigmoid(t*ms)
		}
		if v > ll {
			tau, ll = t, v
		}
	}
	return tau, ll
}

// newtonU minimises L in u with θ fixed: at most iters damped Newton steps
// from the current u (L is strictly convex in u for λu > 0).
func (m *plusModel) newtonU(mb *plusNet, iters int) {
	d := m.pool.Dim
	n := len(m.duels)
	off := m.offsets(mb, m.c)
	m.c = off
	lu := m.opt.LambdaU
	// margins writes plusDot(u, z_s) + off[s] of every duel into dst;
	// loss is L at the u whose margins mg holds.
	margins := func(dst, u []float64) {
		for s := range n {
			dst[s] = plusDot(u, m.z[s*d:(s+1)*d]) + off[s]
		}
	}
	ny, nsp, nex := growF(&m.nly, n), growF(&m.nlsp, n), growF(&m.nlex, n)
	loss := func(u, mg []float64) float64 {
		for s, v := range mg {
			ny[s] = -v
		}
		plusSoftplusTo(nsp, ny, nex) // logistic.Softplus's bits
		l := 0.0
		for _, v := range nsp {
			l += v
		}
		return l + lu/2*plusDot(u, u)
	}
	w := growF(&m.nw, n)
	mg, mt := growF(&m.nmg, n), growF(&m.nmt, n)
	// After an accepted step mg holds the margins at the new u (the
	// trial's, the same values) and lCur its loss: the next iteration
	// computes neither again.
	known, lCur := false, 0.0
	for range iters {
		if !known {
			margins(mg, mb.u)
		}
		for i := range d {
			m.ngrad[i] = lu * mb.u[i]
		}
		gemm.SigmoidTo(w, mg) // logistic.Sigmoid's bits
		// The gradient's terms −(1 − p_s) z_s (those with a non-zero
		// factor) are added in turn, as plusAxpy adds them, by one
		// gemm.AxpyRows.
		gi, ga := m.nidx[:0], m.nfac[:0]
		for s := range n {
			p := w[s]
			w[s] = p * (1 - p)
			if a := -(1 - p); a != 0 {
				gi, ga = append(gi, int32(s)), append(ga, a)
			}
		}
		m.nidx, m.nfac = gi, ga
		gemm.AxpyRows(m.ngrad[:d], m.z, d, gi, ga)
		// H = Σ_s w_s z_s z_sᵀ + λu I, each entry summed over s in order:
		// row i of the upper triangle adds (w_s z_si)·z_s[i:] for s in
		// turn (gemm.AxpyRows: each product rounded before its sum).
		acc := growF(&m.nacc, d*d)
		clear(acc)
		all := m.nall
		for s := len(all); s < n; s++ {
			all = append(all, int32(s))
		}
		m.nall = all
		col := growF(&m.ncol, n)
		for i := range d {
			for s := range n {
				col[s] = w[s] * m.z[s*d+i]
			}
			gemm.AxpyRows(acc[i*d+i:(i+1)*d], m.z[i:], d, all[:n], col)
		}
		for i := range d {
			acc[i*d+i] += lu
			for j := i; j < d; j++ {
				m.hess.SetSym(i, j, acc[i*d+j])
			}
		}
		if !m.chol.Factorize(m.hess) {
			return
		}
		dir := mat.NewVecDense(d, m.nstep)
		if err := m.chol.SolveVecTo(dir, mat.NewVecDense(d, m.ngrad)); err != nil {
			return
		}
		decr := plusDot(m.ngrad, m.nstep)
		if decr/2 < 1e-12 {
			return
		}
		l0 := lCur
		if !known {
			l0 = loss(mb.u, mg)
		}
		t, ok := 1.0, false
		for range 40 {
			for i := range m.ntrial {
				m.ntrial[i] = mb.u[i] - t*m.nstep[i]
			}
			margins(mt, m.ntrial)
			if lt := loss(m.ntrial, mt); lt <= l0-1e-4*t*decr {
				ok, lCur = true, lt
				break
			}
			t /= 2
		}
		if !ok {
			return
		}
		copy(mb.u, m.ntrial)
		mg, mt = mt, mg
		known = true
	}
}

// fitNu refits ν̂² on the prequential records: with τ̂ a temperature of the
// margins, (τ̂, ν̂²) maximise the discounted (factor gamma per duel)
// log-likelihood Σ_s log μ(τ m_s / √(1 + π τ² ν² v_s / 8)) (the probit
// approximation of the predictive Bradley–Terry probability) by three rounds
// of alternating grid searches, τ over 2^{j/4}, j = −24…8, and ν over 2^{k/4},
// k = −12…40.
func (ps *plusPosterior) fitNu(gamma float64) {
	n := len(ps.recM)
	if n == 0 {
		return
	}
	w := plusDiscounts(&ps.nuCache.w, n, gamma)
	ps.nuCache.begin(ps.recM, ps.recV)
	defer ps.nuCache.end(ps.recM, ps.recV)
	ll := func(tau, nu2 float64) float64 { return ps.nuCache.ll(tau, nu2, ps.recM, ps.recV, w) }
	tau, nu2 := 1.0, ps.nu2
	for range 3 {
		best := math.Inf(-1)
		for k := -12; k <= 40; k++ {
			x := xmath.Pow(2, float64(k)/2)
			if v := ll(tau, x); v > best {
				best, nu2 = v, x
			}
		}
		best = math.Inf(-1)
		for j := -24; j <= 8; j++ {
			x := xmath.Pow(2, float64(j)/4)
			if v := ll(x, nu2); v > best {
				best, tau = v, x
			}
		}
	}
	ps.tau, ps.nu2 = tau, nu2
}

// plusEI returns E[max(X, 0)] for X ~ N(mean, s²): the expected improvement.
func plusEI(mean, s float64) float64 {
	if s <= 0 {
		return max(mean, 0)
	}
	z := mean / s
	return mean*plusPhi(z) + s*xmath.Exp(-z*z/2)/math.Sqrt(2*math.Pi)
}

// plusPhi is the standard normal CDF.
func plusPhi(z float64) float64 { return 0.5 * xmath.Erfc(-z/math.Sqrt2) }
