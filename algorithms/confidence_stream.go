package algorithms

import (
	"fmt"

	"github.com/neural-adb/nadb/internal/gram"
	"github.com/neural-adb/nadb/internal/mlp"
)

// streamConfidence is the Confidence of the fresh-context reading on the
// gradient features φ = g(x;θ0)/√w: the NTK signals of committed rows grow
// as contexts are committed, those of the fresh rows are recomputed every
// round, and gram.Stream computes the blocks of the fresh contexts, the only
// ones a selection rule reads in this reading (norms of committed contexts
// are not kept; asking for one is a programmer error).
type streamConfidence struct {
	pool       *Pool
	net0       *mlp.Net // the network at θ0
	scale      float64
	committed  *mlp.Features
	freshF     *mlp.Features // this round's fresh rows
	freshStore *mlp.Features // the last fresh rows, whose storage the next replace
	kernel     *mlp.StreamKernel
	s          *gram.Stream
	gen        uint64
	done       int // committed rows whose signals are kept
}

func newStreamConfidence(p *Pool, net0 *mlp.Net, scale, reg float64, refreshEvery int) *streamConfidence {
	committed := mlp.NewEmptyFeatures(net0.Arch, scale)
	k := mlp.NewStreamKernel(committed, nil)
	s := gram.NewStream(k, p.Arms, reg)
	s.RefreshEvery = refreshEvery
	c := &streamConfidence{pool: p, net0: net0, scale: scale, committed: committed, kernel: k, s: s, gen: p.Generation() - 1}
	c.sync()
	return c
}

// sync brings the signals up to date with the pool.
func (c *streamConfidence) sync() {
	p := c.pool
	if p.Generation() == c.gen {
		return
	}
	c.gen = p.Generation()
	committed := p.Committed() * p.Arms
	if committed > c.done {
		c.committed.Append(c.net0, p.RowsTo(nil, c.done, committed))
		c.done = committed
	}
	// The fresh rows' signals replace the last round's in their storage
	// (nothing else holds the last round's features).
	if committed < p.Rows() {
		c.freshStore = c.net0.FreshFeatures(c.freshStore, p.RowsTo(nil, committed, p.Rows()), c.scale)
		c.freshF = c.freshStore
	} else {
		c.freshF = mlp.NewEmptyFeatures(c.net0.Arch, c.scale)
	}
	c.kernel.SetFresh(c.freshF)
	c.s.SetFresh(p.Fresh())
}

// fresh returns the stream's index of pool context ctx, which must be fresh.
func (c *streamConfidence) fresh(ctx int) int {
	c.sync()
	f := ctx - c.pool.Committed()
	if f < 0 || f >= c.pool.Fresh() {
		panic(fmt.Sprintf("algorithms: context %d is not one of this round's fresh contexts: the fresh-context reading keeps norms for those only", ctx))
	}
	return f
}

func (c *streamConfidence) Add(i, j int) {
	c.sync()
	c.s.Add(i, j)
}

func (c *streamConfidence) AddRow(i int) {
	c.sync()
	c.s.AddRow(i)
}

func (c *streamConfidence) Len() int     { return c.s.Len() }
func (c *streamConfidence) Reg() float64 { return c.s.Reg() }

func (c *streamConfidence) Block(ctx int) []float64     { return c.s.Block(c.fresh(ctx)) }
func (c *streamConfidence) Norm2(ctx, a, b int) float64 { return c.s.Norm2(c.fresh(ctx), a, b) }
func (c *streamConfidence) RowNorm2(ctx, a int) float64 { return c.s.RowNorm2(c.fresh(ctx), a) }

// prepareArgmax lets the stream solve the offered fresh contexts ctxs
// together and drop those that the walk of argmaxMaxPair over them, in this
// order, can prove below its running maximum (gram.Stream.PrepareArgmax).
func (c *streamConfidence) prepareArgmax(o Offer, ctxs []int) {
	c.sync()
	first := c.pool.Committed()
	fs := make([]int, 0, len(ctxs))
	for _, ctx := range ctxs {
		fs = append(fs, c.fresh(ctx))
	}
	var ok func(f, a, b int) bool
	if o.Allowed != nil {
		ok = func(f, a, b int) bool { return o.Allowed(f+first, a, b) }
	}
	c.s.PrepareArgmax(fs, ok)
}

// MaxPairBound implements staleBounder for the pairs of the last
// prepareArgmax (the offer's): an upper bound on the context's largest pair
// norm, and whether its block is solved.
func (c *streamConfidence) MaxPairBound(ctx int, _ func(a, b int) bool) (norm2 float64, exact bool) {
	return c.s.MaxPairBound(c.fresh(ctx))
}

func (c *streamConfidence) MaxPair(ctx int) (a, b int, norm2 float64) {
	return c.s.MaxPair(c.fresh(ctx))
}

func (c *streamConfidence) MaxPairFunc(ctx int, ok func(a, b int) bool) (a, b int, norm2 float64) {
	K := c.pool.Arms
	q := c.s.Block(c.fresh(ctx))
	norm2 = -1
	for i := range K {
		for j := i + 1; j < K; j++ {
			if !ok(i, j) {
				continue
			}
			if v := q[i*K+i] + q[j*K+j] - 2*q[i*K+j]; v > norm2 {
				a, b, norm2 = i, j, v
			}
		}
	}
	if norm2 < 0 {
		return a, b, norm2
	}
	return a, b, max(norm2, 0)
}

// freshM returns the entry of Φ_f V⁻¹ Φ_fᵀ between fresh rows x and y
// (indices among this round's fresh rows): K(x, y)/a − r̃[x]·r̃[y].
func (c *streamConfidence) freshM(x, y int) float64 {
	c.sync()
	_, t, r := c.s.FreshR()
	v := c.freshF.CrossEntry(x, c.freshF, y) / c.s.Reg()
	rx, ry := r[x*t:(x+1)*t], r[y*t:(y+1)*t]
	for s, a := range rx {
		v -= a * ry[s]
	}
	return v
}
