package algorithms

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/neural-adb/nadb/internal/gemm"
	"github.com/neural-adb/nadb/internal/logistic"
	"github.com/neural-adb/nadb/internal/mlp"
	"github.com/neural-adb/nadb/internal/xmath"
)

// plusNet is one member of neural-adb-plus's model family: the reward model
//
//	h(x) = uᵀx + g(x;θ),   g the paper's MLP from the mirrored θ0 (g(·;θ0) = 0),
//
// trained on the Bradley–Terry duels by minimising
//
//	L(u, θ) = Σ_s −log μ(h(x_{s,w}) − h(x_{s,l})) + (λu/2)‖u‖² + (λ/2)‖θ − θ0‖²   (eq. 2 plus a linear part)
//
// by block coordinate descent: damped Newton on the convex problem in u with
// θ fixed, then Adam steps on θ with u fixed. The family shares θ0 and
// differs only in λ; preq is its discounted prequential log-likelihood (every
// duel scored by the member before the member is trained on it).
type plusNet struct {
	lambda float64
	net    *mlp.Net
	u      []float64
	g      []float64 // g(x_n;θ) for every pool row
	h      []float64 // h(x_n) for every pool row
	am, av []float64 // Adam moments
	preq   float64
	marg   []float64 // prequential margins h_win − h_lose, one per duel
	tau    float64   // temperature fitted to marg
	tll    float64   // discounted prequential log-likelihood at τ
	w      float64   // model-averaging weight (Average)
	tcache plusTempCache
}

// plusModel is the model family with its training data. Duels are pool rows
// (win, lose); z holds x_win − x_lose per duel for the Newton step in u.
type plusModel struct {
	pool    *Pool
	opt     PlusOptions
	members []*plusNet
	best    int       // index of the member in use
	avg     []float64 // averaged scores h̄ (Average), nil while not averaging

	theta0 []float64
	duels  []mlp.Pair
	z      []float64
	uniq   []int
	slot   []int32
	batch  *mlp.Batch
	// gathered is the number of leading rows of uniq whose inputs batch
	// holds (uniq only grows, and its rows keep their inputs).
	gathered int
	c, gr    []float64
	full     *mlp.Batch // workspace for whole-pool forward passes
	xw, xl   []float64  // rows converted from the pool (Pool.RowTo)
	xblock   []float64  // blocks of rows converted from the pool (Pool.Blocks)
	// Newton workspace.
	nw, ngrad, nstep, ntrial, nacc []float64
	nmg, nmt                       []float64 // margins at u and at the trial
	nsx, nsy                       []float64 // adam's duel sigmoid arguments and values
	nfac, ncol                     []float64 // gradient factors, a column of w_s z_si
	nidx, nall                     []int32   // their duels, and 0, 1, …
	nly, nlsp, nlex                []float64 // the loss's Softplus arguments, values, workspace
	hess                           *mat.SymDense
	chol                           mat.Cholesky
}

func newPlusModel(env Env, opt PlusOptions) (*plusModel, error) {
	p := env.Pool
	cfg := env.Config
	arch := mlp.Arch{In: p.Dim, Width: cfg.Width, Depth: cfg.Depth, Bias: false}
	proto := mlp.NewNet(arch)
	if cfg.Width%2 != 0 {
		return nil, errPlus("width must be even (mirrored initialisation), got %d", cfg.Width)
	}
	if err := proto.Initialize(mlp.InitMirrored, 1, NewStream(env.Seed, streamInit)); err != nil {
		return nil, errPlus("%v", err)
	}
	d := p.Dim
	m := &plusModel{
		pool: p, opt: opt, theta0: append([]float64(nil), proto.Theta...),
		slot: make([]int32, p.Rows()), batch: mlp.NewBatch(arch, 16), gr: make([]float64, len(proto.Theta)),
		ngrad: make([]float64, d), nstep: make([]float64, d), ntrial: make([]float64, d),
		hess: mat.NewSymDense(d, nil),
	}
	for i := range m.slot {
		m.slot[i] = -1
	}
	for _, lam := range opt.Lambdas {
		net := proto.Clone()
		m.members = append(m.members, &plusNet{
			lambda: lam, net: net, u: make([]float64, d),
			g: make([]float64, p.Rows()), h: make([]float64, p.Rows()),
			am: make([]float64, len(net.Theta)), av: make([]float64, len(net.Theta)),
		})
	}
	m.best = len(m.members) / 2
	return m, nil
}

// H returns the scores of the member in use for every pool row.
func (m *plusModel) H() []float64 {
	if m.avg != nil {
		return m.avg
	}
	return m.members[m.best].h
}

// Current returns the member in use.
func (m *plusModel) Current() *plusNet { return m.members[m.best] }

// Record adds the duel (win beat lose, pool rows) to the training data. If
// score, every member first scores it (prequentially: before any is trained
// on it).
func (m *plusModel) Record(win, lose int, score bool) {
	gamma := 1 - 1/m.opt.PreqHalfLife
	for _, mb := range m.members {
		if !score {
			break
		}
		mb.preq = gamma*mb.preq + logistic.LogSigmoid(mb.h[win]-mb.h[lose])
		mb.marg = append(mb.marg, mb.h[win]-mb.h[lose])
	}
	m.duels = append(m.duels, mlp.Pair{Win: win, Lose: lose})
	m.xw, m.xl = m.pool.RowTo(m.xw, win), m.pool.RowTo(m.xl, lose)
	xw, xl := m.xw, m.xl
	for i := range xw {
		m.z = append(m.z, xw[i]-xl[i])
	}
	for _, r := range [2]int{win, lose} {
		if m.slot[r] < 0 {
			m.slot[r] = int32(len(m.uniq))
			m.uniq = append(m.uniq, r)
		}
	}
}

// Train retrains every member and then chooses the member in use: the one
// with the largest discounted prequential log-likelihood (ties: the earlier
// choice stays).
func (m *plusModel) Train() {
	for _, mb := range m.members {
		m.trainMember(mb)
	}
	gamma := 1 - 1/m.opt.PreqHalfLife
	for _, mb := range m.members {
		mb.tau, mb.tll = mb.tcache.fit(mb.marg, gamma)
	}
	crit := func(mb *plusNet) float64 { return mb.preq }
	if m.opt.Temperature {
		crit = func(mb *plusNet) float64 { return mb.tll }
	}
	for k, mb := range m.members {
		if crit(mb) > crit(m.members[m.best]) {
			m.best = k
		}
	}
	if m.opt.Average {
		m.average(crit)
	}
}

// trainMember refits mb on the duels so far; if the fit leaves non-finite
// parameters (extreme features) the previous ones are kept.
func (m *plusModel) trainMember(mb *plusNet) {
	if len(m.duels) == 0 {
		return
	}
	u0 := append([]float64(nil), mb.u...)
	th0 := append([]float64(nil), mb.net.Theta...)
	m.newtonU(mb, m.opt.NewtonIters)
	if m.opt.Steps > 0 && mb.lambda < math.Inf(1) {
		m.adam(mb)
	}
	if !allFinite(mb.u) || !allFinite(mb.net.Theta) {
		copy(mb.u, u0)
		mb.net.SetTheta(th0)
	}
	m.refresh(mb)
}

// offsets writes g_win − g_lose of every duel into dst at the member's θ.
func (m *plusModel) offsets(mb *plusNet, dst []float64) []float64 {
	b := m.forwardUniq(mb.net)
	dst = dst[:0]
	for _, p := range m.duels {
		dst = append(dst, b.Out[m.slot[p.Win]]-b.Out[m.slot[p.Lose]])
	}
	return dst
}

// forwardUniq evaluates net on every row that appears in a duel.
func (m *plusModel) forwardUniq(net *mlp.Net) *mlp.Batch {
	a := net.Arch
	b := m.batch
	b.Resize(a, len(m.uniq))
	for k := m.gathered; k < len(m.uniq); k++ {
		m.xw = m.pool.RowTo(m.xw, m.uniq[k])
		copy(b.Input(a, k), m.xw)
	}
	m.gathered = len(m.uniq)
	net.Forward(b)
	return b
}

// adam runs opt.Steps full-batch Adam steps on θ with u fixed. The moments
// restart at every call (as with the paper's default training).
func (m *plusModel) adam(mb *plusNet) {
	d := m.pool.Dim
	net := mb.net
	net.SetTheta(net.Theta) // leaves the exact-zero shortcut of θ0
	clear(mb.am)
	clear(mb.av)
	lin := make([]float64, len(m.duels))
	for s := range m.duels {
		lin[s] = plusDot(mb.u, m.z[s*d:(s+1)*d])
	}
	if cap(m.c) < len(m.uniq) {
		m.c = make([]float64, len(m.uniq), 2*len(m.uniq))
	}
	sx, sy := growF(&m.nsx, len(m.duels)), growF(&m.nsy, len(m.duels))
	const b1, b2, eps = 0.9, 0.999, 1e-8
	lr := m.opt.LearningRate
	steps := m.opt.Steps
	if m.opt.StepBudget > 0 { // more steps while the data are few (cheap)
		steps = max(steps, min(m.opt.MaxSteps, m.opt.StepBudget/len(m.duels)))
	}
	for step := 1; step <= steps; step++ {
		b := m.forwardUniq(net)
		c := m.c[:len(m.uniq)]
		clear(c)
		// The duels' sigmoids at once (gemm.SigmoidTo: logistic.Sigmoid's
		// bits), then their terms in order.
		for s, p := range m.duels {
			sx[s] = -(lin[s] + b.Out[m.slot[p.Win]] - b.Out[m.slot[p.Lose]])
		}
		gemm.SigmoidTo(sy, sx) // (not in place: it reads x after writing dst)
		for s, p := range m.duels {
			iw, il := m.slot[p.Win], m.slot[p.Lose]
			g := sy[s]
			c[iw] -= g
			c[il] += g
		}
		// (locals: the loop keeps its slices in registers)
		th, gr, th0, lam := net.Theta, m.gr, m.theta0, mb.lambda
		gr, th0 = gr[:len(th)], th0[:len(th)]
		for i, t := range th {
			gr[i] = lam * (t - th0[i])
		}
		net.Backward(b, c, m.gr)
		// m ← β1·m + (1−β1)·g, v ← β2·v + ((1−β2)·g)·g,
		// θ ← θ − (lr·(m/(1−β1^t))) / (√(v/(1−β2^t)) + ε), each operation
		// rounded on its own (vectorised).
		gemm.AdamStep(net.Theta, mb.am, mb.av, m.gr, gemm.Adam{
			B1: b1, OneMinusB1: 1 - b1, B2: b2, OneMinusB2: 1 - b2,
			Correction1: 1 - xmath.Pow(b1, float64(step)), Correction2: 1 - xmath.Pow(b2, float64(step)),
			LearningRate: lr, Eps: eps,
		})
	}
}
