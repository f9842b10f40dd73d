package gram

import (
	"fmt"
	"math"
)

// Confidence maintains the per-context blocks Q_c = Φ_c V⁻¹ Φ_cᵀ of a pool of
// Contexts × Arms feature rows (row n = c·Arms + a) under rank-one updates of V.
//
// An update computes r̃_t only on the contexts of its two rows; every other
// context's part of r̃_t, and its block, are brought up to date when the
// context is next read (see rows.go). The values are those of the eager
// recursion, bit for bit, whatever the order of reads. Reads therefore
// change internal state: a Confidence must not be used from several
// goroutines at once.
type Confidence struct {
	Contexts, Arms int
	// RefreshEvery > 0 schedules a Refresh after every RefreshEvery updates.
	// The refresh runs at the first read or update that follows (it depends
	// only on the updates and the kernel, so every value read is the same as
	// if it had run at once), and not at all if nothing follows.
	RefreshEvery int

	reg   float64 // a in V = a·I + Σ ψψᵀ
	k     Kernel
	bk    Blocker // k, if it computes blocks of entries on demand
	kp    Keeper  // k, if it keeps the rows updates name
	kept  []int   // per update s < len(kept)−1: the kept columns before its rows (kp)
	slot  []int32 // per pool row: its column in a block of entries (start), −1 if none
	cols  []int
	tile  []float64
	strip []float64 // scratch of downdateRows: rows of r̃ on a few contexts
	neg   []float64 // scratch of downdateRows: the strip negated
	n     int       // rows = Contexts·Arms
	r     rowStore  // r̃_s, row s of length n; context c's part once ver[c] > s
	pairs [][2]int  // (i, j) of ψ = φ_i − φ_j; j = −1 for ψ = φ_i (AddRow)
	q     []float64 // Contexts × Arms × Arms
	ver   []int     // per context: the updates its part of r and its block include
	nl    []float64 // row s: −ℓ_s = −(ψ_s·r̃_u) for u < s, at stride ldl
	ldl   int
	sig   []float64 // 1/√γ_s
	sweep int       // contexts brought up to date by reads since the last update
	swept bool      // the reads between the last two updates walked over contexts
	stale bool      // a scheduled refresh has not run yet

	// MaxPairBound's norm and largest diagonal entry of each stale block,
	// valid while the context's ver equals bver.
	bnorm, bdiag []float64
	bver         []int
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
	c := &Confidence{Contexts: contexts, Arms: arms, reg: reg, k: k, n: n, r: rowStore{n: n}, q: make([]float64, contexts*arms*arms), ver: make([]int, contexts),
		bnorm: make([]float64, contexts), bdiag: make([]float64, contexts), bver: make([]int, contexts)}
	for i := range c.bver {
		c.bver[i] = -1
	}
	if kp, ok := k.(Keeper); ok {
		c.kp = kp
		c.kept = []int{0}
	}
	if bk, ok := k.(Blocker); ok {
		c.bk = bk
		c.slot = make([]int32, n)
		for i := range c.slot {
			c.slot[i] = -1
		}
	}
	c.initBlocks()
	return c
}

// initBlocks sets every block to K0_c / a.
func (c *Confidence) initBlocks() {
	K := c.Arms
	entry := c.k.Entry
	for ctx := 0; ctx < c.Contexts; ctx++ {
		if c.bk != nil {
			c.cols = c.cols[:0]
			for a := range K {
				c.cols = append(c.cols, ctx*K+a)
			}
			c.tile = resize(c.tile, K*K)
			c.bk.ColumnsTo(c.tile, ctx*K, ctx*K+K, c.cols)
			entry = func(i, j int) float64 { return c.tile[(j-ctx*K)*K+i-ctx*K] }
		}
		blk := c.block(ctx)
		for a := range K {
			for b := a; b < K; b++ {
				v := entry(ctx*K+a, ctx*K+b) / c.reg
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

// Block returns Q_c (Arms×Arms, row-major). It aliases internal state: read
// only, and only until the next update.
func (c *Confidence) Block(ctx int) []float64 {
	c.settle()
	c.fresh(ctx)
	return c.block(ctx)
}

// block is Q_c as it stands, perhaps behind the updates.
func (c *Confidence) block(ctx int) []float64 {
	K := c.Arms
	return c.q[ctx*K*K : (ctx+1)*K*K]
}

// settle runs a scheduled refresh.
func (c *Confidence) settle() {
	if !c.stale {
		return
	}
	if err := c.Refresh(); err != nil {
		panic(err) // V is positive definite by construction
	}
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
	a, b, norm2, _ = maxPairOf(c.Block(ctx), c.Arms, nil)
	return a, b, max(norm2, 0)
}

// MaxPairFunc is MaxPair over the pairs (a < b) for which ok(a, b) holds;
// norm2 is −1 (and a = b = 0) when none does.
func (c *Confidence) MaxPairFunc(ctx int, ok func(a, b int) bool) (a, b int, norm2 float64) {
	a, b, norm2, _ = maxPairOf(c.Block(ctx), c.Arms, ok)
	if norm2 < 0 {
		return a, b, norm2
	}
	return a, b, max(norm2, 0)
}

// maxPairOf returns the first pair (a < b) of the K×K block q with the
// largest q_aa + q_bb − 2q_ab among those ok allows (all if ok is nil), that
// value and whether any pair is allowed; −1 and a = b = 0 if none is.
func maxPairOf(q []float64, K int, ok func(a, b int) bool) (a, b int, norm2 float64, found bool) {
	norm2 = -1
	for i := range K {
		for j := i + 1; j < K; j++ {
			if ok != nil && !ok(i, j) {
				continue
			}
			found = true
			v := q[i*K+i] + q[j*K+j] - 2*q[i*K+j]
			if v > norm2 {
				a, b, norm2 = i, j, v
			}
		}
	}
	return a, b, norm2, found
}

// Row returns the most recent update vector r̃_t over all pool rows (read only);
// nil before the first update. Callers that keep their own per-row statistics
// (for example pool-wide lookahead rules) use it.
func (c *Confidence) Row() []float64 {
	t := len(c.pairs)
	if t == 0 {
		return nil
	}
	c.settle()
	c.catchUpAll()
	return c.r.row(t - 1)
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

// add applies the update ψ = φ_i − φ_j, or ψ = φ_i when j < 0: it brings the
// contexts of rows i and j up to date, forms −ℓ_t from their rows, computes
// r̃_t on their columns (γ_t needs r_t at i and j) and downdates their blocks.
func (c *Confidence) add(i, j int) {
	c.settle()
	t := len(c.pairs)
	n, K := c.n, c.Arms
	ctxs := [2]int{i / K, -1}
	if j >= 0 && j/K != ctxs[0] {
		ctxs[1] = j / K
	}
	for _, ctx := range ctxs {
		if ctx >= 0 {
			c.catchUp(ctx, ctx+1)
		}
	}
	c.growNL(t + 1)
	nl := c.nl[t*c.ldl : t*c.ldl+t]
	for u := range nl {
		nl[u] = -psiDot(c.r.row(u), i, j)
	}
	c.r.grow()
	c.pairs = append(c.pairs, [2]int{i, j})
	for _, ctx := range ctxs {
		if ctx >= 0 {
			c.start(t, ctx*K, K)
			c.r.addMul(c.r.at(t, ctx*K), n, nl, t, 1, 0, t, ctx*K, K)
		}
	}
	rt := c.r.row(t)
	sig := 1 / math.Sqrt(1+psiDot(rt, i, j))
	c.sig = append(c.sig, sig)
	for _, ctx := range ctxs {
		if ctx < 0 {
			continue
		}
		x := rt[ctx*K : (ctx+1)*K]
		for m := range x {
			x[m] *= sig
		}
		c.downdate(ctx, x)
		c.ver[ctx] = t + 1
	}
	c.swept, c.sweep = c.sweep > sweepReads, 0
	if c.RefreshEvery > 0 && len(c.pairs)%c.RefreshEvery == 0 {
		c.stale = true
	}
}

// downdate applies Q_c −= x xᵀ with x = r̃_s restricted to context ctx, one
// fused multiply–add per element.
func (c *Confidence) downdate(ctx int, x []float64) {
	K := c.Arms
	q := c.block(ctx)
	for a, xa := range x {
		row := q[a*K : (a+1)*K]
		for b, xb := range x {
			row[b] = math.FMA(-xa, xb, row[b])
		}
	}
}
