package gram

import "github.com/neural-adb/nadb/internal/gemm"

// downdateRows applies to the blocks of the contexts c0, …, c1−1 the
// downdates of the updates s0, …, s1−1 (their rows of r̃ final on those
// contexts' columns), as downdate would update by update: Q_c[a][b]
// continues its chain of fused multiply–adds with (−r̃_s[a])·r̃_s[b] in
// increasing s. The rows are copied into a contiguous strip first, and each
// block's downdates are then one product (gemm.AddTransMulStridedTo, whose
// chains run over s in that order from the block's values), instead of
// one pass over the block per update.
func (c *Confidence) downdateRows(c0, c1, s0, s1 int) {
	K := c.Arms
	lo, w := c0*K, (c1-c0)*K
	k := s1 - s0
	c.strip = resize(c.strip, k*w)
	c.neg = resize(c.neg, k*w)
	for s := s0; s < s1; s++ {
		row := c.r.row(s)[lo : lo+w]
		x, neg := c.strip[(s-s0)*w:(s-s0+1)*w], c.neg[(s-s0)*w:(s-s0+1)*w]
		copy(x, row)
		for m, v := range row {
			neg[m] = -v
		}
	}
	for ctx := c0; ctx < c1; ctx++ {
		off := (ctx - c0) * K
		gemm.AddTransMulStridedTo(c.block(ctx), K, c.neg[off:], w, c.strip[off:], w, K, k, K)
	}
}
