package algorithms

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/neural-adb/nadb/internal/gemm"
)

// tgBlocks is the per-context state neural-adb-target keeps for a set of
// contexts (the target sample, or the round's candidate contexts outside
// it): the rows' features x, posterior features z = [x; e(x)] (e the last
// hidden layer of the member in use), averaged scores h̄ (h) and the
// posterior member's scores (hp), and each context's K×K block
// Q_c = Z_c Σ Z_cᵀ. With withS it also keeps S = Σ Z_ᵀ (m × rows, row i
// contiguous), through which a candidate duel's effect on every row of the
// set costs one sparse combination of S's rows; scol, when not nil, names
// the rows (ascending) whose columns S keeps, the only ones read.
type tgBlocks struct {
	K, m  int
	ctx   []int // pool context of each block (−1: a copy, not in the pool)
	x     *tgRows
	z     []float64 // rows × m
	h, hp []float64
	q     []float64 // blocks × K × K
	s     []float64 // m × len(scol), or m × rows when scol is nil (withS)
	scol  []int32
	withS bool
	zs    []float64 // scratch: rows × m
	r, rs []float64 // scratch: rows, and those of scol
}

func newTGBlocks(K, dim, m int, withS bool) *tgBlocks {
	return &tgBlocks{K: K, m: m, x: newTGRows(dim), withS: withS}
}

func (b *tgBlocks) n() int    { return len(b.ctx) }
func (b *tgBlocks) rows() int { return len(b.ctx) * b.K }

// sCols returns the number of columns of S.
func (b *tgBlocks) sCols() int {
	if b.scol != nil {
		return len(b.scol)
	}
	return b.rows()
}

func (b *tgBlocks) reset() {
	b.ctx = b.ctx[:0]
	b.x.reset()
}

// add appends a context with feature rows xs (K rows of dim values).
func (b *tgBlocks) add(ctx int, xs []float64) {
	b.ctx = append(b.ctx, ctx)
	d := b.x.dim
	for a := range b.K {
		b.x.add(xs[a*d : (a+1)*d])
	}
}

// find returns the block of pool context c, or −1.
func (b *tgBlocks) find(c int) int {
	for i, v := range b.ctx {
		if v == c {
			return i
		}
	}
	return -1
}

// var2 returns (z_a − z_b)ᵀ Σ (z_a − z_b) for arms a, b of block i.
func (b *tgBlocks) var2(i, a, c int) float64 {
	K := b.K
	q := b.q[i*K*K : (i+1)*K*K]
	return max(q[a*K+a]+q[c*K+c]-2*q[a*K+c], 0)
}

// tgPosterior is the linearised Laplace posterior of neural-adb-target's
// member in use (neural-adb-plus's, plus_posterior.go), kept as Σ = P⁻¹
// only: per-context state exists for the target sample and the round's
// candidates (tgBlocks), never for every pool row.
type tgPosterior struct {
	d, w, m int
	mb      *tgMember
	cov     []float64 // m × m
	prior   []float64
	nu2     float64
	tau     float64
	recM    []float64 // prequential margins (member in use)
	recV    []float64 // and variances (without ν̂²)
	u, psi  []float64
	nuCache plusNuCache // fitNu's terms, kept across refits (plus_fitcache.go)
}

func newTGPosterior(d, w int) *tgPosterior {
	m := d + w
	ps := &tgPosterior{d: d, w: w, m: m, cov: make([]float64, m*m), prior: make([]float64, m),
		u: make([]float64, m), psi: make([]float64, m), nu2: 1, tau: 1}
	for i := range m {
		ps.prior[i] = 1
		ps.cov[i*m+i] = 1
	}
	return ps
}

// rebuild sets Σ = (diag(prior) + Σ_s κ_s ψ_s ψ_sᵀ)⁻¹ for member mb, with
// prec the sum Σ_s κ_s ψ_s ψ_sᵀ over the duels (m × m; nil: no duel), which
// it takes over and adds the prior to.
func (ps *tgPosterior) rebuild(mb *tgMember, lambdaU float64, prec []float64) {
	d, m := ps.d, ps.m
	ps.mb = mb
	for i := range m {
		switch {
		case i < d:
			ps.prior[i] = lambdaU
		case mb.linear():
			ps.prior[i] = 1 // multiplies zero features only
		default:
			ps.prior[i] = mb.lambda
		}
	}
	if prec == nil {
		prec = make([]float64, m*m)
	}
	for i := range m {
		prec[i*m+i] += ps.prior[i]
	}
	sym := mat.NewSymDense(m, prec)
	var ch mat.Cholesky
	var inv mat.SymDense
	if !allFinite(prec) || !factorizeJittered(&ch, sym) || ch.InverseTo(&inv) != nil || !allFinite(inv.RawSymmetric().Data) {
		inv.Reset()
		inv.ReuseAsSym(m)
		for i := range m {
			inv.SetSym(i, i, 1/ps.prior[i])
		}
	}
	for i := range m {
		for j := i; j < m; j++ {
			v := inv.At(i, j)
			ps.cov[i*m+j], ps.cov[j*m+i] = v, v
		}
	}
}

// mulDense writes Σψ into dst, skipping the zeros of ψ.
func (ps *tgPosterior) mulDense(dst, psi []float64) {
	m := ps.m
	clear(dst[:m])
	for i, v := range psi[:m] {
		if v != 0 {
			plusAxpy(v, ps.cov[i*m:(i+1)*m], dst)
		}
	}
}

// update applies P ← P + κψψᵀ (ψ dense, m values) to Σ and to every block
// set given: Σ −= f u uᵀ with u = Σψ, f = κ/(1 + κψᵀu); their blocks and
// S follow from r = Z u.
func (ps *tgPosterior) update(psi []float64, kappa float64, sets ...*tgBlocks) {
	m := ps.m
	ps.mulDense(ps.u, psi)
	f := kappa / (1 + kappa*plusDot(ps.u, psi))
	if !(f > 0) || math.IsInf(f, 0) || !allFinite(ps.u) {
		return
	}
	blas64.Syr(-f, blas64.Vector{N: m, Inc: 1, Data: ps.u}, blas64.Symmetric{Uplo: blas.Upper, N: m, Stride: m, Data: ps.cov})
	for r := range m {
		for c := r + 1; c < m; c++ {
			ps.cov[c*m+r] = ps.cov[r*m+c]
		}
	}
	for _, b := range sets {
		if b == nil || b.n() == 0 {
			continue
		}
		R := b.rows()
		b.r = resize(b.r, R)
		gemm.MulVecTo(b.r, b.z[:R*m], ps.u, R, m)
		K := b.K
		for i := range b.n() {
			rr := b.r[i*K : (i+1)*K]
			q := b.q[i*K*K : (i+1)*K*K]
			for a := range K {
				fa := f * rr[a]
				for c := range K {
					q[a*K+c] -= fa * rr[c]
				}
			}
		}
		if b.withS {
			// Each entry of S changes by its own product and sum, so the
			// kept columns alone take the same steps.
			r, Rs := b.r, R
			if b.scol != nil {
				Rs = len(b.scol)
				b.rs = resize(b.rs, Rs)
				for k, row := range b.scol {
					b.rs[k] = b.r[row]
				}
				r = b.rs
			}
			for i, ui := range ps.u {
				plusAxpy(-f*ui, r, b.s[i*Rs:(i+1)*Rs])
			}
		}
	}
}

// fill computes z, hp, Q (and S) of the block set b at the current model
// and Σ, and with withH the averaged scores h (only ObjectivePolicy reads
// them; without, h is left empty and only the member in use is evaluated:
// eval's hp and z are those of evalCurrent).
func (ps *tgPosterior) fill(b *tgBlocks, model *tgModel, withH bool) {
	R, m, K := b.rows(), ps.m, b.K
	b.hp = resize(b.hp, R)
	b.z = resize(b.z, R*m)
	if withH {
		b.h = resize(b.h, R)
		model.eval(b.x, b.h, b.hp, b.z, ps.d, m)
	} else {
		b.h = b.h[:0]
		model.evalCurrent(b.x, nil, b.hp, b.z, ps.d, m)
	}
	// ZΣ row by row: the x part through its non-zeros, the e part by one
	// product.
	b.zs = resize(b.zs, R*m)
	zs := b.zs
	d, w := ps.d, ps.w
	if w > 0 && !ps.mb.linear() {
		ew := make([]float64, R*w)
		for r := range R {
			copy(ew[r*w:(r+1)*w], b.z[r*m+d:(r+1)*m])
		}
		gemm.MulTo(zs, ew, ps.cov[d*m:], R, w, m)
	} else {
		clear(zs)
	}
	for r := range R {
		idx, val := b.x.row(r)
		// zs_r += val[k]·Σ_{idx[k]} for each non-zero in turn.
		gemm.AxpyRows(zs[r*m:(r+1)*m], ps.cov, m, idx, val)
	}
	// Q's entries: plusDot of z_a and (ZΣ)_c, four at a time (tgDot4: four
	// independent sums, each in plusDot's order).
	b.q = resize(b.q, b.n()*K*K)
	for i := range b.n() {
		q := b.q[i*K*K : (i+1)*K*K]
		zsi := zs[i*K*m : (i+1)*K*m]
		for a := range K {
			za := b.z[(i*K+a)*m : (i*K+a+1)*m]
			c := a
			for ; c+4 <= K; c += 4 {
				v := tgDot4(za, zsi[c*m:(c+4)*m])
				for k, vk := range v {
					q[a*K+c+k], q[(c+k)*K+a] = vk, vk
				}
			}
			for ; c < K; c++ {
				v := plusDot(za, zsi[c*m:(c+1)*m])
				q[a*K+c], q[c*K+a] = v, v
			}
		}
	}
	if b.withS {
		// S = (ZΣ)ᵀ on the kept columns: their rows of ZΣ gathered in
		// place (ascending: no row is overwritten before it is read), then
		// transposed.
		Rs := b.sCols()
		if b.scol != nil {
			for k, r := range b.scol {
				copy(zs[k*m:(k+1)*m], zs[int(r)*m:(int(r)+1)*m])
			}
		}
		b.s = resize(b.s, m*Rs)
		gemm.Transpose(b.s, zs[:Rs*m], Rs, m)
	}
}

// tgDot4 returns plusDot(x, y_k) of the four consecutive rows y_k of y
// (len(x) values each), the four sums formed side by side.
func tgDot4(x, y []float64) [4]float64 {
	n := len(x)
	y0, y1, y2, y3 := y[:n], y[n:2*n], y[2*n:3*n], y[3*n:4*n]
	var s0, s1, s2, s3 float64
	for i, v := range x {
		s0 += v * y0[i]
		s1 += v * y1[i]
		s2 += v * y2[i]
		s3 += v * y3[i]
	}
	return [4]float64{s0, s1, s2, s3}
}

// record stores the prequential margin and variance of a duel before it is
// learnt.
func (ps *tgPosterior) record(margin, v float64) {
	ps.recM = append(ps.recM, margin)
	ps.recV = append(ps.recV, v)
}

// fitNu refits (τ̂, ν̂²) on the prequential records, by neural-adb-plus's
// grid search (plusPosterior.fitNu), with its cache of the records' terms
// kept from one refit to the next (the records only grow; the fit is bit
// for bit that without the cache).
func (ps *tgPosterior) fitNu(gamma float64) {
	p := plusPosterior{recM: ps.recM, recV: ps.recV, nu2: ps.nu2, tau: ps.tau, nuCache: ps.nuCache}
	p.fitNu(gamma)
	ps.tau, ps.nu2, ps.nuCache = p.tau, p.nu2, p.nuCache
}
