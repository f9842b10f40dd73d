package gram

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// Confidence maintains the per-context blocks Q_c = Φ_c V⁻¹ Φ_cᵀ of a pool of
// Contexts × Arms feature rows (row n = c·Arms + a) under rank-one updates of V.
type Confidence struct {
	Contexts, Arms int
	// RefreshEvery > 0 triggers Refresh after every RefreshEvery updates.
	RefreshEvery int

	reg   float64 // a in V = a·I + Σ ψψᵀ
	k     Kernel
	n     int       // rows = Contexts·Arms
	r     []float64 // r̃_s, row s of length n
	pairs [][2]int  // (i, j) of ψ = φ_i − φ_j; j = −1 for ψ = φ_i (AddRow)
	q     []float64 // Contexts × Arms × Arms
	ell   []float64
	buf   []float64
}

// New returns the confidence state for V = reg·I (no updates yet). reg must be
// positive; k must have Contexts·Arms rows.
func New(k Kernel, contexts, arms int, reg float64) *Confidence {
	if !(reg > 0) {
		panic("gram: regulariser must be positive")
	}
	n := contexts * arms
	if k.Rows() != n {
		panic(fmt.Sprintf("gram: kernel has %d rows, want %d contexts × %d arms", k.Rows(), contexts, arms))
	}
	c := &Confidence{Contexts: contexts, Arms: arms, reg: reg, k: k, n: n, q: make([]float64, contexts*arms*arms), buf: make([]float64, n)}
	c.initBlocks()
	return c
}

// initBlocks sets every block to K0_c / a.
func (c *Confidence) initBlocks() {
	K := c.Arms
	for ctx := 0; ctx < c.Contexts; ctx++ {
		blk := c.Block(ctx)
		for a := range K {
			for b := a; b < K; b++ {
				v := c.k.Entry(ctx*K+a, ctx*K+b) / c.reg
				blk[a*K+b] = v
				blk[b*K+a] = v
			}
		}
	}
}

// Len returns the number of updates so far.
func (c *Confidence) Len() int { return len(c.pairs) }

// Reg returns a.
func (c *Confidence) Reg() float64 { return c.reg }

// Block returns Q_c (Arms×Arms, row-major). It aliases internal state: read only.
func (c *Confidence) Block(ctx int) []float64 {
	K := c.Arms
	return c.q[ctx*K*K : (ctx+1)*K*K]
}

// Norm2 returns ‖φ_{c,a} − φ_{c,b}‖²_{V⁻¹}, clamped at 0 against rounding.
func (c *Confidence) Norm2(ctx, a, b int) float64 {
	K := c.Arms
	q := c.Block(ctx)
	v := q[a*K+a] + q[b*K+b] - 2*q[a*K+b]
	return max(v, 0)
}

// RowNorm2 returns ‖φ_{c,a}‖²_{V⁻¹}, the diagonal entry of Q_c, clamped at 0
// against rounding.
func (c *Confidence) RowNorm2(ctx, a int) float64 {
	K := c.Arms
	return max(c.Block(ctx)[a*K+a], 0)
}

// psiDot returns v[i] − v[j], or v[i] when j < 0: the inner product of v with
// the combination e_i − e_j (or e_i) that defines an update ψ.
func psiDot(v []float64, i, j int) float64 {
	if j < 0 {
		return v[i]
	}
	return v[i] - v[j]
}

// MaxPair returns the pair (a < b) of context ctx with the largest norm and
// that squared norm. Exact ties go to the first pair in row-major order.
func (c *Confidence) MaxPair(ctx int) (a, b int, norm2 float64) {
	K := c.Arms
	q := c.Block(ctx)
	norm2 = -1
	for i := range K {
		for j := i + 1; j < K; j++ {
			v := q[i*K+i] + q[j*K+j] - 2*q[i*K+j]
			if v > norm2 {
				a, b, norm2 = i, j, v
			}
		}
	}
	return a, b, max(norm2, 0)
}

// MaxPairFunc is MaxPair over the pairs (a < b) for which ok(a, b) holds;
// norm2 is −1 (and a = b = 0) when none does.
func (c *Confidence) MaxPairFunc(ctx int, ok func(a, b int) bool) (a, b int, norm2 float64) {
	K := c.Arms
	q := c.Block(ctx)
	norm2 = -1
	for i := range K {
		for j := i + 1; j < K; j++ {
			if !ok(i, j) {
				continue
			}
			v := q[i*K+i] + q[j*K+j] - 2*q[i*K+j]
			if v > norm2 {
				a, b, norm2 = i, j, v
			}
		}
	}
	if norm2 < 0 {
		return a, b, norm2
	}
	return a, b, max(norm2, 0)
}

// Row returns the most recent update vector r̃_t over all pool rows (read only);
// nil before the first update. Callers that keep their own per-row statistics
// (for example pool-wide lookahead rules) use it.
func (c *Confidence) Row() []float64 {
	t := len(c.pairs)
	if t == 0 {
		return nil
	}
	return c.r[(t-1)*c.n : t*c.n]
}

// Add updates V ← V + ψψᵀ with ψ = φ_i − φ_j for pool rows i ≠ j.
func (c *Confidence) Add(i, j int) {
	if i == j || i < 0 || j < 0 || i >= c.n || j >= c.n {
		panic(fmt.Sprintf("gram: Add(%d, %d) needs two distinct rows in [0, %d)", i, j, c.n))
	}
	c.add(i, j)
}

// AddRow updates V ← V + ψψᵀ with ψ = φ_i, a single pool row: the design of
// learners that regress on one feature vector per query (AE-Borda). Updates of
// both kinds may be mixed.
func (c *Confidence) AddRow(i int) {
	if i < 0 || i >= c.n {
		panic(fmt.Sprintf("gram: AddRow(%d) needs a row in [0, %d)", i, c.n))
	}
	c.add(i, -1)
}

// add applies the update ψ = φ_i − φ_j, or ψ = φ_i when j < 0.
func (c *Confidence) add(i, j int) {
	t := len(c.pairs)
	n := c.n
	r := c.buf
	ki := c.k.Column(i)
	inv := 1 / c.reg
	if j >= 0 {
		kj := c.k.Column(j)
		for m := range r {
			r[m] = (ki[m] - kj[m]) * inv
		}
	} else {
		for m := range r {
			r[m] = ki[m] * inv
		}
	}
	if t > 0 {
		if cap(c.ell) < t {
			c.ell = make([]float64, t, 2*t)
		}
		ell := c.ell[:t]
		for s := range t {
			rs := c.r[s*n : (s+1)*n]
			ell[s] = psiDot(rs, i, j)
		}
		blas64.Gemv(blas.Trans, -1, blas64.General{Rows: t, Cols: n, Stride: n, Data: c.r[:t*n]},
			blas64.Vector{N: t, Inc: 1, Data: ell}, 1, blas64.Vector{N: n, Inc: 1, Data: r})
	}
	gamma := 1 + psiDot(r, i, j)
	scale := 1 / math.Sqrt(gamma)
	c.r = append(c.r, r...)
	rt := c.r[t*n : (t+1)*n]
	for m := range rt {
		rt[m] *= scale
	}
	c.pairs = append(c.pairs, [2]int{i, j})
	c.downdateBlocks(rt)
	if c.RefreshEvery > 0 && len(c.pairs)%c.RefreshEvery == 0 {
		if err := c.Refresh(); err != nil {
			panic(err) // V is positive definite by construction
		}
	}
}

// downdateBlocks applies Q_c −= r̃_c r̃_cᵀ to every block.
func (c *Confidence) downdateBlocks(rt []float64) {
	K := c.Arms
	for ctx := 0; ctx < c.Contexts; ctx++ {
		q := c.Block(ctx)
		x := rt[ctx*K : (ctx+1)*K]
		for a := range K {
			xa := x[a]
			row := q[a*K : (a+1)*K]
			for b := range row {
				row[b] -= xa * x[b]
			}
		}
	}
}

// Refresh recomputes every r̃_s and every block from scratch: it factorises the
// t×t matrix C = a·I + ΨᵀΨ (entries from the kernel) by Cholesky, solves
// R̃ᵀ = (1/√a) L⁻¹ Bᵀ with B = ΦΨ, and rebuilds Q_c = K0_c/a − Σ_s r̃_s,c r̃_s,cᵀ.
func (c *Confidence) Refresh() error {
	t := len(c.pairs)
	if t == 0 {
		return nil
	}
	n := c.n
	// Bᵀ into the r̃ storage: row s = K0[:, i_s] − K0[:, j_s].
	for s, p := range c.pairs {
		ki := c.k.Column(p[0])
		rs := c.r[s*n : (s+1)*n]
		if p[1] < 0 {
			copy(rs, ki)
			continue
		}
		kj := c.k.Column(p[1])
		for m := range rs {
			rs[m] = ki[m] - kj[m]
		}
	}
	cm := make([]float64, t*t)
	for s, p := range c.pairs {
		// C[s][s'] = ψ_s·ψ_s' = B[i_s][s'] − B[j_s][s'], read from the rows of Bᵀ.
		for s2 := 0; s2 <= s; s2++ {
			b2 := c.r[s2*n : (s2+1)*n]
			v := psiDot(b2, p[0], p[1])
			cm[s*t+s2] = v
			cm[s2*t+s] = v
		}
		cm[s*t+s] += c.reg
	}
	chol := blas64.Symmetric{N: t, Stride: t, Data: cm, Uplo: blas.Lower}
	if _, ok := lapack64.Potrf(chol); !ok {
		return errors.New("gram: refresh Cholesky failed: a·I + ΨᵀΨ is not positive definite")
	}
	blas64.Trsm(blas.Left, blas.NoTrans, 1/math.Sqrt(c.reg),
		blas64.Triangular{N: t, Stride: t, Data: cm, Uplo: blas.Lower, Diag: blas.NonUnit},
		blas64.General{Rows: t, Cols: n, Stride: n, Data: c.r[:t*n]})
	c.initBlocks()
	for s := range t {
		c.downdateBlocks(c.r[s*n : (s+1)*n])
	}
	return nil
}
