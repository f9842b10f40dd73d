package algorithms

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/neural-adb/nadb/internal/logistic"
	"github.com/neural-adb/nadb/internal/mlp"
	"github.com/neural-adb/nadb/internal/xmath"
)

// lastLayer is a Laplace approximation of the posterior of the output weights
// v of the current network h(x;θ_t) = vᵀ e(x) (e = the last hidden layer at
// θ_t; an output bias cancels in every difference), with the rest of θ_t held
// fixed: the "neural-linear" posterior of Riquelme et al. (2018) with the
// Bradley–Terry likelihood. Its precision is the curvature of the training
// objective (eq. 2 as configured) in v,
//
//	P = ρ I + S Σ_s μ'(h_win,s − h_lose,s) ψ_s ψ_sᵀ,   ψ_s = e(x_win,s) − e(x_lose,s),
//
// with ρ = 2λ for the regulariser λ‖θ‖² (λ for (λ/2)‖θ − θ0‖²) and S the loss
// scale. It is rebuilt from every duel after each retrain (new θ_t, new e)
// and updated by Sherman–Morrison after each duel in between. The variance
// of h_a − h_b is (e_a − e_b)ᵀ P⁻¹ (e_a − e_b), scaled by ν² fitted on held-out
// duels (fitNu2).
type lastLayer struct {
	w     int
	rho   float64
	emb   []float64 // N × w, e(x_n; θ_t), for every pool row (embed)
	cov   []float64 // w × w, P⁻¹
	batch *mlp.Batch
	duels [][2]int // (win, lose) pool rows
	d     []float64
	u     []float64
	gen   uint64 // pool generation emb is current for
	done  int    // committed rows embedded at the current θ
}

func newLastLayer(m *NeuralModel) *lastLayer {
	w := m.Cfg.Width
	ll := &lastLayer{w: w, rho: 2 * m.Cfg.Lambda, d: make([]float64, w), u: make([]float64, w)}
	if m.Cfg.Regularizer == mlp.RegTheta0 {
		ll.rho = m.Cfg.Lambda
	}
	ll.rebuild(m)
	return ll
}

// plusLossScale returns S of the configured loss for n duels.
func plusLossScale(cfg Config, n int) float64 {
	switch cfg.LossScale {
	case mlp.ScaleMean:
		return 1 / float64(max(n, 1))
	case mlp.ScaleWidth:
		return 1 / float64(cfg.Width)
	}
	return 1
}

func plusDsigmoid(x float64) float64 {
	s := logistic.Sigmoid(x)
	return s * (1 - s)
}

// embed brings emb up to date with the pool and the network's current θ:
// rows committed since the last call (all rows after a rebuild) and the
// current fresh rows are forwarded. Every row's embedding is computed by the
// same arithmetic whatever the batch it is in, so the rows go through the
// network BlockRows at a time: the batch holds a block of the pool, never
// a float64 copy of all of it.
func (ll *lastLayer) embed(m *NeuralModel) {
	p := m.Pool
	if ll.done > 0 && ll.gen == p.Generation() {
		return
	}
	ll.gen = p.Generation()
	a := m.Net.Arch
	from, rows := ll.done, p.Rows()
	if ll.batch == nil {
		ll.batch = mlp.NewBatch(a, min(rows-from, BlockRows))
	}
	// The same forward pass gives the network's output h of every row: when
	// the model's row scores wait for a refresh at this θ (NeuralModel.stale),
	// they are taken from it instead of a second pass over the pool (the
	// same bits: a row's output does not depend on its batch).
	m.sync()
	fill := from == 0 && m.stale
	ll.emb = ll.emb[:from*ll.w]
	for start := from; start < rows; start += BlockRows {
		n := min(BlockRows, rows-start)
		ll.batch.Resize(a, n)
		p.AppendRows(ll.batch.H[0][:0], start, start+n)
		m.Net.Forward(ll.batch)
		ll.emb = append(ll.emb, ll.batch.H[a.Depth][:n*ll.w]...)
		if fill {
			copy(m.rows.S[start:start+n], ll.batch.Out[:n])
		}
	}
	if fill {
		m.stale = false
	}
	ll.done = p.Committed() * p.Arms
}

// diff writes e_i − e_j into ll.d.
func (ll *lastLayer) diff(i, j int) []float64 {
	w := ll.w
	ei, ej := ll.emb[i*w:(i+1)*w], ll.emb[j*w:(j+1)*w]
	for k := range ll.d {
		ll.d[k] = ei[k] - ej[k]
	}
	return ll.d
}

// rebuild recomputes the embeddings at the network's current θ and the
// covariance from every recorded duel.
func (ll *lastLayer) rebuild(m *NeuralModel) {
	w := ll.w
	ll.done = 0
	ll.embed(m)
	prec := mat.NewSymDense(w, nil)
	for i := range w {
		prec.SetSym(i, i, ll.rho)
	}
	s := plusLossScale(m.Cfg, len(ll.duels))
	h := m.RowScores()
	for _, dl := range ll.duels {
		prec.SymRankOne(prec, s*plusDsigmoid(h[dl[0]]-h[dl[1]]), mat.NewVecDense(w, ll.diff(dl[0], dl[1])))
	}
	if ll.cov == nil {
		ll.cov = make([]float64, w*w)
	}
	// ρ > 0 makes P positive definite; embeddings of extreme scale can still
	// break the factorisation: then P is jittered, and if that fails too the
	// covariance falls back to the prior's, I/ρ (numerics.go).
	var ch mat.Cholesky
	var inv mat.SymDense
	if factorizeJittered(&ch, prec) {
		if err := ch.InverseTo(&inv); solveOK(err, inv.RawSymmetric().Data) {
			for i := range w {
				for j := range w {
					ll.cov[i*w+j] = inv.At(i, j)
				}
			}
			return
		}
	}
	clear(ll.cov)
	for i := range w {
		ll.cov[i*w+i] = 1 / ll.rho
	}
}

// add records a duel and applies P ← P + κ ψψᵀ to the covariance by
// Sherman–Morrison, κ = S μ'(h_win − h_lose) at the current θ. With
// loss-scale mean, S = 1/n changes with every duel while the earlier terms keep
// the S of their time, so the covariance between retrains approximates the
// one a rebuild would give; each retrain rebuilds it exactly.
func (ll *lastLayer) add(m *NeuralModel, win, lose int) {
	ll.embed(m)
	ll.duels = append(ll.duels, [2]int{win, lose})
	h := m.RowScores()
	kappa := plusLossScale(m.Cfg, len(ll.duels)) * plusDsigmoid(h[win]-h[lose])
	psi := ll.diff(win, lose)
	w := ll.w
	q := 0.0
	for i := range w {
		ll.u[i] = plusDot(ll.cov[i*w:(i+1)*w], psi)
		q += ll.u[i] * psi[i]
	}
	f := kappa / (1 + kappa*q)
	for i := range w {
		plusAxpy(-f*ll.u[i], ll.u, ll.cov[i*w:(i+1)*w])
	}
}

// var2 returns (e_i − e_j)ᵀ P⁻¹ (e_i − e_j), clamped at 0.
func (ll *lastLayer) var2(i, j int) float64 {
	d := ll.diff(i, j)
	w := ll.w
	s := 0.0
	for a := range w {
		s += d[a] * plusDot(ll.cov[a*w:(a+1)*w], d)
	}
	return max(s, 0)
}

// sampleDirection writes g = L z into dst, L the Cholesky factor of P⁻¹ and z
// standard normal from rng: v + g is a draw from the posterior of v.
func (ll *lastLayer) sampleDirection(dst []float64, next func() float64) {
	w := ll.w
	var ch mat.Cholesky
	if !factorizeJittered(&ch, mat.NewSymDense(w, append([]float64(nil), ll.cov...))) {
		clear(dst) // a covariance that cannot be factorised even jittered: no exploration this round
		return
	}
	var l mat.TriDense
	ch.LTo(&l)
	z := make([]float64, w)
	for i := range z {
		z[i] = next()
	}
	for i := range w {
		s := 0.0
		for j := 0; j <= i; j++ {
			s += l.At(i, j) * z[j]
		}
		dst[i] = s
	}
}

// fitNu2 returns the ν² that maximises the prequential log-likelihood of the
// recorded duels, each predicted by the model that chose it before it was
// trained on: P(win beats lose) ≈ μ(m / √(1 + π ν² v / 8)) with m = h_win − h_lose
// and v the last-layer variance of that difference (the probit approximation
// of the predictive Bradley–Terry probability). ν ranges over 2^{k/4},
// k = −12 … 40; with no records it is 1.
func fitNu2(m, v []float64) float64 {
	if len(m) == 0 {
		return 1
	}
	best, bestLL := 1.0, math.Inf(-1)
	for k := -12; k <= 40; k++ {
		nu2 := xmath.Pow(2, float64(k)/2)
		ll := 0.0
		for i := range m {
			ll += logistic.LogSigmoid(m[i] / math.Sqrt(1+math.Pi*nu2*v[i]/8))
		}
		if ll > bestLL {
			best, bestLL = nu2, ll
		}
	}
	return best
}

// plusDot returns x·y (len(x) elements).
func plusDot(x, y []float64) float64 {
	y = y[:len(x)]
	s := 0.0
	for i, v := range x {
		s += v * y[i]
	}
	return s
}
