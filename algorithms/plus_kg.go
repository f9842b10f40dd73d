package algorithms

import (
	"math"

	"github.com/neural-adb/nadb/internal/gemm"
	"github.com/neural-adb/nadb/internal/xmath"
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
//
// With prune, a candidate whose total is shown to be below that of an
// earlier candidate gets −∞ instead (plus_kgprune.go): ArgmaxRand then
// returns the same index and draws the same numbers as on the totals. The
// pruned form keeps the slopes of every term of a round and two values per
// term (contexts × candidates × (K+2) values); above kgPruneMax it sums
// every candidate, as without prune.
func (l *NeuralADBPlus) knowledgeGradient(dst []float64, qs [][3]int, prune bool) []float64 {
	ps := l.post
	m, K := ps.m, l.pool.Arms
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
	// β is formed context by context, one K×M block that stays in cache
	// (not all N×M at once): each entry is the same chain of fused
	// multiply–adds whatever rows a product has (gemm's reproducibility),
	// so the bits are those of one product of all rows.
	blk := growF(&ws.beta, K*M)
	bs := growF(&ws.bs, K)
	total := growF(&ws.total, M)
	clear(total)
	bb := growF(&ws.bb, M)
	live := growB(&ws.live, (M+3)/4) // bit j%4 of live[j/4]: candidate j
	prune = prune && l.pool.Contexts*M*(K+2) <= kgPruneMax
	if prune {
		ws.startPrune(l.pool.Contexts, M, K)
	}
	// Context by context, each candidate's total summed over contexts in
	// increasing order.
	for c := range l.pool.Contexts {
		mu := h[c*K : (c+1)*K]
		if prune { // the block is kept, as the slopes (keep)
			blk = ws.prune.b[c*K*M : (c+1)*K*M]
		}
		gemm.MulTo(blk, ps.z[c*K*m:(c+1)*K*m], sp, K, m, M)
		best := plusArgmax(mu)
		// plusKG is 0 unless an arm other than best passes its filter
		// mu[best] − mu[a] < 8·|b_a − b_best|; that test, with the same
		// products b = β·den, runs first over all candidates at once, and
		// only the candidates with such an arm go through plusKG (a sum
		// with +0 left out changes nothing). Pruned, keep makes the test
		// too (gemm.ScaleColsMark).
		if prune {
			ws.keep(c, best, mu, blk, den, live)
			continue
		}
		// gap < 8·|row[j]·den[j] − bb[j]|, bb = β_best·den
		gemm.MarkAboveRows(live, blk, den, bb, mu, best, K, M, 8)
		for j := range M {
			if live[j/4]>>(j%4)&1 == 0 {
				continue
			}
			for a := range K {
				bs[a] = blk[a*M+j] * den[j]
			}
			ws.add(j, mu, bs, best)
		}
		if ws.full() {
			ws.flush(total)
		}
	}
	if prune {
		return append(dst, ws.pruned(total, h, K)...)
	}
	ws.flush(total)
	return append(dst, total...)
}

// kgBatch is about how many envelope segments are gathered (kgScratch.add)
// before their normal loss is evaluated in one gemm.NormalLoss call.
const kgBatch = 512

// kgCall is one deferred plusKG call: the total it adds to and the number
// of its segments in kgScratch.db and cs.
type kgCall struct{ j, segs int32 }

// add defers plusKG(mu, b, best, ws) for total j: the envelope's segments
// are kept until flush adds their sum, the same bits as plusKG's, to
// total[j]. Calls complete in the order they were added, so a total
// receives its terms in that order.
func (ws *kgScratch) add(j int, mu, b []float64, best int) {
	ws.calls = append(ws.calls, kgCall{j: int32(j), segs: int32(kgSegments(mu, b, best, ws))})
}

// full reports whether the deferred segments reach kgBatch (time to flush).
func (ws *kgScratch) full() bool { return len(ws.cs) >= kgBatch }

// flush completes the deferred calls in order: each call's sum over its
// segments, as plusKG forms it, is added to total[j]; the buffers are
// emptied.
func (ws *kgScratch) flush(total []float64) {
	g := growF(&ws.g, len(ws.cs))
	gemm.NormalLoss(g, ws.cs)
	s := 0
	for _, q := range ws.calls {
		kg := 0.0
		for k := s; k < s+int(q.segs); k++ {
			kg += float64(ws.db[k] * g[k])
		}
		s += int(q.segs)
		total[q.j] += kg
	}
	ws.calls, ws.db, ws.cs = ws.calls[:0], ws.db[:0], ws.cs[:0]
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

// kgScratch is the workspace of plusKG and knowledgeGradient; db, cs and
// calls hold the segments and calls knowledgeGradient defers.
type kgScratch struct {
	env                                                 []int
	cut, sb, sm, sp, den, psi, col, beta, bs, total, bb []float64
	db, cs, g                                           []float64
	calls                                               []kgCall
	live                                                []uint8
	prune                                               kgPrune
	// keys is kgSortNet's: 128 bytes on the heap, which Go's allocator
	// puts on a 128-byte boundary, so that gemm.SlopeKeys' two 64-byte
	// stores each fill one cache line (on the stack they may straddle
	// two, and the loads that follow then wait for them).
	keys *[16]int64
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
// density (Frazier, Powell and Dayanik 2009): the sum over the envelope's
// segments k = 1, 2, … in order of (b_k − b_{k−1})·L(|z_k|), z_k the cut
// where line k takes over and L the normal loss (gemm.NormalLoss).
// Arms whose line cannot reach the envelope within 8 standard deviations are
// ignored (their contribution is below 1e-14 of the slope differences).
func plusKG(mu, b []float64, best int, ws *kgScratch) float64 {
	s := len(ws.cs)
	n := kgSegments(mu, b, best, ws)
	kg := 0.0
	for k := s; k < s+n; k++ {
		c := ws.cs[k]
		kg += float64(ws.db[k] * (float64(plusPhi(-c)*(-c)) + xmath.Exp(-c*c/2)/math.Sqrt(2*math.Pi)))
	}
	ws.db, ws.cs = ws.db[:s], ws.cs[:s]
	return kg
}

// kgSegments appends the slope steps b_k − b_{k−1} and |z_k| of plusKG's
// envelope segments to ws.db and ws.cs and returns their number.
func kgSegments(mu, b []float64, best int, ws *kgScratch) int {
	K := len(mu)
	if cap(ws.sb) < K {
		ws.sb, ws.sm = make([]float64, K), make([]float64, K)
		ws.env, ws.cut = make([]int, 0, K), make([]float64, 0, K)
	}
	if ws.keys == nil {
		ws.keys = new([16]int64)
	}
	// The lines that can reach the envelope, by increasing slope, then
	// increasing mean (equal ones in any order: see kgInsertion).
	sb, sm := ws.sb[:K], ws.sm[:K]
	var n int
	if K <= kgNetArms {
		n = kgSortNet(mu, b, best, sb, sm, ws.keys)
	} else {
		n = kgSortInsert(mu, b, best, sb, sm)
	}
	if n < 2 {
		return 0
	}
	return kgEnvelope(sb[:n], sm[:n], ws)
}

// kgEnvelope appends the segments of the upper envelope of the n ≥ 2 lines
// sm[i] + sb[i]·z (sorted by increasing slope, then increasing mean; n =
// len(sb)) to ws.db (slope steps) and ws.cs (|cut|), and returns their
// number. env holds positions in (sb, sm), cut[k] the z where env[k] takes
// over from env[k−1].
func kgEnvelope(sb, sm []float64, ws *kgScratch) int {
	env, cut := ws.env[:0], ws.cut[:0]
	for i := range sb {
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
	for k := 1; k < len(env); k++ {
		ws.db = append(ws.db, sb[env[k]]-sb[env[k-1]])
		ws.cs = append(ws.cs, math.Abs(cut[k]))
	}
	return len(env) - 1
}

// kgPass reports whether arm a's line can reach the envelope within 8
// standard deviations: mu[best] − mu[a] < 8·|b_a − b_best|, and always for
// best. No line that passes has a NaN: the test admits none but best's, and
// with best's every other arm fails it.
func kgPass(mb, bb, ma, ba float64, a, best int) bool {
	pass := mb-ma < 8*math.Abs(ba-bb)
	if a == best {
		pass = true
	}
	return pass
}

// kgSortInsert writes the lines that pass kgPass to sb, sm (slopes, means),
// sorted by kgInsertion, and returns their number. Every line is written
// and the count advanced past those that pass (no branch on the test).
func kgSortInsert(mu, b []float64, best int, sb, sm []float64) int {
	mb, bb := mu[best], b[best]
	n := 0
	for a := range mu {
		ba, ma := b[a], mu[a]
		sb[n], sm[n] = ba, ma
		n += kgB2i(kgPass(mb, bb, ma, ba, a, best))
	}
	kgInsertion(sb[:n], sm[:n])
	return n
}

// kgInsertion sorts the lines (sb[k], sm[k]) by increasing slope, then
// increasing mean, lines equal in both (==) kept in their order (an
// insertion sort). The envelope does not depend on the order of such equal
// lines: they differ at most in the signs of zero slopes or means, the
// later one replaces the earlier (same slope), and a zero's sign can only
// change the sign of a zero cut, which is compared (−0 == +0) and taken
// in absolute value; a slope is only subtracted from a different slope.
func kgInsertion(sb, sm []float64) {
	sm = sm[:len(sb)]
	for k := 1; k < len(sb); k++ {
		bk, mk := sb[k], sm[k]
		q := k
		for ; q > 0 && (bk < sb[q-1] || (bk == sb[q-1] && mk < sm[q-1])); q-- {
			sb[q], sm[q] = sb[q-1], sm[q-1]
		}
		sb[q], sm[q] = bk, mk
	}
}

// kgNetArms is the most arms kgSortNet sorts (its network's width).
const kgNetArms = 10

// kgSortNet is kgSortInsert for up to kgNetArms arms, with the lines first
// put in order of slope by a sorting network without branches over the keys
// of gemm.SlopeKeys (the test of kgPass, each slope's order as an int64
// with the arm in its low 4 bits, MaxInt64 for the lines that fail and the
// network's unused inputs). The key order is the slope order except
// between slopes that differ only in those 4 bits or are ±0, and means are
// not looked at: kgInsertion then finishes the order (one comparison a line
// when nothing is out of place).
func kgSortNet(mu, b []float64, best int, sb, sm []float64, keys *[16]int64) int {
	n := gemm.SlopeKeys(keys, mu, b, best)
	if n < 2 {
		return n
	}
	kgNet10(keys)
	for k := range sb[:n] {
		a := keys[k&15] & 15
		sb[k], sm[k] = b[a], mu[a]
	}
	kgInsertion(sb[:n], sm[:n])
	return n
}

// kgNet10 sorts k[0:10] into increasing order: a network of 29
// comparators in 8 layers (Waksman's size; checked on every 0/1 input by
// TestKGNet10).
func kgNet10(k *[16]int64) {
	k0, k1, k2, k3, k4, k5, k6, k7, k8, k9 := k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7], k[8], k[9]
	k0, k8 = min(k0, k8), max(k0, k8)
	k1, k9 = min(k1, k9), max(k1, k9)
	k2, k7 = min(k2, k7), max(k2, k7)
	k3, k5 = min(k3, k5), max(k3, k5)
	k4, k6 = min(k4, k6), max(k4, k6)
	k0, k2 = min(k0, k2), max(k0, k2)
	k1, k4 = min(k1, k4), max(k1, k4)
	k5, k8 = min(k5, k8), max(k5, k8)
	k7, k9 = min(k7, k9), max(k7, k9)
	k0, k3 = min(k0, k3), max(k0, k3)
	k2, k4 = min(k2, k4), max(k2, k4)
	k5, k7 = min(k5, k7), max(k5, k7)
	k6, k9 = min(k6, k9), max(k6, k9)
	k0, k1 = min(k0, k1), max(k0, k1)
	k3, k6 = min(k3, k6), max(k3, k6)
	k8, k9 = min(k8, k9), max(k8, k9)
	k1, k5 = min(k1, k5), max(k1, k5)
	k2, k3 = min(k2, k3), max(k2, k3)
	k4, k8 = min(k4, k8), max(k4, k8)
	k6, k7 = min(k6, k7), max(k6, k7)
	k1, k2 = min(k1, k2), max(k1, k2)
	k3, k5 = min(k3, k5), max(k3, k5)
	k4, k6 = min(k4, k6), max(k4, k6)
	k7, k8 = min(k7, k8), max(k7, k8)
	k2, k3 = min(k2, k3), max(k2, k3)
	k4, k5 = min(k4, k5), max(k4, k5)
	k6, k7 = min(k6, k7), max(k6, k7)
	k3, k4 = min(k3, k4), max(k3, k4)
	k5, k6 = min(k5, k6), max(k5, k6)
	k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7], k[8], k[9] = k0, k1, k2, k3, k4, k5, k6, k7, k8, k9
}
