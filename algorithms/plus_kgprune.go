package algorithms

import (
	"math"
	"slices"

	"github.com/neural-adb/nadb/internal/gemm"
	"github.com/neural-adb/nadb/internal/xmath"
)

// Exact pruning of knowledgeGradient's candidates. Only the argmax of the
// totals is used (ArgmaxRand in selectFrom), so a candidate whose total is
// shown to lie below that of an earlier candidate need not be summed.
// Upper bounds of the (context, candidate) terms are added up instead: the
// range of the slopes times φ(0) for every term when it is kept
// (kgScratch.keep), and, for a candidate that this bound does not rule out,
// the sum over its arms of the terms of one arm against best (kgChord).
// The exact totals are then formed one candidate at a time, the largest
// bounds first, each only if its bound reaches the largest exact total of
// an earlier candidate (kgScratch.pruned).
//
// Why ArgmaxRand is unchanged: it scans in index order, keeps the value v
// of its current best and draws from its stream only where a value equals
// v. A total below v (strictly) neither becomes the best nor ties, and
// neither does −∞ there; the largest exact total of earlier candidates is
// at most v, and the candidates left out never raise v. Candidate 0 is
// always summed, and a NaN total never raises the bound against which the
// others are compared (a NaN at index 0 stays ArgmaxRand's best: no later
// value is compared true with it).

// kgPruneMax is the most values (contexts × candidates × (K+2)) the pruned
// knowledgeGradient keeps in a round: 8 MB.
const kgPruneMax = 1 << 20

// kgPsiSteps is the number of kgPsiTab points per unit of c.
const kgPsiSteps = 16

// kgPsiTab holds, for i = 0, …, 128, the normal loss
// ψ(c) = φ(c) − c(1 − Φ(c)) at c = i/16, raised by a relative 1e-10 (far
// above its rounding error), and the step to the next point's value, 0 from
// i = 128 on: the chord between two points lies above ψ between them
// because ψ is convex (its second derivative is φ), and ψ(c) ≤ ψ(8) from
// c = 8 on. It has 256 rows so that a uint8 index needs no bounds check.
var kgPsiTab = kgPsiTable()

func kgPsiTable() (t [256][2]float64) {
	psi := func(i int) float64 {
		c := float64(i) / kgPsiSteps
		return (float64(plusPhi(-c)*(-c)) + xmath.Exp(-c*c/2)/math.Sqrt(2*math.Pi)) * (1 + 1e-10)
	}
	for i := range t {
		if i < kgPsiMax {
			t[i] = [2]float64{psi(i), psi(i+1) - psi(i)}
		} else {
			t[i] = [2]float64{psi(kgPsiMax), 0}
		}
	}
	return t
}

// kgPsiMax is the last point of kgPsiTab, c = 8.
const kgPsiMax = 8 * kgPsiSteps

// kgPhi0 is φ(0) = 1/√(2π), rounded up.
var kgPhi0 = math.Nextafter(1/math.Sqrt(2*math.Pi), math.Inf(1))

// kgChord returns an upper bound of plusKG(mu, b, best), best =
// plusArgmax(mu): with g_a = mu_best − mu_a ≥ 0, d_a = |b_a − b_best| and
// c_a = g_a/d_a,
//
//	E[max_a (mu_a + b_a Z)] − mu_best ≤ E[max_a (Δb_a Z − g_a)⁺]
//	  = E[max_{a∈U} (d_a Z − g_a)⁺] + E[max_{a∈D} (−d_a Z − g_a)⁺],
//
// U the arms of larger slope than best's (only they count for Z > 0), D
// those of smaller slope (Z < 0). Each side's part is at most the sum of
// its arms' d_a·ψ(c_a) and at most max d_a·ψ(min c_a) (d_a(Z − c_a)⁺ ≤
// max d·(Z − min c)⁺), ψ the normal loss; kgChord adds the smaller of the
// two for each side. It holds for the lines plusKG keeps (its 8σ filter only
// leaves some out). There is no branch on that filter: every arm is
// counted, best too (a term of about 1e-300 in the sums). d_a is raised by
// 1e-300, which only raises d·ψ(g/d) (its derivative in d is φ(g/d) > 0)
// and keeps 0/0 out, ψ is bounded by kgPsiTab's chords, c = g/d clamped to
// 8, and arms of best's slope are left out of min c. A NaN or infinite
// slope gives NaN or +∞, and so does a NaN mean of best. refine forms it
// with gemm.ChordBounds (the same bits); this form is the reference that
// the tests check.
func kgChord(mu, b []float64, best int) float64 {
	mb, bb := mu[best], b[best]
	var sum, dmax [2]float64
	xmin := [2]float64{kgPsiMax, kgPsiMax}
	for a := range mu {
		g, d := mb-mu[a], math.Abs(b[a]-bb)+1e-300
		x := min(g/d*kgPsiSteps, kgPsiMax) // NaN only for a NaN g or d
		side := kgB2i(b[a] > bb)
		sum[side] += float64(d * kgPsi(x))
		dmax[side] = max(dmax[side], d)
		keep := -uint64(kgB2i(b[a] != bb)) // all ones unless best's slope
		xs := math.Float64frombits(math.Float64bits(x)&keep | kgX128&^keep)
		xmin[side] = min(xmin[side], xs)
	}
	return min(sum[0], float64(dmax[0]*kgPsi(xmin[0]))) + min(sum[1], float64(dmax[1]*kgPsi(xmin[1])))
}

// kgX128 is the bits of 128 = kgPsiMax.
var kgX128 = math.Float64bits(kgPsiMax)

// kgPsi returns kgPsiTab's chord at x = 16c, for x in [0, 128] (NaN for a
// NaN x).
func kgPsi(x float64) float64 {
	i := uint8(int(x))
	p := &kgPsiTab[i]
	return p[0] + float64((x-float64(i))*p[1])
}

// kgEntry is a (context, candidate) term of knowledgeGradient kept for
// kgScratch.pruned: its slopes are kgPrune.b[(c·K + a)·M + j], a < K.
type kgEntry struct{ c, j int32 }

// kgPrune is the workspace of the pruned knowledgeGradient.
type kgPrune struct {
	b     []float64 // per context, the K × M slopes β·den (all candidates)
	rc    []float64 // per candidate of a context: its range times φ(0)
	r     []float64 // per entry: the range of its slopes times φ(0)
	ent   []kgEntry // in increasing context, then candidate
	best  []int32   // plusArgmax of each context's means
	ur    []float64 // per candidate: the sum of its entries' r
	start []int32   // per candidate: its first entry in byJ
	byJ   []int32   // entries grouped by candidate, contexts increasing
	order []int32   // candidates by decreasing ur
	done  []bool    // candidate summed exactly
	suf   []float64 // suffix sums of a candidate's r (refine)
	// A chunk of refine's terms for gemm.ChordBounds: the offsets of
	// their means and slopes, best, and their kgChord.
	cmo, cbo, cbi [kgChunk]int32
	chord         [kgChunk]float64
}

// kgChunk is how many terms refine bounds at once (gemm.ChordBounds, the
// bits of kgChord): a few more than its early stop may need.
const kgChunk = 32

// startPrune empties the kept entries for a round of N contexts and M
// candidates.
func (ws *kgScratch) startPrune(N, M, K int) {
	p := &ws.prune
	p.b = growF(&p.b, N*K*M)
	p.rc = growF(&p.rc, M)
	p.r, p.ent = p.r[:0], p.ent[:0]
	if cap(p.best) < N {
		p.best = make([]int32, N)
	}
	p.best = p.best[:N]
	p.ur = growF(&p.ur, M)
	clear(p.ur)
}

// keep marks context c's live terms in live (bit j%4 of live[j/4]: some
// arm a ≠ best passes plusKG's filter mu[best] − mu[a] < 8·|b_a − b_best|,
// as knowledgeGradient's gemm.MarkAboveRows tests it) and stores them:
// blk, its K × M block β (kgPrune.b's block of c), becomes the slopes b_a =
// blk[a·M + j]·den[j], the products plusKG would get, and each live term
// gets a bound, added to the candidate's ur: the range of its slopes times
// φ(0) (the envelope's slope steps add up to at most the range, and the
// normal loss is at most φ(0)). gemm.ScaleColsMark does the test and forms
// both; its range is that of kgOrd's integers (no branch): a NaN slope
// becomes the largest or smallest, and the range NaN (never pruned).
func (ws *kgScratch) keep(c, best int, mu, blk, den []float64, live []uint8) {
	p := &ws.prune
	M := len(den)
	p.best[c] = int32(best)
	gemm.ScaleColsMark(blk, den, growF(&ws.bb, M), p.rc, mu, live, best, len(mu), M, 8, kgPhi0)
	for j, r := range p.rc[:M] {
		if live[j/4]>>(j%4)&1 == 0 {
			continue
		}
		p.r = append(p.r, r)
		p.ent = append(p.ent, kgEntry{c: int32(c), j: int32(j)})
		p.ur[j] += r
	}
}

// kgOrd maps a float64 to an int64 of the same order (−0 below +0, NaNs
// with the sign bit clear above +∞, set below −∞); kgUnord undoes it.
func kgOrd(v float64) int64 {
	k := int64(math.Float64bits(v))
	return k ^ (k>>63)&math.MaxInt64
}

// kgUnord is the inverse of kgOrd.
func kgUnord(k int64) float64 {
	return math.Float64frombits(uint64(k ^ (k>>63)&math.MaxInt64))
}

// pruned returns the candidates' scores from the kept terms (h the means,
// K arms) by argmaxSums: the total of a candidate, summed as
// knowledgeGradient sums it (deferred plusKG calls in increasing context,
// the same bits), or −∞. The bounds are ur and, for a candidate that ur
// does not rule out, the sum over its terms of the smaller of r and
// kgChord.
func (ws *kgScratch) pruned(total, h []float64, K int) []float64 {
	p := &ws.prune
	M := len(total)
	// Entries grouped by candidate, contexts increasing (a counting sort).
	start := growI32(&p.start, M+1)
	clear(start)
	for _, e := range p.ent {
		start[e.j+1]++
	}
	for j := range M {
		start[j+1] += start[j]
	}
	byJ := growI32(&p.byJ, len(p.ent))
	for i, e := range p.ent {
		byJ[start[e.j]] = int32(i)
		start[e.j]++
	}
	copy(start[1:], start[:M])
	start[0] = 0
	// refine adds the terms' bounds in order (kgChord's bits, by
	// gemm.ChordBounds kgChunk terms at a time), each partial sum completed
	// by the rest of the ranges (suf, suffix sums: sums of positive values,
	// so rounded within a few units of themselves), and stops as soon as
	// that bound is below r.
	refine := func(j int, r float64) bool {
		ents := byJ[start[j]:start[j+1]]
		suf := growF(&p.suf, len(ents)+1)
		suf[len(ents)] = 0
		for k := len(ents) - 1; k >= 0; k-- {
			suf[k] = suf[k+1] + p.r[ents[k]]
		}
		u := 0.0
		for k0 := 0; k0 < len(ents); k0 += kgChunk {
			chunk := ents[k0:min(k0+kgChunk, len(ents))]
			n := len(chunk)
			for i, e := range chunk {
				c, j := p.ent[e].c, p.ent[e].j
				p.cmo[i], p.cbo[i], p.cbi[i] = c*int32(K), c*int32(K*M)+j, p.best[c]
			}
			gemm.ChordBounds(p.chord[:n], h, p.b, p.cmo[:n], p.cbo[:n], p.cbi[:n], K, M, &kgPsiTab)
			for i, e := range chunk {
				u += min(p.r[e], p.chord[i])
				if kgBelow(u+suf[k0+i+1], r) {
					return true
				}
			}
		}
		return kgBelow(u, r)
	}
	bs := growF(&ws.bs, K)
	sum := func(j int) {
		for _, e := range byJ[start[j]:start[j+1]] {
			c := int(p.ent[e].c)
			for a := range bs {
				bs[a] = p.b[(c*K+a)*M+j]
			}
			ws.add(j, h[c*K:(c+1)*K], bs, int(p.best[c]))
			if ws.full() {
				ws.flush(total)
			}
		}
	}
	ws.argmaxSums(total, p.ur, refine, sum)
	return total
}

// argmaxSums forms in total (cleared, one entry per candidate) what
// ArgmaxRand needs of the candidates' totals: a candidate's total, or −∞
// where a bound of it, raised by a relative 1e-9 and an absolute 1e-300
// (far above the rounding of the total and of the bound's own sum), is
// below the largest total of an earlier candidate already summed. ub[j]
// bounds candidate j's total; refine(j, r) reports whether another bound
// of it is below r by kgBelow, asked for only where ub[j] does not rule j
// out and r, that largest total, is positive.
// sum(j) adds candidate j's deferred plusKG calls (kgScratch.add, with
// flush(total) when full) in their order; argmaxSums flushes after it, so
// that the total is complete. Candidates are taken by decreasing ub, so
// that large totals are known early.
func (ws *kgScratch) argmaxSums(total, ub []float64, refine func(j int, r float64) bool, sum func(j int)) {
	p := &ws.prune
	M := len(total)
	order := growI32(&p.order, M)
	for j := range order {
		order[j] = int32(j)
	}
	key := func(j int32) float64 { // NaN first: never pruned anyway
		if u := ub[j]; !math.IsNaN(u) {
			return u
		}
		return math.Inf(1)
	}
	slices.SortStableFunc(order, func(x, y int32) int {
		kx, ky := key(x), key(y)
		switch {
		case kx > ky:
			return -1
		case kx < ky:
			return 1
		}
		return 0
	})
	if cap(p.done) < M {
		p.done = make([]bool, M)
	}
	done := p.done[:M]
	clear(done)
	for _, j32 := range order {
		j := int(j32)
		r := math.Inf(-1)
		for k := range j {
			if done[k] && total[k] > r {
				r = total[k]
			}
		}
		if kgBelow(ub[j], r) || r > 0 && refine(j, r) {
			total[j] = math.Inf(-1)
			continue
		}
		sum(j)
		ws.flush(total)
		done[j] = true
	}
}

// kgBelow reports whether a bound u of a total, raised by a relative 1e-9
// and an absolute 1e-300, is below r (false if either is NaN).
func kgBelow(u, r float64) bool { return u*(1+1e-9)+1e-300 < r }

// growI32 returns (*buf)[:n], reallocating if its capacity is short.
func growI32(buf *[]int32, n int) []int32 {
	if cap(*buf) < n {
		*buf = make([]int32, n)
	}
	*buf = (*buf)[:n]
	return *buf
}
