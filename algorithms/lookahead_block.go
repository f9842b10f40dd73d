package algorithms

import "math"

// lookaheadBlock keeps the block of M = K0/a − Σ_s r̃_s r̃_sᵀ that one round
// of the lookahead rule reads: the entries M[i, j] for i and j among the
// round's slots, the rows of the pairs' arms (slot 2u the first arm of pair u,
// slot 2u+1 the second). Score reads nothing else, so a slot that keeps its
// row from one round to the next needs only the new updates on the slots'
// columns, not on all N columns of its row in lookaheadRows.
//
// A slot whose row changed takes its block row from lookaheadRows (brought up
// to date over all columns) and its block column from the same row: by
// symmetry M[j, i] = M[i, j] bit for bit, because K0 is bitwise symmetric
// (gram.Dense) and the updates add −r̃[i]·r̃[j] and −r̃[j]·r̃[i], the same
// rounded product. lookaheadRows skips an update whose factor r̃[i] is zero,
// which breaks that symmetry when r̃[j] is not (an added ±0 can turn −0 into
// +0, an infinite r̃[j] gives NaN); lookaheadRows.push therefore marks the
// rows asymmetric when an update has a zero or a non-finite entry, and from
// then on every slot takes its block row from lookaheadRows each round.
type lookaheadBlock struct {
	slot []int     // pool row of each slot
	w    []float64 // M between the slots, len(slot) × len(slot), row-major
	done int       // updates of lookaheadRows applied to w
	hs   []float64 // one update r̃ gathered on the slots
	keep []bool    // slots whose row did not change this round
}

// update brings the block up to date for the slots of pairs (pool rows) and
// returns it, len(pairs)·2 square, row-major.
func (b *lookaheadBlock) update(r *lookaheadRows, pairs [][2]int) []float64 {
	m := 2 * len(pairs)
	if len(b.slot) != m {
		b.slot = make([]int, m)
		b.w = make([]float64, m*m)
		b.hs = make([]float64, m)
		b.keep = make([]bool, m)
		for p := range b.slot {
			b.slot[p] = -1
		}
	}
	kept := 0
	for p := range b.slot {
		i := pairs[p/2][p%2]
		b.keep[p] = b.slot[p] == i && !r.asym
		if b.keep[p] {
			kept++
		}
		b.slot[p] = i
	}
	n := r.n
	t := len(r.hist) / n
	if kept > 0 {
		for u := b.done; u < t; u++ {
			h := r.hist[u*n : (u+1)*n]
			for q, j := range b.slot {
				b.hs[q] = h[j]
			}
			for p, i := range b.slot {
				if b.keep[p] {
					plusAxpy(-h[i], b.hs, b.w[p*m:(p+1)*m])
				}
			}
		}
	}
	for p, i := range b.slot {
		if b.keep[p] {
			continue
		}
		row := r.row(i)
		wp := b.w[p*m : (p+1)*m]
		for q, j := range b.slot {
			wp[q] = row[j]
		}
		if r.asym {
			continue // every slot takes its own row
		}
		for q := range b.slot {
			b.w[q*m+p] = wp[q]
		}
	}
	b.done = t
	return b.w
}

// exactSymmetric reports whether the update rt keeps lookaheadRows' entries
// M[i, j] and M[j, i] equal bit for bit: no entry zero, none infinite or NaN.
func exactSymmetric(rt []float64) bool {
	for _, v := range rt {
		if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return false
		}
	}
	return true
}

// lookaheadScore sets score[i], for each pair i, to
// Σ_u (ψ_uᵀ M ψ_i)² / (1 + ψ_iᵀ M ψ_i) from the block w of the pairs' slots
// (lookaheadBlock.update), in the order and with the roundings of the rule's
// reading of lookaheadRows' full rows: each sum in u order. Four pairs' sums
// run side by side, so that the additions of one do not wait for another's.
func lookaheadScore(score, w []float64) {
	np := len(score)
	m := 2 * np
	i := 0
	for ; i+4 <= np; i += 4 {
		a0, a1, a2, a3 := w[2*i*m:][:m], w[(2*i+1)*m:][:m], w[(2*i+2)*m:][:m], w[(2*i+3)*m:][:m]
		b0, b1, b2, b3 := w[(2*i+4)*m:][:m], w[(2*i+5)*m:][:m], w[(2*i+6)*m:][:m], w[(2*i+7)*m:][:m]
		var s0, s1, s2, s3 float64
		for u := 0; u+1 < m; u += 2 {
			x0 := a0[u] - a0[u+1] - a1[u] + a1[u+1]
			x1 := a2[u] - a2[u+1] - a3[u] + a3[u+1]
			x2 := b0[u] - b0[u+1] - b1[u] + b1[u+1]
			x3 := b2[u] - b2[u+1] - b3[u] + b3[u+1]
			s0 += x0 * x0
			s1 += x1 * x1
			s2 += x2 * x2
			s3 += x3 * x3
		}
		for k, s := range [4]float64{s0, s1, s2, s3} {
			j := i + k
			ri, rj := w[2*j*m:(2*j+1)*m], w[(2*j+1)*m:(2*j+2)*m]
			q := ri[2*j] + rj[2*j+1] - ri[2*j+1] - rj[2*j]
			score[j] = s / (1 + q)
		}
	}
	for ; i < np; i++ {
		ri, rj := w[2*i*m:(2*i+1)*m], w[(2*i+1)*m:(2*i+2)*m]
		q := ri[2*i] + rj[2*i+1] - ri[2*i+1] - rj[2*i]
		s := 0.0
		for u := 0; u+1 < m; u += 2 {
			x := ri[u] - ri[u+1] - rj[u] + rj[u+1]
			s += x * x
		}
		score[i] = s / (1 + q)
	}
}
