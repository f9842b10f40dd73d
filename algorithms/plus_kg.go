package algorithms

import (
	"math"

	"github.com/neural-adb/nadb/internal/gemm"
)

// knowledgeGradient appends, for every candidate duel (c, a, b), the expected
// increase of Σ_{c'} max_a E[h_{c',a}] over the pool after its answer: the
// one-step expected reduction of the pool-wide policy loss under the
// linearised posterior (Var h_n = ν̂² z_nᵀΣz_n), with the answer read as a
// Gaussian observation of h_a − h_b whose noise variance is ν̂²/κ,
// κ = μ'(h_a − h_b): the Bradley–Terry Fisher information of the answer, in
// the posterior's units (precision κ/ν̂², not κ). κ is taken at the current
// member's h, without its temperature τ. The posterior mean of row n then
// moves by β_n Z, Z ~ N(0,1), with
//
//	β_n = ν̂² z_nᵀΣψ / √(ν̂²ψᵀΣψ + ν̂²/κ) = ν̂ z_nᵀΣψ / √(ψᵀΣψ + 1/κ),   ψ = z_a − z_b,
//
// and each context contributes E[max_a (h_a + β_a Z)] − max_a h_a (plusKG).
func (l *NeuralADBPlus) knowledgeGradient(dst []float64, qs [][3]int) []float64 {
	ps := l.post
	m, N, K := ps.m, l.pool.Rows(), l.pool.Arms
	M := len(qs)
	h := l.model.H()
	hm := l.model.Current().h // Fisher weights: the member the posterior is of
	ws := &l.kgWS
	sp := growF(&ws.sp, m*M) // column j: Σψ_j
	den := growF(&ws.den, M)
	psi := growF(&ws.psi, m)
	col := growF(&ws.col, m)
	for j, q := range qs {
		ra, rb := q[0]*K+q[1], q[0]*K+q[2]
		ps.diff(psi, ra, rb)
		ps.covTimes(col, psi)
		for r, v := range col {
			sp[r*M+j] = v
		}
		kappa := plusDsigmoid(hm[ra] - hm[rb])
		den[j] = math.Sqrt(ps.nu2) / math.Sqrt(plusDot(psi, col)+1/kappa)
	}
	beta := growF(&ws.beta, N*M)
	gemm.MulTo(beta, ps.z[:N*m], sp, N, m, M)
	bs := growF(&ws.bs, K)
	total := growF(&ws.total, M)
	clear(total)
	bb := growF(&ws.bb, M)
	live := growB(&ws.live, (M+3)/4) // bit j%4 of live[j/4]: candidate j
	// Context by context (the K×M block of β is contiguous), each candidate's
	// total summed over contexts in increasing order.
	for c := range l.pool.Contexts {
		mu, blk := h[c*K:(c+1)*K], beta[c*K*M:(c+1)*K*M]
		best := plusArgmax(mu)
		// plusKG is 0 unless an arm other than best passes its filter
		// mu[best] − mu[a] < 8·|b_a − b_best|; that test, with the same
		// products b = β·den, runs first over all candidates at once, and
		// only the candidates with such an arm go through plusKG (a sum
		// with +0 left out changes nothing).
		for j, v := range blk[best*M : (best+1)*M] {
			bb[j] = v * den[j]
		}
		clear(live)
		for a := range K {
			if a != best { // gap < 8·|row[j]·den[j] − bb[j]|
				gemm.MarkAbove(live, blk[a*M:(a+1)*M], den, bb, 8, mu[best]-mu[a])
			}
		}
		for j := range M {
			if live[j/4]>>(j%4)&1 == 0 {
				continue
			}
			for a := range K {
				bs[a] = blk[a*M+j] * den[j]
			}
			total[j] += plusKG(mu, bs, best, &l.kgWS)
		}
	}
	return append(dst, total...)
}

// kgB2i returns 1 for true, 0 for false (compiled without a branch).
func kgB2i(v bool) int {
	var x int
	if v {
		x = 1
	}
	return x
}

// growB returns (*buf)[:n], reallocating if its capacity is short.
func growB(buf *[]uint8, n int) []uint8 {
	if cap(*buf) < n {
		*buf = make([]uint8, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

// plusArgmax returns the first index of the largest of mu.
func plusArgmax(mu []float64) int {
	best := 0
	for a := range mu {
		if mu[a] > mu[best] {
			best = a
		}
	}
	return best
}

// kgScratch is the workspace of plusKG.
type kgScratch struct {
	env                                                 []int
	cut, sb, sm, sp, den, psi, col, beta, bs, total, bb []float64
	live                                                []uint8
}

// growF returns (*buf)[:n], reallocating if its capacity is short.
func growF(buf *[]float64, n int) []float64 {
	if cap(*buf) < n {
		*buf = make([]float64, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

// plusKG returns E[max_a (mu_a + b_a Z)] − max_a mu_a for Z ~ N(0,1), exactly
// (best = plusArgmax(mu)):
// the upper envelope of the lines mu_a + b_a z, integrated against the normal
// density (Frazier, Powell and Dayanik 2009).
// Arms whose line cannot reach the envelope within 8 standard deviations are
// ignored (their contribution is below 1e-14 of the slope differences).
func plusKG(mu, b []float64, best int, ws *kgScratch) float64 {
	K := len(mu)
	if cap(ws.sb) < K {
		ws.sb, ws.sm = make([]float64, K), make([]float64, K)
		ws.env, ws.cut = make([]int, 0, K), make([]float64, 0, K)
	}
	// The lines that can reach the envelope, by increasing slope, then
	// increasing mean, equal ones in arm order (an insertion sort: the order
	// of a stable sort). Every line is written and the count advanced past
	// those that pass the filter (no branch on it). No value is NaN here:
	// the filter admits none but best's, and with best's every other arm
	// fails it.
	sb, sm := ws.sb[:K], ws.sm[:K]
	mb, bb := mu[best], b[best]
	n := 0
	for a := range mu {
		ba, ma := b[a], mu[a]
		sb[n], sm[n] = ba, ma
		pass := mb-ma < 8*math.Abs(ba-bb)
		if a == best {
			pass = true
		}
		n += kgB2i(pass)
	}
	for k := 1; k < n; k++ {
		bk, mk := sb[k], sm[k]
		q := k
		for ; q > 0 && (bk < sb[q-1] || (bk == sb[q-1] && mk < sm[q-1])); q-- {
			sb[q], sm[q] = sb[q-1], sm[q-1]
		}
		sb[q], sm[q] = bk, mk
	}
	if n < 2 {
		return 0
	}
	// Upper envelope by increasing slope; env holds positions in (sb, sm),
	// cut[k] the z where env[k] takes over from env[k−1].
	env, cut := ws.env[:0], ws.cut[:0]
	for i := range n {
		bi, mi := sb[i], sm[i]
		// z ends as the cut with the top that stays, −∞ if none does (a
		// line of the same slope can only be the top, and only at first).
		z := math.Inf(-1)
		for len(env) > 0 {
			top := env[len(env)-1]
			if sb[top] == bi { // same slope, mi ≥ sm[top]
				env = env[:len(env)-1]
				cut = cut[:len(cut)-1]
				continue
			}
			z = (sm[top] - mi) / (bi - sb[top])
			if len(env) > 1 && z <= cut[len(cut)-1] {
				env = env[:len(env)-1]
				cut = cut[:len(cut)-1]
				continue
			}
			break
		}
		env = append(env, i)
		cut = append(cut, z)
	}
	ws.env, ws.cut = env, cut
	kg := 0.0
	for k := 1; k < len(env); k++ {
		c := math.Abs(cut[k])
		kg += (sb[env[k]] - sb[env[k-1]]) * (plusPhi(-c)*(-c) + math.Exp(-c*c/2)/math.Sqrt(2*math.Pi))
	}
	return kg
}
