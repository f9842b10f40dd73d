package algorithms

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/neural-adb/nadb/internal/gemm"
	"github.com/neural-adb/nadb/internal/mlp"
)

// plusPosterior is the linearised Laplace posterior of the output layer of
// the member in use, h(x) = βᵀz(x) with z(x) = [x; e(x)] and β = [u; v] (e the
// last hidden layer at θ_t, held fixed): the Gauss–Newton curvature of L in β,
//
//	P = diag(λu I_d, λ I_w) + Σ_s μ'(h_win,s − h_lose,s) ψ_s ψ_sᵀ,   ψ_s = z(x_win,s) − z(x_lose,s),
//
// weighted by the Bradley–Terry Fisher information of each duel. It keeps
// Σ = P⁻¹ (m×m, m = d + w) and, for every context, the K×K block
// Q_c = Z_c Σ Z_cᵀ, so that Var(h_a − h_b) = ν̂²(Q_aa + Q_bb − 2Q_ab). Between
// retrains a duel updates Σ and every block by one rank-one downdate
// (Sherman–Morrison); each retrain rebuilds both at the new θ_t. P does not
// depend on the answers beyond the fitted ĥ, so a query's effect on Σ is
// known before it is answered.
type plusPosterior struct {
	pool     *Pool
	mb       *plusNet  // the member the posterior is of
	m        int       // d + w
	z        []float64 // N × m features z(x_n)
	cov      []float64 // m × m, Σ
	q        []float64 // Contexts × K × K blocks
	prior    []float64 // diagonal of P's prior part
	batch    *mlp.Batch
	u, zu    []float64
	nu2      float64
	tau      float64
	recM     []float64 // prequential margins h_win − h_lose
	recV     []float64 // and their variances (without ν̂²)
	nuCache  plusNuCache
	scratch  []float64
	rows     []int32   // 0, 1, …, m−1 (covTimes, blocks)
	zt, qrow []float64 // blocks' workspace
	// rebuild's workspace: ψ and k of every duel, the duels kept, one
	// row's terms.
	psis, ks, fac []float64
	kept, idx     []int32
}

func newPlusPosterior(p *Pool, width int) *plusPosterior {
	m := p.Dim + width
	return &plusPosterior{
		pool: p, m: m, z: make([]float64, p.Rows()*m), cov: make([]float64, m*m),
		q: make([]float64, p.Rows()*p.Arms), prior: make([]float64, m),
		u: make([]float64, m), zu: make([]float64, p.Rows()), nu2: 1, tau: 1,
	}
}

// rebuild recomputes z, Σ and the blocks for member mb and the duels (pool
// rows win, lose), each weighted by fisher of its margin.
func (ps *plusPosterior) rebuild(mb *plusNet, lambdaU float64, duels [][2]int, fisher func(float64) float64) {
	p := ps.pool
	d, m := p.Dim, ps.m
	ps.mb = mb
	ps.grow()
	ps.embed(0, p.Rows())
	for i := range m {
		switch {
		case i < d:
			ps.prior[i] = lambdaU
		case math.IsInf(mb.lambda, 1):
			ps.prior[i] = 1 // multiplies zero features only
		default:
			ps.prior[i] = mb.lambda
		}
	}
	prec := mat.NewSymDense(m, nil)
	for i := range m {
		prec.SetSym(i, i, ps.prior[i])
	}
	raw := prec.RawSymmetric()
	n := len(duels)
	if cap(ps.psis) < n*m { // with room: duels only grow
		ps.psis, ps.ks = make([]float64, n*m, 2*n*m), make([]float64, n, 2*n)
	}
	psis, ks := ps.psis[:n*m], ps.ks[:n]
	for s, du := range duels {
		ks[s] = fisher(mb.h[du[0]] - mb.h[du[1]])
		ps.diff(psis[s*m:(s+1)*m], du[0], du[1])
	}
	ps.syrRows(raw.Data, psis, ks)
	var ch mat.Cholesky
	var inv mat.SymDense
	if !factorizeJittered(&ch, prec) || ch.InverseTo(&inv) != nil || !allFinite(inv.RawSymmetric().Data) {
		// Features beyond what the arithmetic can hold: the prior alone.
		inv.Reset()
		inv.ReuseAsSym(m)
		for i := range m {
			inv.SetSym(i, i, 1/ps.prior[i])
		}
	}
	for i := range m {
		for j := range m {
			ps.cov[i*m+j] = inv.At(i, j)
		}
	}
	ps.blocks(0, p.Contexts)
}

// syrRows adds k_s ψ_s ψ_sᵀ to the upper triangle of the m×m matrix a
// (stride m) for the duels s in turn, ψ_s = psis[s·m : (s+1)·m], as
// blas64.Syr(k_s, ψ_s) called for each duel with a finite ψ_s gives it:
// row i gains (ψ_si k_s)·ψ_s[i:], the rows with a zero factor and the duels
// with k_s = 0 left out, each product rounded before its sum. The rows are
// added by gemm.AxpyRows, which keeps a row of a in registers over all
// duels.
func (ps *plusPosterior) syrRows(a, psis, ks []float64) {
	m := ps.m
	kept := ps.kept[:0]
	for s, k := range ks {
		if allFinite(psis[s*m:(s+1)*m]) && k != 0 {
			kept = append(kept, int32(s))
		}
	}
	ps.kept = kept
	if len(kept) == 0 {
		return
	}
	for i := range m {
		idx, fac := ps.idx[:0], ps.fac[:0]
		for _, s := range kept {
			if tmp := psis[int(s)*m+i] * ks[s]; tmp != 0 {
				idx, fac = append(idx, s), append(fac, tmp)
			}
		}
		ps.idx, ps.fac = idx, fac
		gemm.AxpyRows(a[i*m+i:i*m+m], psis[i:], m, idx, fac)
	}
}

// grow extends the per-row state to the pool's rows.
func (ps *plusPosterior) grow() {
	p := ps.pool
	N, K := p.Rows(), p.Arms
	if len(ps.z) < N*ps.m {
		ps.z = append(ps.z, make([]float64, N*ps.m-len(ps.z))...)
	}
	ps.z = ps.z[:N*ps.m]
	ps.q = resize(ps.q, p.Contexts*K*K)
	ps.zu = resize(ps.zu, N)
}

// evalRows recomputes z and the blocks of the contexts lo … hi−1 (whose
// features changed) at the current Σ.
func (ps *plusPosterior) evalRows(lo, hi int) {
	if lo >= hi {
		return
	}
	K := ps.pool.Arms
	ps.embed(lo*K, hi*K)
	ps.blocks(lo, hi)
}

// embed sets z(x_n) = [x_n; e(x_n)] for the pool rows lo … hi−1, e the last
// hidden layer of the member the posterior is of (zero for the linear-only
// member, whose v stays v0); non-finite values become 0.
func (ps *plusPosterior) embed(lo, hi int) {
	p := ps.pool
	d, m := p.Dim, ps.m
	net := ps.mb.net
	a := net.Arch
	if ps.batch == nil {
		ps.batch = mlp.NewBatch(a, 1024)
	}
	linearOnly := math.IsInf(ps.mb.lambda, 1)
	for start := lo; start < hi; start += 1024 {
		n := min(1024, hi-start)
		ps.batch.Resize(a, n)
		in := p.AppendRows(ps.batch.H[0][:0], start, start+n)
		if !linearOnly {
			net.Forward(ps.batch)
		}
		e := ps.batch.H[a.Depth]
		w := a.Width
		for r := range n {
			row := ps.z[(start+r)*m : (start+r+1)*m]
			copy(row[:d], in[r*d:(r+1)*d])
			if linearOnly {
				clear(row[d:])
			} else {
				copy(row[d:], e[r*w:(r+1)*w])
			}
			for k, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					row[k] = 0
				}
			}
		}
	}
}

// blocks sets Q_c = Z_c Σ Z_cᵀ for the contexts lo … hi−1.
func (ps *plusPosterior) blocks(lo, hi int) {
	m, K := ps.m, ps.pool.Arms
	N := (hi - lo) * K
	if N <= 0 {
		return
	}
	if cap(ps.scratch) < N*m {
		ps.scratch = make([]float64, N*m)
	}
	zs := ps.scratch[:N*m]
	z := ps.z[lo*K*m : hi*K*m]
	gemm.MulTo(zs, z, ps.cov, N, m, m)
	// Entry (a, b ≥ a) is plusDot(zs_a, z_b): row a of the block is
	// Σ_k zs_ak · (Z_cᵀ)_k, the products rounded before their sums and
	// added for k in turn from +0 (gemm.AxpyRows, the row in registers).
	zt := growF(&ps.zt, m*K)
	row := growF(&ps.qrow, K)
	if len(ps.rows) != m {
		ps.rows = plusIota(m)
	}
	for c := lo; c < hi; c++ {
		blk := ps.q[c*K*K : (c+1)*K*K]
		gemm.Transpose(zt, ps.z[c*K*m:(c+1)*K*m], K, m)
		for a := range K {
			za := zs[((c-lo)*K+a)*m : ((c-lo)*K+a+1)*m]
			clear(row)
			gemm.AxpyRows(row, zt, K, ps.rows, za)
			for b := a; b < K; b++ {
				blk[a*K+b], blk[b*K+a] = row[b], row[b]
			}
		}
	}
}

// plusIota returns 0, 1, …, n−1.
func plusIota(n int) []int32 {
	s := make([]int32, n)
	for k := range s {
		s[k] = int32(k)
	}
	return s
}

// diff writes z_i − z_j into dst.
func (ps *plusPosterior) diff(dst []float64, i, j int) {
	m := ps.m
	zi, zj := ps.z[i*m:(i+1)*m], ps.z[j*m:(j+1)*m]
	for k := range dst[:m] {
		dst[k] = zi[k] - zj[k]
	}
}

// add applies P ← P + κψψᵀ, ψ = z_i − z_j, to Σ and every block.
func (ps *plusPosterior) add(i, j int, kappa float64) {
	m := ps.m
	psi := make([]float64, m)
	ps.diff(psi, i, j)
	ps.covTimes(ps.u, psi)
	f := kappa / (1 + kappa*plusDot(ps.u, psi))
	blas64.Syr(-f, blas64.Vector{N: m, Inc: 1, Data: ps.u}, blas64.Symmetric{Uplo: blas.Upper, N: m, Stride: m, Data: ps.cov})
	for r := range m { // mirror the upper triangle
		for c := r + 1; c < m; c++ {
			ps.cov[c*m+r] = ps.cov[r*m+c]
		}
	}
	N, K := ps.pool.Rows(), ps.pool.Arms
	gemm.MulVecTo(ps.zu, ps.z[:N*m], ps.u, N, m)
	for c := range ps.pool.Contexts {
		w := ps.zu[c*K : (c+1)*K]
		blk := ps.q[c*K*K : (c+1)*K*K]
		for a := range K {
			fa := f * w[a]
			for b := range K {
				blk[a*K+b] -= fa * w[b]
			}
		}
	}
}

// covTimes writes Σψ into dst: each entry Σ_k Σ_rk ψ_k summed over k in
// increasing order from +0, each product rounded before its sum, as
// plusDot(Σ_r, ψ) forms it. Σ is held exactly symmetric (rebuild copies one
// triangle of the inverse into both, add mirrors the triangle it updates),
// so row k of Σ is its column k and the sums run as k scaled rows of Σ
// added in turn into dst, vectorised across its entries (gemm.AxpyRows:
// Axpy's bits, dst held in registers from the first row to the last).
func (ps *plusPosterior) covTimes(dst, psi []float64) {
	m := ps.m
	dst = dst[:m]
	clear(dst)
	if len(ps.rows) != m {
		ps.rows = plusIota(m)
	}
	gemm.AxpyRows(dst, ps.cov, m, ps.rows, psi[:m])
}

// var2 returns (z_a − z_b)ᵀ Σ (z_a − z_b) for arms a, b of context c, without ν̂².
func (ps *plusPosterior) var2(c, a, b int) float64 {
	K := ps.pool.Arms
	blk := ps.q[c*K*K : (c+1)*K*K]
	return max(blk[a*K+a]+blk[b*K+b]-2*blk[a*K+b], 0)
}

// record stores the prequential margin and variance of a duel (pool rows)
// before it is learnt.
func (ps *plusPosterior) record(win, lose int, h []float64) {
	K := ps.pool.Arms
	ps.recM = append(ps.recM, h[win]-h[lose])
	ps.recV = append(ps.recV, ps.var2(win/K, win%K, lose%K))
}
