package algorithms

import (
	"math"
	"slices"

	"github.com/neural-adb/nadb/internal/gram"
	"github.com/neural-adb/nadb/internal/mlp"
)

// lazyMinRows is the pool size (Contexts·Arms) above which NewNeuralModel
// keeps the confidence state of a fixed pool as lazyConfidence instead of
// gram.Confidence over a dense kernel. It is the largest pool of the paper's
// experiments (300 contexts × 20 arms), so every paper-scale run keeps
// gram.Confidence and its numbers; above it, gram.Confidence would keep
// rows × t values and rows² for the kernel. It must not exceed
// denseKernelMaxRows; it is a variable so that tests can run both states on
// one small pool.
var lazyMinRows = denseKernelMaxRows

// lazyBlockBudget bounds the memory of the blocks lazyConfidence keeps for
// the current V (bytes); when full, the kept blocks are dropped and computed
// again if asked for.
const lazyBlockBudget = 64 << 20

// lazyBatchRows is the number of pool rows whose blocks are solved together
// (one panel of the Cholesky factor serves them all while it is in cache). A
// variable so that tests can make the lazy rules solve one context at a time.
var lazyBatchRows = 256

// boundTol is the relative margin (of a context's largest ‖φ‖²/a) added to a
// stale norm before it serves as an upper bound: norms only shrink as V
// grows, but two computations of a norm may differ in rounding.
const boundTol = 1e-9

// lazyConfidence is the exact confidence state of a large fixed pool whose
// memory does not grow as rows × t: it keeps V = a·I + Σ ψ_s ψ_sᵀ as the
// Cholesky factor of the t×t dual matrix a·I + ΨᵀΨ (gram.Stream, with every
// pool row a "committed" row whose NTK signals are computed at θ0 when an
// update first names it) and computes a context's block Q_c = Φ_c V⁻¹ Φ_cᵀ on
// demand by forward substitution, treating the contexts asked for as the
// stream's fresh rows (their signals computed from θ0 and dropped after).
//
// Blocks of the current V are kept within lazyBlockBudget. For every context
// ever solved it also keeps upper bounds that stay valid as V grows, since
// norms only shrink: the largest pair norm and every arm's norm when last
// solved, plus a rounding margin (MaxPairBound, RowNorm2Bound). Rules that
// take an argmax over contexts (MaxNormContext, APO, AE-Borda) solve only the
// contexts whose bound could beat the best exact value found (lazyArgmax).
type lazyConfidence struct {
	pool   *Pool
	net0   *mlp.Net
	scale  float64
	kernel *poolKernel
	s      *gram.Stream

	blocks    map[int][]float64 // blocks at V with Len() == at
	at        int
	maxBlocks int
	batch     int // contexts solved together

	pairBound []float64 // per context; +Inf until first solved
	rowBound  []float64 // per row; +Inf until first solved
	rows      []float64 // scratch: the features of the contexts being solved
}

func newLazyConfidence(p *Pool, net0 *mlp.Net, scale, reg float64, unit bool, refreshEvery int) *lazyConfidence {
	k := newPoolKernel(p, net0, scale, unit)
	s := gram.NewStream(k, p.Arms, reg)
	s.RefreshEvery = refreshEvery
	K := p.Arms
	batch := max(1, lazyBatchRows/K)
	c := &lazyConfidence{
		pool: p, net0: net0, scale: scale, kernel: k, s: s,
		blocks: map[int][]float64{}, batch: batch,
		maxBlocks: max(lazyBlockBudget/(8*K*K), 2*batch),
		pairBound: make([]float64, p.Contexts),
		rowBound:  make([]float64, p.Rows()),
	}
	for i := range c.pairBound {
		c.pairBound[i] = math.Inf(1)
	}
	for i := range c.rowBound {
		c.rowBound[i] = math.Inf(1)
	}
	return c
}

func (c *lazyConfidence) Add(i, j int) { c.s.Add(i, j) }
func (c *lazyConfidence) AddRow(i int) { c.s.AddRow(i) }
func (c *lazyConfidence) Len() int     { return c.s.Len() }
func (c *lazyConfidence) Reg() float64 { return c.s.Reg() }

// current drops the kept blocks when V has changed since they were solved.
func (c *lazyConfidence) current() {
	if c.at != c.s.Len() {
		clear(c.blocks)
		c.at = c.s.Len()
	}
}

// Prepare solves, together, the blocks of the contexts of ctxs not kept for
// the current V (cheaper than one by one; the blocks are the same bits).
func (c *lazyConfidence) Prepare(ctxs []int) {
	c.current()
	var todo []int
	for _, ctx := range ctxs {
		if _, ok := c.blocks[ctx]; !ok && !slices.Contains(todo, ctx) {
			todo = append(todo, ctx)
		}
	}
	for len(todo) > 0 {
		n := min(len(todo), c.batch)
		c.solve(todo[:n])
		todo = todo[n:]
	}
}

// solve computes the blocks of ctxs (at most batch contexts) for the current
// V, keeps them and updates their bounds.
func (c *lazyConfidence) solve(ctxs []int) {
	p := c.pool
	K := p.Arms
	c.rows = c.rows[:0]
	for _, ctx := range ctxs {
		c.rows = p.AppendRows(c.rows, ctx*K, (ctx+1)*K)
	}
	c.kernel.setFresh(c.rows)
	c.s.SetFresh(len(ctxs))
	c.s.SolveAll()
	if len(c.blocks)+len(ctxs) > c.maxBlocks {
		clear(c.blocks)
	}
	for f, ctx := range ctxs {
		q := append([]float64(nil), c.s.Block(f)...)
		c.blocks[ctx] = q
		scale := 0.0
		for a := range K {
			scale = max(scale, c.kernel.freshDiag(f*K+a))
		}
		tol := boundTol * scale / c.s.Reg()
		_, _, n2 := maxPairOf(q, K, nil)
		c.pairBound[ctx] = n2 + tol
		for a := range K {
			c.rowBound[ctx*K+a] = max(q[a*K+a], 0) + tol
		}
	}
}

// Block returns Q_c for the current V, solving it if it is not kept. Read
// only, valid until the next Add or AddRow.
func (c *lazyConfidence) Block(ctx int) []float64 {
	c.current()
	if q, ok := c.blocks[ctx]; ok {
		return q
	}
	c.solve([]int{ctx})
	return c.blocks[ctx]
}

func (c *lazyConfidence) Norm2(ctx, a, b int) float64 {
	K := c.pool.Arms
	q := c.Block(ctx)
	return max(q[a*K+a]+q[b*K+b]-2*q[a*K+b], 0)
}

func (c *lazyConfidence) RowNorm2(ctx, a int) float64 {
	K := c.pool.Arms
	return max(c.Block(ctx)[a*K+a], 0)
}

func (c *lazyConfidence) MaxPair(ctx int) (a, b int, norm2 float64) {
	a, b, norm2 = maxPairOf(c.Block(ctx), c.pool.Arms, nil)
	return a, b, max(norm2, 0)
}

func (c *lazyConfidence) MaxPairFunc(ctx int, ok func(a, b int) bool) (a, b int, norm2 float64) {
	a, b, norm2 = maxPairOf(c.Block(ctx), c.pool.Arms, ok)
	if norm2 < 0 {
		return a, b, norm2
	}
	return a, b, max(norm2, 0)
}

// MaxPairBound returns an upper bound on MaxPairFunc(ctx, ok)'s norm for any
// ok, now and after any further updates: +Inf until the context is first
// solved.
func (c *lazyConfidence) MaxPairBound(ctx int) float64 { return c.pairBound[ctx] }

// RowNorm2Bound returns an upper bound on RowNorm2(ctx, a), now and after
// any further updates: +Inf until the context is first solved.
func (c *lazyConfidence) RowNorm2Bound(ctx, a int) float64 {
	return c.rowBound[ctx*c.pool.Arms+a]
}

// maxPairOf returns the pair (a < b) of the K×K block q with the largest
// q_aa + q_bb − 2q_ab among those ok allows (all when ok is nil), the first
// in row-major order on exact ties; norm2 is −1 (a = b = 0) when there is
// none. Pairs whose norm is not a number are skipped.
func maxPairOf(q []float64, K int, ok func(a, b int) bool) (a, b int, norm2 float64) {
	norm2 = -1
	for i := range K {
		for j := i + 1; j < K; j++ {
			if ok != nil && !ok(i, j) {
				continue
			}
			if v := q[i*K+i] + q[j*K+j] - 2*q[i*K+j]; v > norm2 {
				a, b, norm2 = i, j, v
			}
		}
	}
	return a, b, norm2
}
