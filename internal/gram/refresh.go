package gram

import (
	"errors"
	"math"

	"github.com/neural-adb/nadb/internal/gemm"
)

// refreshBlock is the block size of the Cholesky factorisation and of the
// triangular solve in Refresh. It changes no value (see cholesky).
const refreshBlock = 48

// refreshStrip is the number of columns of r̃ (whole contexts) whose blocks
// Refresh downdates together.
const refreshStrip = 64

// Refresh recomputes every r̃_s and every block from scratch: it factorises the
// t×t matrix C = a·I + ΨᵀΨ (entries from the kernel) by Cholesky, solves
// R̃ᵀ = (1/√a) L⁻¹ Bᵀ with B = ΦΨ, and rebuilds Q_c = K0_c/a − Σ_s r̃_s,c r̃_s,cᵀ.
// The result depends only on the updates so far and the kernel; every sum
// is a chain of fused multiply–adds in a fixed order (package gemm), so its
// bits do not depend on the machine.
func (c *Confidence) Refresh() error {
	c.stale = false
	t := len(c.pairs)
	if t == 0 {
		return nil
	}
	// −Bᵀ into the r̃ storage: row s = K0[:, j_s] − K0[:, i_s], or −K0[:, i_s].
	if c.bk != nil {
		c.refreshFromBlocks()
	} else {
		c.refreshFromColumns()
	}
	// −C in the lower triangle: −C[s][s'] = −ψ_s·ψ_s' = (−B)[i_s][s'] − (−B)[j_s][s'],
	// read from the rows of −Bᵀ.
	// Eight rows of −Bᵀ at a time, each read in place for every update
	// after it (a row of the pool stays in cache while its entries are
	// picked), writing eight adjacent entries of each row of −C.
	w := make([]float64, t*t)
	for s0 := 0; s0 < t; s0 += 8 {
		s1 := min(s0+8, t)
		for s := s0; s < t; s++ {
			p := c.pairs[s]
			for s2 := s0; s2 < min(s1, s+1); s2++ {
				w[s*t+s2] = psiDot(c.r.row(s2), p[0], p[1])
			}
		}
	}
	for s := range t {
		w[s*t+s] -= c.reg
	}
	if !cholesky(w, t) {
		return errors.New("gram: refresh Cholesky failed: a·I + ΨᵀΨ is not positive definite")
	}
	alpha := 1 / math.Sqrt(c.reg)
	for s := range t {
		rs := c.r.row(s)
		for m, v := range rs {
			rs[m] = v * alpha
		}
	}
	c.solveLower(w, t)
	c.initBlocks()
	// The downdates of every block, a few contexts at a time: each row of
	// their strip is then read once for several blocks.
	g := max(1, refreshStrip/c.Arms)
	for c0 := 0; c0 < c.Contexts; c0 += g {
		c.downdateRows(c0, min(c0+g, c.Contexts), 0, t)
	}
	for ctx := range c.Contexts {
		c.ver[ctx] = t
		c.bver[ctx] = -1
	}
	return nil
}

// refreshFromColumns writes −Bᵀ into the r̃ storage from whole columns of
// the kernel.
func (c *Confidence) refreshFromColumns() {
	for s, p := range c.pairs {
		ki := c.k.Column(p[0])
		rs := c.r.row(s)
		if p[1] < 0 {
			for m, v := range ki {
				rs[m] = -v
			}
			continue
		}
		kj := c.k.Column(p[1])
		for m := range rs {
			rs[m] = kj[m] - ki[m]
		}
	}
}

// refreshFromBlocks writes −Bᵀ into the r̃ storage as Refresh does, from
// blocks of blockRows rows of kernel entries against the named rows.
func (c *Confidence) refreshFromBlocks() {
	n := c.n
	cols := c.named(c.pairs)
	nc := len(cols)
	for r0 := 0; r0 < n; r0 += blockRows {
		r1 := min(r0+blockRows, n)
		nr := r1 - r0
		c.tile = resize(c.tile, nr*nc)
		c.bk.ColumnsTo(c.tile, r0, r1, cols)
		for s, p := range c.pairs {
			rs := c.r.row(s)[r0:r1]
			ki := c.tile[int(c.slot[p[0]])*nr:][:nr]
			if p[1] < 0 {
				for m, v := range ki {
					rs[m] = -v
				}
				continue
			}
			kj := c.tile[int(c.slot[p[1]])*nr:][:nr]
			for m := range rs {
				rs[m] = kj[m] - ki[m]
			}
		}
	}
	c.unname()
}

// cholesky overwrites the lower triangle of w = −C (t×t, row-major; C
// symmetric positive definite, its upper triangle ignored and overwritten)
// with the factor L of C = L Lᵀ. It reports false if C is not numerically
// positive definite.
//
// Working on −C lets every entry be one chain of fused multiply–adds with the
// products L[i][u]·L[j][u] as they are, over u = 0, …, j−1 in increasing
// order, started from −C[i][j]:
//
//	L[j][j] = √(−chain),   L[i][j] = chain / (−L[j][j])   (i > j).
//
// Rounding to nearest is symmetric, so the chain is the exact negation of the
// one started from C with negated products. The blocked order (a panel
// product for u < J0, then the columns of the block one by one) continues
// each chain in the same order, so the factor does not depend on the block
// size.
func cholesky(w []float64, t int) bool {
	nb := refreshBlock
	bt := make([]float64, t*nb)
	for j0 := 0; j0 < t; j0 += nb {
		j1 := min(j0+nb, t)
		jb := j1 - j0
		if j0 > 0 {
			// W[j0:t][j0:j1] += L[j0:t][0:j0] · L[j0:j1][0:j0]ᵀ.
			for u := range j0 {
				for jj := range jb {
					bt[u*jb+jj] = w[(j0+jj)*t+u]
				}
			}
			gemm.AddMulStridedTo(w[j0*t+j0:], t, w[j0*t:], t, bt, jb, t-j0, j0, jb)
		}
		for j := j0; j < j1; j++ {
			lj := w[j*t : j*t+j]
			s := w[j*t+j]
			for u := j0; u < j; u++ {
				s = math.FMA(lj[u], lj[u], s)
			}
			if !(-s > 0) || math.IsInf(s, 0) {
				return false
			}
			d := math.Sqrt(-s)
			w[j*t+j] = d
			for i := j + 1; i < t; i++ {
				li := w[i*t : i*t+j]
				s := w[i*t+j]
				for u := j0; u < j; u++ {
					s = math.FMA(li[u], lj[u], s)
				}
				w[i*t+j] = s / -d
			}
		}
	}
	return true
}

// solveLower overwrites the rows r̃_s, s < t, holding −Y with X = L⁻¹Y
// for the lower triangular L in w (t×t, from cholesky): row s of X is one
// chain of fused multiply–adds over u = 0, …, s−1 of L[s][u]·x_u started
// from −y_s, divided by −L[s][s] (rowStore.substitute).
func (c *Confidence) solveLower(w []float64, t int) {
	d := make([]float64, t)
	for s := range d {
		d[s] = -w[s*t+s]
	}
	// Strip by strip of columns: a strip of every row of r̃ stays in cache
	// while the blocks of rows are solved down it, where a full row of the
	// pool would be read again from memory for every block. The chains do
	// not depend on the strips.
	for lo := 0; lo < c.n; lo += solveStrip {
		c.r.substitute(lo, min(solveStrip, c.n-lo), w, t, 0, t, d, true)
	}
}

// solveStrip is the number of columns of r̃ that solveLower solves at a
// time.
const solveStrip = 256
