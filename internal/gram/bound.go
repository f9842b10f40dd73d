package gram

// MaxPairBound returns an upper bound of the norm² that MaxPairFunc(ctx, ok)
// (MaxPair when ok is nil) would return now, and whether the bound is that
// value, without bringing a context that is behind the updates up to date.
// A context rule that only needs the context with the largest norm (eq. 3)
// can skip every context whose bound is below a norm it already has, and so
// read only a few blocks per round.
//
// In exact arithmetic pair norms only shrink as V grows, so the norm of the
// block as it stands bounds the current one. Each of the Δ downdates the
// block is behind changes an entry by its fused multiply–add's rounding, at
// most 2⁻⁵³ of a magnitude B that bounds every entry (twice the largest
// diagonal entry of the stale block: |q_ab| ≤ √(q_aa q_bb) for a positive
// definite block); a pair norm q_aa + q_bb − 2q_ab and its two roundings
// then move by at most (4Δ + 9)·2⁻⁵³·B. The bound adds 32 times that. A
// scheduled refresh runs first, as for any read.
func (c *Confidence) MaxPairBound(ctx int, ok func(a, b int) bool) (norm2 float64, exact bool) {
	c.settle()
	delta := len(c.pairs) - c.ver[ctx]
	var diag float64
	if ok == nil && delta > 0 && c.bver[ctx] == c.ver[ctx] {
		norm2, diag = c.bnorm[ctx], c.bdiag[ctx]
	} else {
		K := c.Arms
		q := c.block(ctx)
		_, _, v, found := maxPairOf(q, K, ok)
		if ok == nil {
			v = max(v, 0) // MaxPair clamps; MaxPairFunc returns the value as it is
		}
		if delta == 0 || !found {
			return v, true
		}
		norm2 = v
		for a := range K {
			diag = max(diag, q[a*K+a])
		}
		if ok == nil {
			c.bnorm[ctx], c.bdiag[ctx], c.bver[ctx] = norm2, diag, c.ver[ctx]
		}
	}
	margin := float64(float64(4*delta+9) * 32 * 0x1p-53 * 2 * diag) // rounded: never fused with the sum
	return norm2 + margin, false
}
