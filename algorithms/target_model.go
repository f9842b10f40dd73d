package algorithms

import (
	"math"
	"math/rand/v2"

	"github.com/neural-adb/nadb/internal/gemm"
	"github.com/neural-adb/nadb/internal/logistic"
	"github.com/neural-adb/nadb/internal/mlp"
	"github.com/neural-adb/nadb/internal/xmath"
)

// tgMember is one member of neural-adb-target's model family (the family
// of neural-adb-plus: h(x) = uᵀx + g(x;θ) with (λ/2)‖θ − θ0‖², λ = ∞ the
// linear part alone), trained only on the rows its duels touch.
type tgMember struct {
	lambda float64
	net    tgNet
	u      []float64
	am, av []float64 // Adam moments
	preq   float64   // discounted prequential log-likelihood (raw)
	marg   []float64 // prequential margins h_win − h_lose
	tau    float64   // temperature fitted to marg
	tll    float64   // discounted prequential log-likelihood at τ
	w      float64   // model-averaging weight
	tcache plusTempCache
}

// linear reports whether the member is the linear part alone.
func (mb *tgMember) linear() bool { return math.IsInf(mb.lambda, 1) }

// tgModel is the model family with its training data: the duels as slots
// of the rows they touch (rows, copied from the pool on first use) and
// their sparse differences zd = x_win − x_lose.
type tgModel struct {
	opt     TargetOptions
	dim     int
	members []*tgMember
	best    int
	avg     bool // scores are the average of the members (else the best)
	version int  // incremented by every Train

	theta0 []float64
	rows   *tgRows       // every row a duel touched
	slot   map[int]int32 // pool row → index in rows
	duels  [][2]int32    // (win, lose) slots
	zd     *tgRows       // x_win − x_lose per duel
	rng    *rand.Rand    // mini-batches (streamTrain)

	// workspaces
	b         tgBatch
	c, lin    []float64
	gr, g1t   []float64
	sel, bidx []int
	mini      [][2]int32
	nw, ng    []float64
	cgr, cgp  []float64
	cgz, cgq  []float64
	dz        *tgDenseZ // hess: zd densely (useDenseZ), when dzOn
	dzOn      bool
	hd, ha    []float64 // hessDense: z_s·v, the factors t_s ≠ 0
	hsel      []int32   // and their duels
	trial, dx []float64
	sx, sy    []float64 // adam: the duels' sigmoid arguments and values
	out       []float64 // offsets: every row's output
	chunk     []int     // offsets: the rows of a chunk
}

func newTGModel(env Env, opt TargetOptions) (*tgModel, error) {
	p := env.Pool
	cfg := env.Config
	if cfg.Width%2 != 0 {
		return nil, errTarget("width must be even (mirrored initialisation), got %d", cfg.Width)
	}
	arch := mlp.Arch{In: p.Dim, Width: cfg.Width, Depth: cfg.Depth, Bias: false}
	proto := mlp.NewNet(arch)
	if err := proto.Initialize(mlp.InitMirrored, 1, NewStream(env.Seed, streamInit)); err != nil {
		return nil, errTarget("%v", err)
	}
	m := &tgModel{
		opt: opt, dim: p.Dim, theta0: append([]float64(nil), proto.Theta...),
		rows: newTGRows(p.Dim), slot: map[int]int32{}, zd: newTGRows(p.Dim),
		rng: NewStream(env.Seed, streamTrain),
	}
	for _, lam := range opt.Lambdas {
		mb := &tgMember{lambda: lam, net: tgNet{net: proto.Clone()}, u: make([]float64, p.Dim)}
		mb.net.syncT()
		if !mb.linear() {
			mb.am, mb.av = make([]float64, len(proto.Theta)), make([]float64, len(proto.Theta))
		}
		m.members = append(m.members, mb)
	}
	m.best = len(m.members) / 2
	return m, nil
}

// current returns the member in use (the posterior is of it).
func (m *tgModel) current() *tgMember { return m.members[m.best] }

// slotOf returns the training-row index of pool row n, copying x (its
// features) on first use.
func (m *tgModel) slotOf(n int, x []float64) int32 {
	if s, ok := m.slot[n]; ok {
		return s
	}
	s := int32(m.rows.add(x))
	m.slot[n] = s
	return s
}

// record adds the duel (pool rows win, lose with features xw, xl). If
// score, every member first scores it prequentially (hw, hl: each member's
// h at the two rows, as memberScores returns them).
func (m *tgModel) record(win, lose int, xw, xl []float64, score bool, hw, hl []float64) {
	if score {
		gamma := 1 - 1/m.opt.PreqHalfLife
		for k, mb := range m.members {
			mb.preq = gamma*mb.preq + logistic.LogSigmoid(hw[k]-hl[k])
			mb.marg = append(mb.marg, hw[k]-hl[k])
		}
	}
	sw, sl := m.slotOf(win, xw), m.slotOf(lose, xl)
	m.duels = append(m.duels, [2]int32{sw, sl})
	diff := resize(m.dx, m.dim)
	m.dx = diff
	for j := range diff {
		diff[j] = xw[j] - xl[j]
	}
	m.zd.add(diff)
}

// train retrains every member, fits their temperatures and chooses the
// member in use and the averaging weights (as neural-adb-plus).
func (m *tgModel) train() {
	m.version++
	for _, mb := range m.members {
		m.trainMember(mb)
	}
	gamma := 1 - 1/m.opt.PreqHalfLife
	for _, mb := range m.members {
		mb.tau, mb.tll = mb.tcache.fit(mb.marg, gamma) // plusFitTemperature, bit for bit
	}
	for k, mb := range m.members {
		if mb.tll > m.members[m.best].tll {
			m.best = k
		}
	}
	tb := m.current().tau
	m.avg = tb > 0
	if !m.avg {
		return
	}
	top := m.current().tll
	sum := 0.0
	for _, mb := range m.members {
		mb.w = xmath.Exp(mb.tll - top)
		sum += mb.w
	}
	for _, mb := range m.members {
		mb.w /= sum
	}
}

// weight returns the factor of member mb in the averaged scores h̄ (on the
// scale of the member in use): w τ / τ_best, 0 for a member whose weight is
// below 1e-9 (not evaluated), and 1 for the member in use when not
// averaging.
func (m *tgModel) weight(k int) float64 {
	mb := m.members[k]
	if !m.avg {
		if k == m.best {
			return 1
		}
		return 0
	}
	if mb.w < 1e-9 {
		return 0
	}
	return mb.w * mb.tau / m.current().tau
}

// trainMember refits mb on the duels so far; non-finite results keep the
// previous parameters.
func (m *tgModel) trainMember(mb *tgMember) {
	if len(m.duels) == 0 {
		return
	}
	u0 := append([]float64(nil), mb.u...)
	th0 := append([]float64(nil), mb.net.net.Theta...)
	m.newtonU(mb)
	if m.opt.Steps > 0 && !mb.linear() {
		m.adam(mb)
	}
	if !allFinite(mb.u) || !allFinite(mb.net.net.Theta) {
		copy(mb.u, u0)
		mb.net.net.SetTheta(th0)
	}
	mb.net.syncT()
}

// offsets writes g_win − g_lose of every duel at the member's θ into dst.
func (m *tgModel) offsets(mb *tgMember, dst []float64) []float64 {
	n := len(m.duels)
	dst = resize(dst, n)
	if mb.linear() || mb.net.net.IdenticallyZero() {
		clear(dst)
		return dst
	}
	// The rows' outputs tgChunk rows at a time: the dense input rows and
	// activations of every training row at once took 0.4 GB at 40,000
	// rows of d = 1,024 (a row's output does not depend on its batch).
	R := m.rows.n()
	m.out = resize(m.out, R)
	for lo := 0; lo < R; lo += tgChunk {
		hi := min(R, lo+tgChunk)
		m.chunk = m.chunk[:0]
		for r := lo; r < hi; r++ {
			m.chunk = append(m.chunk, r)
		}
		mb.net.forward(m.rows, m.chunk, &m.b)
		copy(m.out[lo:hi], m.b.out[:hi-lo])
	}
	for s, du := range m.duels {
		dst[s] = m.out[du[0]] - m.out[du[1]]
	}
	return dst
}

// newtonU minimises the loss in u with θ fixed: at most NewtonIters damped
// Newton steps, each direction solved by conjugate gradients on the
// Hessian Σ_s w_s z_s z_sᵀ + λu I applied through the sparse differences
// (Jacobi-preconditioned, to a relative residual of 1e-10 or d steps).
func (m *tgModel) newtonU(mb *tgMember) {
	d, n := m.dim, len(m.duels)
	off := m.offsets(mb, m.c)
	m.c = off
	lu := m.opt.LambdaU
	m.lin = resize(m.lin, n)
	margins := func(u []float64) {
		for s := range n {
			m.lin[s] = m.zd.dot(s, u) + off[s]
		}
	}
	// lossAt returns the loss at u from its margins in m.lin.
	lossAt := func(u []float64) float64 {
		l := 0.0
		for s := range n {
			l += logistic.Softplus(-m.lin[s])
		}
		return l + lu/2*plusDot(u, u)
	}
	loss := func(u []float64) float64 {
		margins(u)
		return lossAt(u)
	}
	m.nw = resize(m.nw, n)
	g := resize(m.ng, d)
	m.ng = g
	step := resize(m.trial, 2*d)
	m.trial = step
	dir, trial := step[:d], step[d:]
	// After an accepted step m.lin holds the margins at the new u and
	// lCur its loss (the trial's, the same values): the next iteration
	// computes neither again.
	known, lCur := false, 0.0
	for range m.opt.NewtonIters {
		if !known {
			margins(mb.u)
		}
		for i := range d {
			g[i] = lu * mb.u[i]
		}
		gemm.SigmoidTo(m.nw, m.lin[:n]) // logistic.Sigmoid's bits
		for s := range n {
			p := m.nw[s]
			m.nw[s] = p * (1 - p)
			idx, val := m.zd.row(s)
			for k, j := range idx {
				g[j] -= (1 - p) * val[k]
			}
		}
		if !m.cg(dir, g, lu) {
			return
		}
		decr := plusDot(g, dir)
		if !(decr/2 >= 1e-12) {
			return
		}
		l0, t := lCur, 1.0
		if !known {
			l0 = lossAt(mb.u) // m.lin: the margins at mb.u
		}
		ok := false
		for range 40 {
			for i := range d {
				trial[i] = mb.u[i] - t*dir[i]
			}
			if lCur = loss(trial); lCur <= l0-1e-4*t*decr {
				ok = true
				break
			}
			t /= 2
		}
		if !ok {
			return
		}
		copy(mb.u, trial)
		known = true
	}
}

// hess sets y = (Σ_s w_s z_s z_sᵀ + lu I) v: each z_s·v is tgRows.dot's
// sum, written out here (no call per duel, no bounds check on val). While
// dense copies of zd are kept (useDenseZ), hessDense forms the same values
// with vector products instead.
func (m *tgModel) hess(y, v []float64, lu float64) {
	if m.dzOn && m.hessDense(y, v, lu) {
		return
	}
	for i := range y {
		y[i] = lu * v[i]
	}
	zd := m.zd
	nw := m.nw[:len(m.duels)]
	for s := range nw {
		idx, val := zd.row(s)
		val = val[:len(idx)]
		t := 0.0
		for k, j := range idx {
			t += val[k] * v[j]
		}
		t = nw[s] * t
		if t == 0 {
			continue
		}
		for k, j := range idx {
			y[j] += t * val[k]
		}
	}
}

// tgDenseZ is zd written out densely for hess: z (duels × d, row s the
// differences of duel s) and zt (d × ld, row j column j of every duel).
type tgDenseZ struct {
	n, ld int
	z, zt []float64
}

// sync extends the dense copies to every row of zd (whose rows are only
// ever appended).
func (dz *tgDenseZ) sync(zd *tgRows) {
	n, d := zd.n(), zd.dim
	if n == dz.n {
		return
	}
	if n > dz.ld {
		ld := max(2*dz.ld, n, 64)
		zt := make([]float64, d*ld)
		for j := range d {
			copy(zt[j*ld:j*ld+dz.n], dz.zt[j*dz.ld:j*dz.ld+dz.n])
		}
		dz.zt, dz.ld = zt, ld
	}
	dz.z = append(dz.z, make([]float64, (n-dz.n)*d)...)
	for s := dz.n; s < n; s++ {
		row := dz.z[s*d : (s+1)*d]
		zd.dense(row, s)
		for j, v := range row {
			dz.zt[j*dz.ld+s] = v
		}
	}
	dz.n = n
}

// tgDenseZMax bounds the values of each dense copy of zd (8 MB).
const tgDenseZMax = 1 << 20

// useDenseZ decides whether hess runs on dense copies of zd (a quarter or
// more of its values non-zero, at most tgDenseZMax values) and brings
// them up to date.
func (m *tgModel) useDenseZ() {
	n, d := m.zd.n(), m.dim
	m.dzOn = 4*len(m.zd.val) >= n*d && n*d <= tgDenseZMax
	if !m.dzOn {
		m.dz = nil
		return
	}
	if m.dz == nil {
		m.dz = &tgDenseZ{}
	}
	m.dz.sync(m.zd)
}

// hessDense sets hess's y through the dense copies of zd, each sum of the
// same non-zero terms in the same order, with the zero entries' terms ±0
// in between: they leave every sum as it is as long as v and the duels'
// factors t_s are finite (0·v is ±0) and no entry of y starts as −0 (x + ±0
// = x for x ≠ −0, and no sum of such values is −0). It reports false,
// leaving y to the sparse loop, where that does not hold.
func (m *tgModel) hessDense(y, v []float64, lu float64) bool {
	dz, n, d := m.dz, len(m.duels), m.dim
	for _, vi := range v {
		if yi := lu * vi; math.IsNaN(vi) || math.IsInf(vi, 0) || yi == 0 && math.Signbit(yi) {
			return false
		}
	}
	// z_s·v of every duel s: the column-order sums from +0, 64 duels at a
	// time (gemm.AxpyRows over the rows of zt).
	t := resize(m.hd, n)
	m.hd = t
	clear(t)
	gemm.AxpyRows(t, dz.zt, dz.ld, m.zd.cols, v)
	sel, a := m.hsel[:0], m.ha[:0]
	for s, zv := range t {
		ts := m.nw[s] * zv
		if math.IsNaN(ts) || math.IsInf(ts, 0) {
			return false
		}
		if ts != 0 {
			sel, a = append(sel, int32(s)), append(a, ts)
		}
	}
	m.hsel, m.ha = sel, a
	for i := range y {
		y[i] = lu * v[i]
	}
	gemm.AxpyRows(y, dz.z, d, sel, a)
	return true
}

// cg solves H x = b (hess) by preconditioned conjugate gradients; it
// reports false if the iteration breaks down.
func (m *tgModel) cg(x, b []float64, lu float64) bool {
	d := len(b)
	pre := resize(m.cgz, 4*d)
	m.cgz = pre
	diag, r, z, p := pre[:d], pre[d:2*d], pre[2*d:3*d], pre[3*d:]
	q := resize(m.cgq, d)
	m.cgq = q
	m.useDenseZ()
	for i := range diag {
		diag[i] = lu
	}
	for s := range m.duels {
		idx, val := m.zd.row(s)
		for k, j := range idx {
			diag[j] += m.nw[s] * val[k] * val[k]
		}
	}
	clear(x)
	copy(r, b)
	for i := range z {
		z[i] = r[i] / diag[i]
	}
	copy(p, z)
	rz := plusDot(r, z)
	bb := plusDot(b, b)
	if bb == 0 {
		return true
	}
	for range max(d, 10) {
		m.hess(q, p, lu)
		pq := plusDot(p, q)
		if !(pq > 0) {
			return allFinite(x)
		}
		alpha := rz / pq
		plusAxpy(alpha, p, x)
		plusAxpy(-alpha, q, r)
		if plusDot(r, r) <= 1e-20*bb {
			break
		}
		for i := range z {
			z[i] = r[i] / diag[i]
		}
		rz1 := plusDot(r, z)
		beta := rz1 / rz
		rz = rz1
		for i := range p {
			p[i] = z[i] + beta*p[i]
		}
	}
	return allFinite(x)
}

// adam runs the member's Adam steps on θ with u fixed (full batch up to
// MaxBatch duels, else a uniformly drawn mini-batch of MaxBatch duels per
// step, its gradient scaled to the whole sum); the moments restart at
// every call, as in neural-adb-plus.
func (m *tgModel) adam(mb *tgMember) {
	net := mb.net.net
	net.SetTheta(net.Theta) // leaves the exact-zero shortcut of θ0
	mb.net.syncT()
	clear(mb.am)
	clear(mb.av)
	n := len(m.duels)
	lin := resize(m.lin, n)
	m.lin = lin
	for s := range n {
		lin[s] = m.zd.dot(s, mb.u)
	}
	m.gr = resize(m.gr, len(net.Theta))
	m.g1t = resize(m.g1t, net.Arch.In*net.Arch.Width)
	const b1, b2, eps = 0.9, 0.999, 1e-8
	steps := m.opt.Steps
	if m.opt.StepBudget > 0 {
		steps = max(steps, min(m.opt.MaxSteps, m.opt.StepBudget/n))
	}
	full := n <= m.opt.MaxBatch
	m.b.byCol = false // backward's lists: the full batch's, built once
	// Full batch: every touched row once; mini-batch: two rows per drawn duel.
	batch := m.duels
	scale := 1.0
	for step := 1; step <= steps; step++ {
		var sel []int
		if !full {
			m.sel, m.bidx, m.mini = m.sel[:0], m.bidx[:0], m.mini[:0]
			for k := range m.opt.MaxBatch {
				s := m.rng.IntN(n)
				du := m.duels[s]
				m.sel = append(m.sel, int(du[0]), int(du[1]))
				m.bidx = append(m.bidx, s)
				m.mini = append(m.mini, [2]int32{int32(2 * k), int32(2*k + 1)})
			}
			sel, batch = m.sel, m.mini
			m.b.byCol = false // a new mini-batch
			scale = float64(n) / float64(m.opt.MaxBatch)
		}
		mb.net.forward(m.rows, sel, &m.b)
		c := resize(m.c, m.b.rows)
		m.c = c
		clear(c)
		// The duels' sigmoids at once (gemm.SigmoidTo: logistic.Sigmoid's
		// bits), then their terms in order.
		sx, sy := resize(m.sx, len(batch)), resize(m.sy, len(batch))
		m.sx, m.sy = sx, sy
		for i, du := range batch {
			s := i
			if !full {
				s = m.bidx[i]
			}
			sx[i] = -(lin[s] + m.b.out[du[0]] - m.b.out[du[1]])
		}
		gemm.SigmoidTo(sy, sx)
		for i, du := range batch {
			g := scale * sy[i]
			c[du[0]] -= g
			c[du[1]] += g
		}
		// (locals: the loop keeps its slices in registers)
		th, gr, th0, lam := net.Theta, m.gr, m.theta0, mb.lambda
		gr, th0 = gr[:len(th)], th0[:len(th)]
		for i, t := range th {
			gr[i] = lam * (t - th0[i])
		}
		mb.net.backward(m.rows, sel, &m.b, c, m.gr, m.g1t)
		gemm.AdamStep(net.Theta, mb.am, mb.av, m.gr, gemm.Adam{
			B1: b1, OneMinusB1: 1 - b1, B2: b2, OneMinusB2: 1 - b2,
			Correction1: 1 - xmath.Pow(b1, float64(step)), Correction2: 1 - xmath.Pow(b2, float64(step)),
			LearningRate: m.opt.LearningRate, Eps: eps,
		})
		mb.net.syncT()
	}
}

// eval writes, for every row of x, the averaged scores h̄ into h, the
// member in use's scores into hp, and z = [x; e(x)] (m = d + w values per
// row, e the member in use's last hidden layer, 0 for the linear member)
// into z. Non-finite values become 0.
func (m *tgModel) eval(x *tgRows, h, hp, z []float64, d, mz int) {
	R := x.n()
	clear(h[:R])
	for k, mb := range m.members {
		wk := m.weight(k)
		if wk == 0 && k != m.best {
			continue
		}
		nonlinear := !mb.linear() && !mb.net.net.IdenticallyZero()
		if nonlinear || k == m.best && !mb.linear() {
			mb.net.forward(x, nil, &m.b)
		}
		for r := range R {
			v := x.dot(r, mb.u)
			if nonlinear {
				v += m.b.out[r]
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				v = 0
			}
			h[r] += wk * v
			if k == m.best {
				hp[r] = v
			}
		}
		if k == m.best {
			w := mz - d
			e := m.b.h[len(m.b.h)-1]
			for r := range R {
				row := z[r*mz : (r+1)*mz]
				x.dense(row[:d], r)
				if mb.linear() {
					clear(row[d:])
				} else {
					copy(row[d:], e[r*w:(r+1)*w])
				}
				for j, v := range row {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						row[j] = 0
					}
				}
			}
		}
	}
}

// evalCurrent writes, for the rows sel of x (all when nil), what eval
// writes into hp and z for them (the member in use's scores and
// z = [x; e(x)]), without the averaged scores: only the member in use's
// network is evaluated.
func (m *tgModel) evalCurrent(x *tgRows, sel []int, hp, z []float64, d, mz int) {
	mb := m.current()
	nonlinear := !mb.linear() && !mb.net.net.IdenticallyZero()
	if !mb.linear() {
		mb.net.forward(x, sel, &m.b)
	}
	w := mz - d
	n := len(sel)
	if sel == nil {
		n = x.n()
	}
	for i := range n {
		r := i
		if sel != nil {
			r = sel[i]
		}
		v := x.dot(r, mb.u)
		if nonlinear {
			v += m.b.out[i]
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			v = 0
		}
		hp[i] = v
		row := z[i*mz : (i+1)*mz]
		x.dense(row[:d], r)
		if mb.linear() {
			clear(row[d:])
		} else {
			copy(row[d:], m.b.h[len(m.b.h)-1][i*w:(i+1)*w])
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				row[j] = 0
			}
		}
	}
}

// memberScores writes every member's h at rows r0 and r1 of x into h0, h1.
func (m *tgModel) memberScores(x *tgRows, h0, h1 []float64) {
	for k, mb := range m.members {
		v0, v1 := x.dot(0, mb.u), x.dot(1, mb.u)
		if !mb.linear() && !mb.net.net.IdenticallyZero() {
			mb.net.forward(x, nil, &m.b)
			v0 += m.b.out[0]
			v1 += m.b.out[1]
		}
		h0[k], h1[k] = finiteOr0(v0), finiteOr0(v1)
	}
}

func finiteOr0(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}
