package gram

import "github.com/neural-adb/nadb/internal/gemm"

// The rows of r̃ are kept per context: context c's columns of r̃_s, and the
// downdates of its block Q_c, are complete for s < ver[c]. Bringing c up to
// date is a forward substitution with the lower triangular matrix of the
// −ℓ_s (nl) and the scales 1/√γ_s: for s = ver[c], …, t−1 and every row m
// of c,
//
//	r̃_s[m] = (1/√γ_s)·chain over u < s of fma(−ℓ_s[u], r̃_u[m], ·) from b_s[m]/a,
//
// the same chain, in the same order, that the eager recursion forms for the
// whole pool at update s; the blocked order of substitute continues it
// without changing it. So every value equals the eager one bit for bit, and
// a context that is not read costs nothing until it is. A reader that walks
// over the contexts (a context rule that scores them all) is recognised
// after sweepReads stale contexts, or at its first if the reads before the
// last update walked too: from then on a read brings its whole run of
// contexts behind by the same updates up to date at once, in full-width
// products over the rows of r̃ as the eager recursion would.

// sweepReads is the number of stale contexts read since the last update
// after which a read is taken for part of a walk over the contexts.
const sweepReads = 16

// fresh brings context ctx up to date for a read.
func (c *Confidence) fresh(ctx int) {
	v := c.ver[ctx]
	if v == len(c.pairs) {
		return
	}
	c0, c1 := ctx, ctx+1
	if c.sweep >= sweepReads || c.swept {
		for c0 > 0 && c.ver[c0-1] == v {
			c0--
		}
		for c1 < c.Contexts && c.ver[c1] == v {
			c1++
		}
	}
	c.sweep++
	c.catchUp(c0, c1)
}

// catchUpAll brings every context up to date.
func (c *Confidence) catchUpAll() {
	t := len(c.pairs)
	for c0 := 0; c0 < c.Contexts; {
		v, c1 := c.ver[c0], c0+1
		for c1 < c.Contexts && c.ver[c1] == v {
			c1++
		}
		if v < t {
			c.catchUp(c0, c1)
		}
		c0 = c1
	}
}

// catchUp brings the contexts c0, …, c1−1, which must include the same
// updates, up to date.
func (c *Confidence) catchUp(c0, c1 int) {
	t, v := len(c.pairs), c.ver[c0]
	if v == t {
		return
	}
	K := c.Arms
	lo, w := c0*K, (c1-c0)*K
	c.startAll(v, t, lo, w)
	c.r.substitute(lo, w, c.nl, c.ldl, v, t, c.sig, false)
	if t-v >= downdateProduct && w <= narrowCols {
		c.downdateRows(c0, c1, v, t)
	} else {
		for ctx := c0; ctx < c1; ctx++ {
			for s := v; s < t; s++ {
				c.downdate(ctx, c.r.row(s)[ctx*K:(ctx+1)*K])
			}
		}
	}
	for ctx := c0; ctx < c1; ctx++ {
		c.ver[ctx] = t
	}
}

// downdateProduct is the fewest updates that catchUp applies to a block as
// one product (downdateRows) rather than update by update, and narrowCols
// the widest run of columns it copies for that (the bits are the same
// either way).
const (
	downdateProduct = 4
	narrowCols      = 256
)

// blockRows is the number of rows of the blocks of kernel entries that
// startAll and Refresh ask a Blocker for at a time.
const blockRows = 256

// startAll is start for the updates s0, …, s1−1. With a Blocker it asks for
// the entries of the rows against the distinct rows the updates name, in
// blocks of blockRows rows: the same values start reads from whole columns.
func (c *Confidence) startAll(s0, s1, lo, w int) {
	if c.kp != nil && w <= keptCols && s1-s0 >= keptUpdates {
		c.startKept(s0, s1, lo, w)
		return
	}
	if c.bk == nil {
		for s := s0; s < s1; s++ {
			c.start(s, lo, w)
		}
		return
	}
	cols := c.named(c.pairs[s0:s1])
	nc := len(cols)
	inv := 1 / c.reg
	for r0 := lo; r0 < lo+w; r0 += blockRows {
		r1 := min(r0+blockRows, lo+w)
		nr := r1 - r0
		c.tile = resize(c.tile, nr*nc)
		c.bk.ColumnsTo(c.tile, r0, r1, cols)
		for s := s0; s < s1; s++ {
			p := c.pairs[s]
			rs := c.r.row(s)[r0:r1]
			ki := c.tile[int(c.slot[p[0]])*nr:][:nr]
			if p[1] < 0 {
				for m, v := range ki {
					rs[m] = v * inv
				}
				continue
			}
			kj := c.tile[int(c.slot[p[1]])*nr:][:nr]
			for m := range rs {
				rs[m] = (ki[m] - kj[m]) * inv
			}
		}
	}
	c.unname()
}

// keptCols is the widest run of columns, and keptUpdates the fewest
// updates, for which startAll reads the kept rows (startKept) instead of
// gathering the named ones: a few contexts far behind.
const (
	keptCols    = 64
	keptUpdates = 4
)

// startKept is startAll from the kept rows of the updates (Keeper): the
// entries of columns lo, …, lo+w−1 against the kept columns of the updates
// s0, …, s1−1, one block, the same values.
func (c *Confidence) startKept(s0, s1, lo, w int) {
	c.keep(s1)
	j0 := c.kept[s0]
	nc := c.kept[s1] - j0
	c.tile = resize(c.tile, w*nc)
	c.kp.KeptTo(c.tile, lo, lo+w, j0, j0+nc)
	inv := 1 / c.reg
	for s := s0; s < s1; s++ {
		rs := c.r.row(s)[lo : lo+w]
		b := c.kept[s] - j0
		if c.pairs[s][1] < 0 {
			for m := range rs {
				rs[m] = c.tile[m*nc+b] * inv
			}
			continue
		}
		for m := range rs {
			rs[m] = (c.tile[m*nc+b] - c.tile[m*nc+b+1]) * inv
		}
	}
}

// keep has the Keeper keep the rows of the updates before s1 not kept yet,
// in the order of the updates: a learner that never reads a context far
// behind (one that reads every context every round) keeps nothing.
func (c *Confidence) keep(s1 int) {
	for s := len(c.kept) - 1; s < s1; s++ {
		p := c.pairs[s]
		n := c.kept[s] + 1
		c.kp.Keep(p[0])
		if p[1] >= 0 {
			c.kp.Keep(p[1])
			n++
		}
		c.kept = append(c.kept, n)
	}
}

// named lists the distinct pool rows the updates name (each once), and
// records in slot each one's position in the list; unname clears slot.
func (c *Confidence) named(pairs [][2]int) []int {
	c.cols = c.cols[:0]
	for _, p := range pairs {
		for _, r := range p {
			if r >= 0 && c.slot[r] < 0 {
				c.slot[r] = int32(len(c.cols))
				c.cols = append(c.cols, r)
			}
		}
	}
	return c.cols
}

func (c *Confidence) unname() {
	for _, r := range c.cols {
		c.slot[r] = -1
	}
}

// start sets columns lo, …, lo+w−1 of row s of r to b_s/a, the start of
// their chains: (K0[:, i_s] − K0[:, j_s])/a, or K0[:, i_s]/a.
func (c *Confidence) start(s, lo, w int) {
	if c.bk != nil {
		c.startAll(s, s+1, lo, w)
		return
	}
	p := c.pairs[s]
	rs := c.r.row(s)[lo : lo+w]
	ki := c.k.Column(p[0])[lo : lo+w]
	inv := 1 / c.reg
	if p[1] < 0 {
		for m, v := range ki {
			rs[m] = v * inv
		}
		return
	}
	kj := c.k.Column(p[1])[lo : lo+w]
	for m := range rs {
		rs[m] = (ki[m] - kj[m]) * inv
	}
}

// growNL makes room for rows rows of nl.
func (c *Confidence) growNL(rows int) {
	if rows <= c.ldl {
		return
	}
	ld := max(2*c.ldl, 64, rows)
	nl := make([]float64, ld*ld)
	for s := range c.ldl {
		copy(nl[s*ld:s*ld+s], c.nl[s*c.ldl:s*c.ldl+s])
	}
	c.nl, c.ldl = nl, ld
}

// chunkRows is the number of rows of r̃ allocated at a time (a multiple of
// substitute's block of 48): the storage grows without copying the rows so
// far or holding them twice, as one growing slice would.
const chunkRows = 192

// rowStore holds the rows r̃_s of n values, s < len, chunkRows rows per
// allocation.
type rowStore struct {
	n      int
	chunks [][]float64
	len    int
}

// row returns row s.
func (r *rowStore) row(s int) []float64 {
	o := (s % chunkRows) * r.n
	return r.chunks[s/chunkRows][o : o+r.n]
}

// at returns the storage from column col of row s to the end of s's chunk:
// rows s, s+1, … of that chunk at stride n.
func (r *rowStore) at(s, col int) []float64 {
	return r.chunks[s/chunkRows][(s%chunkRows)*r.n+col:]
}

// grow appends a row (zeros in a new chunk).
func (r *rowStore) grow() {
	if r.len == len(r.chunks)*chunkRows {
		r.chunks = append(r.chunks, make([]float64, chunkRows*r.n))
	}
	r.len++
}

// chunkEnd returns the first row after the chunk of row s.
func chunkEnd(s int) int { return (s/chunkRows + 1) * chunkRows }

// addMul adds to the m rows of dst (stride ldd, w columns) their products
// with the rows u0, …, u1−1 of the store (columns col, …, col+w−1): row i of
// dst gains the terms l[i·ldl + u−u0]·r̃_u in increasing u, chunk after
// chunk, so that every entry continues one chain of fused multiply–adds
// (package gemm) as one product over contiguous rows would.
func (r *rowStore) addMul(dst []float64, ldd int, l []float64, ldl int, m, u0, u1, col, w int) {
	for u := u0; u < u1; {
		e := min(u1, chunkEnd(u))
		gemm.AddMulStridedTo(dst, ldd, l[u-u0:], ldl, r.at(u, col), r.n, m, e-u, w)
		u = e
	}
}

// substitute continues, for the rows s = v, …, t−1 of the store (columns
// lo, …, lo+w−1), the chains of fused multiply–adds over u = 0, …, s−1 of
// l[s·ldl + u]·r̃_u whose rows u < v are final, and finishes each row by
// dividing it by f[s] (div) or multiplying it by f[s]. It works in blocks
// of rows inside a chunk: one panel product for the rows before the block,
// one for the rows before each sub-block of 8, then row by row; every chain
// still runs over u in increasing order, so the result does not depend on
// the blocks.
func (r *rowStore) substitute(lo, w int, l []float64, ldl, v, t int, f []float64, div bool) {
	const nb, sub = 48, 8
	n := r.n
	for i0 := v; i0 < t; {
		i1 := min(i0+nb, t, chunkEnd(i0))
		if i0 > 0 {
			r.addMul(r.at(i0, lo), n, l[i0*ldl:], ldl, i1-i0, 0, i0, lo, w)
		}
		for s0 := i0; s0 < i1; s0 += sub {
			s1 := min(s0+sub, i1)
			if s0 > i0 {
				gemm.AddMulStridedTo(r.at(s0, lo), n, l[s0*ldl+i0:], ldl, r.at(i0, lo), n, s1-s0, s0-i0, w)
			}
			for s := s0; s < s1; s++ {
				if s > s0 {
					gemm.AddMulStridedTo(r.at(s, lo), n, l[s*ldl+s0:], ldl, r.at(s0, lo), n, 1, s-s0, w)
				}
				row, d := r.at(s, lo)[:w], f[s]
				if div {
					for m, x := range row {
						row[m] = x / d
					}
				} else {
					for m, x := range row {
						row[m] = x * d
					}
				}
			}
		}
		i0 = i1
	}
}
