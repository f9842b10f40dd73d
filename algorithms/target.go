package algorithms

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/neural-adb/nadb/internal/gemm"
)

// TargetOptions are the settings of neural-adb-target (target_doc.go).
// DefaultTargetOptions is the one configuration it runs with on every
// problem and reading; Config.Objective says what its duels aim at.
type TargetOptions struct {
	// The model family of neural-adb-plus (PlusOptions): λ grid, linear
	// part's penalty, Newton steps in u, Adam steps on θ.
	Lambdas                     []float64
	LambdaU                     float64
	NewtonIters                 int
	Steps, StepBudget, MaxSteps int
	LearningRate                float64
	PreqHalfLife                float64
	// MaxBatch bounds the duels of one Adam step: with more duels, each step
	// draws a mini-batch of MaxBatch (its gradient scaled to the whole sum).
	MaxBatch int
	// Candidates is the number of offered contexts per round among which the
	// duel is chosen, drawn from the target sample where it is on offer.
	Candidates int
	// PairsPerContext: under ObjectivePredict, the number of pairs of each
	// candidate context (those of the largest own information) whose
	// expected information about the targets is computed.
	PairsPerContext int
	// TargetContexts is the size of the target sample: contexts drawn
	// uniformly from the pool (fixed pool; all of them on smaller pools) or
	// from the fresh contexts seen (fresh-context reading), redrawn at every
	// retrain. TargetPairs duels drawn uniformly from it are ObjectivePredict's
	// targets.
	TargetContexts, TargetPairs int
	// DeferAfter: once more than DeferAfter answers arrive without a
	// Select, Pend, Policy or Score in between (answers replayed in bulk),
	// retraining waits for the next of those calls instead of running
	// every Config.RetrainEvery answers.
	DeferAfter int
	// Explore is the probability of a uniformly random duel of a random
	// candidate context instead.
	Explore float64
	// Warmup sets an initial design of random duels: with n answers in
	// (and pending), a duel is random with probability min(1, max(Explore,
	// m/n)) ("burn-decay": m random duels, then a share decaying as m/n),
	// max(Explore, m/(m + n)) ("decay") or 1 for n < m ("burn-in"), m = d + w
	// the posterior's dimension; "" keeps Explore throughout.
	Warmup string
	// FlatNoise reads every candidate's answer under ObjectivePredict as
	// an observation of noise 4 (κ = 1/4, a tie's) instead of 1/μ'(margin):
	// near-tie candidates are then not preferred for being near a tie.
	FlatNoise bool
	// OwnContext counts, under ObjectivePredict, the target duels of the
	// candidate's own context; false leaves them out (the score is about
	// new contexts, so what a duel teaches about its own context's other
	// answers does not count).
	OwnContext bool
	// UniformCalibration: the members' ranking and the calibration (τ̂, ν̂)
	// are fitted on the duels not chosen by the acquisition rule only
	// (random duels and foreign answers).
	UniformCalibration bool
	// PlusNoise reads the answer in the knowledge gradient as an observation
	// of noise ν̂²/κ as neural-adb-plus does (false: noise 1/κ with the
	// posterior ν̂²Σ, the exact Gaussian update).
	PlusNoise bool
}

// DefaultTargetOptions returns the configuration of neural-adb-target.
func DefaultTargetOptions() TargetOptions {
	o := DefaultPlusOptions()
	return TargetOptions{
		Lambdas: o.Lambdas, LambdaU: o.LambdaU, NewtonIters: o.NewtonIters,
		Steps: o.Steps, StepBudget: o.StepBudget, MaxSteps: o.MaxSteps, LearningRate: o.LearningRate,
		PreqHalfLife: o.PreqHalfLife, MaxBatch: 1024,
		Candidates: o.Candidates, PairsPerContext: 2, TargetContexts: 256, TargetPairs: 1024,
		Explore: o.Explore, DeferAfter: MaxIdle, Warmup: "burn-decay", FlatNoise: true,
	}
}

// Stream of the target sample's draws.
const streamTarget = 5

// NeuralADBTarget is neural-adb-target (ours; target_doc.go describes it).
type NeuralADBTarget struct {
	pool  *Pool
	cfg   Config
	opt   TargetOptions
	obj   Objective
	model *tgModel
	post  *tgPosterior
	rng   *rand.Rand // selection
	trng  *rand.Rand // target sample
	seed  uint64

	tgt    *tgBlocks  // the target sample (with S)
	cand   *tgBlocks  // the round's candidate contexts outside it
	tpairs [][3]int32 // target duels: block, arm, arm
	gen    uint64
	// ObjectivePredict: each target duel's columns of S (tgBlocks.scol),
	// 1/κ_p at the last fill, the row → column scratch, and the target
	// duels of each block (block i: bpair[bptr[i]:bptr[i+1]], ascending).
	tpa, tpb    []int32
	tinvk       []float64
	colAt       []int32
	colBuf      []int32
	bptr, bpair []int32

	// Fresh-context reading: a uniform reservoir of the fresh contexts seen.
	resX    []float64 // TargetContexts × K × d
	resN    int       // contexts stored
	resSeen int       // contexts seen
	resGen  uint64

	asked      map[int][]uint64 // per context: bit a·K + b set once arms a < b were asked
	ruled      map[Query]int    // duels proposed by the acquisition rule, not yet answered
	pend       pending
	pendRows   [][2]int // pool rows of pending duels
	retrainDue bool
	idle       int // answers observed since the last Select, Pend, Policy or Score
	replay     replaySchedule
	trainedAt  int // answers at the last retrain
	psiBuf     []float64

	// Policy cache.
	polVer, polGen int
	policy         []int
	ctxBuf         []float64
	two            *tgRows
	ws             kgScratch
	beta, scores   []float64
	lnArg, lnVal   []float64 // acquire: arguments and values of log1p
	lnPrev         []float64 // and the previous duel's values
	tden           []float64 // acquire: ν̂²v_p + 1/κ_p of the target duels
}

func init() {
	Register("neural-adb-target", "ours: neural-adb-plus's model with duels chosen for what is scored on target contexts drawn from the context distribution (objective: predict = expected information about new contexts' answers, policy = knowledge gradient of the policy); cost follows the answers, not the pool",
		func(env Env) (Learner, error) { return NewNeuralADBTarget(env, DefaultTargetOptions()) })
	DeclareReads("neural-adb-target", "its other settings are fixed (go doc algorithms.DefaultTargetOptions)",
		ReadsFields([]string{"depth", "width", "retrain-every", "objective"}))
}

func errTarget(format string, args ...any) error {
	return fmt.Errorf("algorithms: neural-adb-target: "+format, args...)
}

// NewNeuralADBTarget builds the learner with the given options.
func NewNeuralADBTarget(env Env, opt TargetOptions) (*NeuralADBTarget, error) {
	if len(opt.Lambdas) == 0 {
		return nil, errTarget("no λ in the grid")
	}
	for _, l := range opt.Lambdas {
		if !(l > 0) {
			return nil, errTarget("λ grid values must be positive (+Inf: the linear part alone), got %v", l)
		}
	}
	if !(opt.LambdaU > 0) || opt.Candidates < 1 || opt.TargetContexts < 1 || opt.TargetPairs < 1 || opt.PairsPerContext < 1 || opt.MaxBatch < 1 {
		return nil, errTarget("invalid options %+v", opt)
	}
	m, err := newTGModel(env, opt)
	if err != nil {
		return nil, err
	}
	p := env.Pool
	w := env.Config.Width
	l := &NeuralADBTarget{
		pool: p, cfg: env.Config, opt: opt, obj: env.Config.Objective.Rule(), model: m,
		post: newTGPosterior(p.Dim, w),
		rng:  NewStream(env.Seed, streamSelect), trng: NewStream(env.Seed, streamTarget), seed: env.Seed,
		tgt:   newTGBlocks(p.Arms, p.Dim, p.Dim+w, true),
		cand:  newTGBlocks(p.Arms, p.Dim, p.Dim+w, false),
		asked: map[int][]uint64{}, ruled: map[Query]int{}, gen: p.Generation(), polVer: -1, two: newTGRows(p.Dim),
	}
	l.post.rebuild(m.current(), opt.LambdaU, nil)
	l.drawTargets()
	return l, nil
}

// contextRows returns the K feature rows of pool context c (read only,
// valid until the next call: it may alias the pool's storage or a buffer).
func (l *NeuralADBTarget) contextRows(c int) []float64 {
	K := l.pool.Arms
	x := l.pool.RowsTo(l.ctxBuf, c*K, (c+1)*K)
	if !l.pool.Contiguous(c*K, (c+1)*K) {
		l.ctxBuf = x
	}
	return x
}

// fresh reports whether the pool is in the fresh-context reading.
func (l *NeuralADBTarget) fresh() bool { return l.pool.Fresh() > 0 || l.resSeen > 0 }

// drawTargets redraws the target sample and its duels and fills their
// state at the current model and Σ.
func (l *NeuralADBTarget) drawTargets() {
	p, K := l.pool, l.pool.Arms
	l.tgt.reset()
	if l.fresh() {
		per := K * p.Dim
		for i := range l.resN {
			l.tgt.add(-1, l.resX[i*per:(i+1)*per])
		}
	} else {
		C := p.Committed()
		var ctxs []int
		if C <= l.opt.TargetContexts {
			ctxs = make([]int, C)
			for c := range ctxs {
				ctxs[c] = c
			}
		} else {
			ctxs = l.trng.Perm(C)[:l.opt.TargetContexts]
			slices.Sort(ctxs)
		}
		for _, c := range ctxs {
			l.tgt.add(c, l.contextRows(c))
		}
	}
	l.tpairs = l.tpairs[:0]
	if n := l.tgt.n(); n > 0 {
		for range l.opt.TargetPairs {
			i := l.trng.IntN(n)
			a := l.trng.IntN(K)
			b := (a + 1 + l.trng.IntN(K-1)) % K
			l.tpairs = append(l.tpairs, [3]int32{int32(i), int32(a), int32(b)})
		}
	}
	l.keepColumns()
	l.post.fill(l.tgt, l.model, l.obj == ObjectivePolicy)
	if l.obj != ObjectivePolicy {
		t := l.tgt
		l.tinvk = resize(l.tinvk, len(l.tpairs))
		for p, tp := range l.tpairs {
			i, a, b := int(tp[0]), int(tp[1]), int(tp[2])
			l.tinvk[p] = 1 / plusDsigmoid(t.hp[i*K+a]-t.hp[i*K+b])
		}
	}
}

// keepColumns sets the rows of the target sample whose columns S keeps:
// under ObjectivePredict only the target duels' rows (acquire reads no
// other entry of β), each duel's two columns in tpa, tpb; under
// ObjectivePolicy every row.
func (l *NeuralADBTarget) keepColumns() {
	t := l.tgt
	if l.obj == ObjectivePolicy {
		t.scol = nil
		return
	}
	K := l.pool.Arms
	at := resizeInt32(l.colAt, t.rows())
	l.colAt = at
	clear(at)
	for _, tp := range l.tpairs {
		at[int(tp[0])*K+int(tp[1])] = 1
		at[int(tp[0])*K+int(tp[2])] = 1
	}
	cols := l.colBuf[:0]
	for r, v := range at {
		if v != 0 {
			at[r] = int32(len(cols))
			cols = append(cols, int32(r))
		}
	}
	l.colBuf, t.scol = cols, cols
	l.tpa, l.tpb = resizeInt32(l.tpa, len(l.tpairs)), resizeInt32(l.tpb, len(l.tpairs))
	for p, tp := range l.tpairs {
		i := int(tp[0]) * K
		l.tpa[p], l.tpb[p] = at[i+int(tp[1])], at[i+int(tp[2])]
	}
	ptr := resizeInt32(l.bptr, t.n()+1)
	clear(ptr)
	for _, tp := range l.tpairs {
		ptr[tp[0]+1]++
	}
	for i := range t.n() {
		ptr[i+1] += ptr[i]
	}
	pair := resizeInt32(l.bpair, len(l.tpairs))
	next := resizeInt32(at, t.n()) // at is no longer needed
	copy(next, ptr[:t.n()])
	for p, tp := range l.tpairs {
		pair[next[tp[0]]] = int32(p)
		next[tp[0]]++
	}
	l.bptr, l.bpair, l.colAt = ptr, pair, next
}

// observeFresh adds the round's fresh contexts to the reservoir (once per
// pool generation).
func (l *NeuralADBTarget) observeFresh() {
	p := l.pool
	if p.Fresh() == 0 || l.resGen == p.Generation() {
		return
	}
	l.resGen = p.Generation()
	per := p.Arms * p.Dim
	l.resX = resize(l.resX, l.opt.TargetContexts*per)
	for c := p.Committed(); c < p.Contexts; c++ {
		l.resSeen++
		slot := l.resN
		if l.resN == l.opt.TargetContexts {
			slot = l.trng.IntN(l.resSeen)
			if slot >= l.resN {
				continue
			}
		} else {
			l.resN++
		}
		copy(l.resX[slot*per:(slot+1)*per], l.contextRows(c))
	}
	if l.tgt.n() == 0 {
		l.drawTargets()
	}
}

// ready marks a call other than Observe and retrains if a retrain is due.
func (l *NeuralADBTarget) ready() {
	l.idle = 0
	l.retrain()
}

// retrain retrains the members, rebuilds Σ, refits ν̂ and redraws the
// target sample if a retrain is due.
func (l *NeuralADBTarget) retrain() {
	if !l.retrainDue {
		return
	}
	l.retrainDue = false
	l.model.train()
	l.trainedAt = len(l.model.duels)
	l.rebuildPosterior()
	l.post.fitNu(1 - 1/l.opt.PreqHalfLife)
	l.drawTargets()
}

// rebuildPosterior rebuilds Σ for the member in use from every answered
// and pending duel: P's sum Σ_s κ_s ψ_s ψ_sᵀ is accumulated tgChunk/2
// duels at a time (the same chain of products over the duels in order,
// internal/gemm), from the member in use's z and scores of the chunk's rows
// only, so that neither z of every training row nor every ψ is held at
// once (at 20,000 duels of d = 1,024 they took 0.7 GB).
func (l *NeuralADBTarget) rebuildPosterior() {
	m := l.model
	mz, d := l.post.m, l.pool.Dim
	l.post.mb = m.current()
	duels := m.duels
	for _, pr := range l.pendRows {
		duels = append(duels[:len(duels):len(duels)], [2]int32{m.slot[pr[0]], m.slot[pr[1]]})
	}
	var prec []float64
	if len(duels) > 0 {
		prec = make([]float64, mz*mz)
		const per = tgChunk / 2 // duels per chunk
		n := min(per, len(duels))
		sel := make([]int, 0, 2*n)
		hp, z, wpsi := make([]float64, 2*n), make([]float64, 2*n*mz), make([]float64, n*mz)
		for s0 := 0; s0 < len(duels); s0 += per {
			chunk := duels[s0:min(len(duels), s0+per)]
			sel = sel[:0]
			for _, du := range chunk {
				sel = append(sel, int(du[0]), int(du[1]))
			}
			m.evalCurrent(m.rows, sel, hp, z, d, mz)
			for s := range chunk {
				zw, zl := z[2*s*mz:(2*s+1)*mz], z[(2*s+1)*mz:(2*s+2)*mz]
				k := math.Sqrt(plusDsigmoid(hp[2*s] - hp[2*s+1]))
				row := wpsi[s*mz : (s+1)*mz]
				for i := range mz {
					psi := zw[i] - zl[i]
					row[i] = k * psi
				}
			}
			gemm.AddTransMulTo(prec, wpsi[:len(chunk)*mz], wpsi[:len(chunk)*mz], mz, len(chunk), mz)
		}
	}
	l.post.rebuild(m.current(), l.opt.LambdaU, prec)
}

// pairState returns, for pool rows ra, rb (features xa, xb), the averaged
// margin h̄_a − h̄_b, the member in use's margin, and ψ = z_a − z_b in
// l.psiBuf.
func (l *NeuralADBTarget) pairState(xa, xb []float64) (hbar, hp float64, psi []float64) {
	t := l.two
	t.reset()
	t.add(xa)
	t.add(xb)
	mz := l.post.m
	var h, hq [2]float64
	z := make([]float64, 2*mz)
	l.model.eval(t, h[:], hq[:], z, l.pool.Dim, mz)
	l.psiBuf = resize(l.psiBuf, mz)
	for i := range mz {
		l.psiBuf[i] = z[i] - z[mz+i]
	}
	return h[0] - h[1], hq[0] - hq[1], l.psiBuf
}

// Observe implements Learner: the duel is scored prequentially by every
// member and by the posterior, joins Σ (unless pending) and the training
// data; every Config.RetrainEvery duels a retrain falls due, done before
// the next Select, Policy or Score (so that answers replayed in bulk cost
// one retrain, not one per period).
func (l *NeuralADBTarget) Observe(q Query, y Feedback) {
	p := l.pool
	win, lose := q.WinnerLoser(y)
	rw, rl := p.Row(q.Context, win), p.Row(q.Context, lose)
	x := l.contextRows(q.Context)
	d := p.Dim
	xw := append([]float64(nil), x[win*d:(win+1)*d]...)
	xl := append([]float64(nil), x[lose*d:(lose+1)*d]...)
	first := l.markAsked(q.Context, min(win, lose), max(win, lose))
	// The prequential records that rank the members and calibrate τ̂, ν̂
	// score first-time duels; with UniformCalibration only those not chosen
	// by the acquisition rule (the random duels, and answers to foreign
	// queries), so that the calibration is fitted on duels distributed as
	// the scored ones.
	scored := first
	if l.ruled[q] > 0 {
		l.ruled[q]--
		if l.ruled[q] == 0 {
			delete(l.ruled, q)
		}
		if l.opt.UniformCalibration {
			scored = false
		}
	}
	var hw, hl []float64
	pending := l.pend.take(q)
	if pending {
		l.dropPending(rw, rl)
	}
	if scored || !pending && !l.retrainDue {
		hbar, hp, psi := l.pairState(xw, xl)
		if scored {
			nm := len(l.model.members)
			hw, hl = make([]float64, nm), make([]float64, nm)
			t := l.two
			t.reset()
			t.add(xw)
			t.add(xl)
			l.model.memberScores(t, hw, hl)
			l.post.record(hbar, l.post.quad(psi))
		}
		if !pending && !l.retrainDue {
			l.post.update(psi, plusDsigmoid(hp), l.tgt)
		}
	}
	l.model.record(rw, rl, xw, xl, scored, hw, hl)
	if len(l.model.duels)%l.cfg.RetrainEvery == 0 {
		l.retrainDue = true
	}
	l.idle++
	if l.idle > l.opt.DeferAfter {
		return
	}
	if l.replay.on && !l.replay.due(len(l.model.duels)) {
		return // a replay retrains at RetrainEvery·2^k answers (replay.go)
	}
	l.retrain()
}

// BeginReplay implements Replayer: until EndReplay, retraining happens at
// RetrainEvery·2^k answers only (replay.go).
func (l *NeuralADBTarget) BeginReplay() {
	l.replay.begin(l.cfg.RetrainEvery, len(l.model.duels))
}

// EndReplay implements Replayer: the retraining that was deferred, and a
// retrain if answers of the replay came after the last one (fewer than
// RetrainEvery answers, or those after the last RetrainEvery·2^k).
func (l *NeuralADBTarget) EndReplay() {
	if l.replay.end(len(l.model.duels), l.trainedAt) {
		l.retrainDue = true
	}
	l.retrain()
}

// markAsked records that arms a < b of context c were asked and reports
// whether that is the first time.
func (l *NeuralADBTarget) markAsked(c, a, b int) bool {
	K := l.pool.Arms
	bits := l.asked[c]
	if bits == nil {
		bits = make([]uint64, (K*K+63)/64)
		l.asked[c] = bits
	}
	i := a*K + b
	first := bits[i/64]&(1<<(i%64)) == 0
	bits[i/64] |= 1 << (i % 64)
	return first
}

// wasAsked reports whether bit i of a context's asked bits (markAsked;
// nil: none asked) is set.
func wasAsked(bits []uint64, i int) bool {
	return bits != nil && bits[i/64]&(1<<(i%64)) != 0
}

// dropPending removes one pending duel of rows {a, b}.
func (l *NeuralADBTarget) dropPending(a, b int) {
	for i, r := range l.pendRows {
		if (r[0] == a && r[1] == b) || (r[0] == b && r[1] == a) {
			l.pendRows = append(l.pendRows[:i], l.pendRows[i+1:]...)
			return
		}
	}
}

// Pend implements Pender: the duel joins Σ (and the target sample's state)
// now, so that the next query of a batch accounts for what this one will
// teach. In the fresh-context reading it does nothing.
func (l *NeuralADBTarget) Pend(q Query) {
	p := l.pool
	if p.Fresh() > 0 {
		return
	}
	l.ready()
	x := l.contextRows(q.Context)
	d := p.Dim
	xa, xb := x[q.Arm1*d:(q.Arm1+1)*d], x[q.Arm2*d:(q.Arm2+1)*d]
	ra, rb := p.Row(q.Context, q.Arm1), p.Row(q.Context, q.Arm2)
	l.model.slotOf(ra, xa)
	l.model.slotOf(rb, xb)
	_, hp, psi := l.pairState(xa, xb)
	l.post.update(psi, plusDsigmoid(hp), l.tgt)
	l.pend.add(q)
	l.pendRows = append(l.pendRows, [2]int{ra, rb})
}

// quad returns ψᵀΣψ.
func (ps *tgPosterior) quad(psi []float64) float64 {
	ps.mulDense(ps.u, psi)
	return max(plusDot(ps.u, psi), 0)
}

// Policy implements Learner: π(c) = argmax_a h̄(x_{c,a}) for every
// committed context, computed block by block (and kept until the model or
// the pool changes).
func (l *NeuralADBTarget) Policy(dst []int) []int {
	l.ready()
	p := l.pool
	C := p.Committed()
	if l.polVer != l.model.version || l.polGen != int(p.Generation()) || len(l.policy) != C {
		l.policy = tgPolicyTo(l.policy, p, l.model.terms(), l.seed, &l.model.b)
		l.polVer, l.polGen = l.model.version, int(p.Generation())
	}
	if cap(dst) < C {
		dst = make([]int, C)
	}
	dst = dst[:C]
	copy(dst, l.policy)
	return dst
}

// tgPolicyTo writes π(c) = argmax_a h̄(x_{c,a}) for every committed context
// of p into dst, h̄ the sum of terms, computed 256 contexts at a time
// (the blocks decide whether the first layer runs dense or sparse), exact
// ties broken by tgPrio of seed.
func tgPolicyTo(dst []int, p *Pool, terms []tgTerm, seed uint64, b *tgBatch) []int {
	C, K := p.Committed(), p.Arms
	dst = resize32(dst, C)
	const chunk = 256 // contexts
	rows := newTGRows(p.Dim)
	var h, buf []float64
	for lo := 0; lo < C; lo += chunk {
		hi := min(C, lo+chunk)
		rows.reset()
		for c := lo; c < hi; c++ {
			x := p.RowsTo(buf, c*K, (c+1)*K)
			if !p.Contiguous(c*K, (c+1)*K) {
				buf = x // a converted copy: reuse it
			}
			for a := range K {
				rows.add(x[a*p.Dim : (a+1)*p.Dim])
			}
		}
		h = resize(h, rows.n())
		tgSum(terms, rows, h, b)
		for c := lo; c < hi; c++ {
			s := h[(c-lo)*K : (c-lo+1)*K]
			best := 0
			for a := 1; a < K; a++ {
				if s[a] > s[best] || (s[a] == s[best] && tgPrio(seed, c, a) > tgPrio(seed, c, best)) {
					best = a
				}
			}
			dst[c] = best
		}
	}
	return dst
}

func resize32(s []int, n int) []int {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]int, n)
}

// tgPrio is the tie-break priority of (c, a): a hash of the seed and the
// row, so that the policy does not depend on when it is evaluated.
func tgPrio(seed uint64, c, a int) uint64 {
	z := seed ^ (uint64(c)*0x9E3779B97F4A7C15 + uint64(a)*0xBF58476D1CE4E5B9)
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// Score implements Scorer: the calibrated average Σ_λ w_λ τ_λ h_λ(x) (as
// neural-adb-plus).
func (l *NeuralADBTarget) Score(dst, x []float64) []float64 {
	l.ready()
	return tgScoreTo(dst, x, l.pool.Dim, l.model.terms(), l.model.calibration(), &l.model.b)
}

// tgScoreTo writes finiteOr0(scale · h̄(x_r)) for the rows of x (d features
// each) into dst, h̄ the sum of terms, computed 1,024 rows at a time (the
// blocks decide whether the first layer runs dense or sparse).
func tgScoreTo(dst, x []float64, d int, terms []tgTerm, scale float64, b *tgBatch) []float64 {
	n := len(x) / d
	if dst == nil {
		dst = make([]float64, n)
	}
	rows := newTGRows(d)
	const chunk = 1024
	for lo := 0; lo < n; lo += chunk {
		hi := min(n, lo+chunk)
		rows.reset()
		for r := lo; r < hi; r++ {
			rows.add(x[r*d : (r+1)*d])
		}
		tgSum(terms, rows, dst[lo:hi], b)
	}
	for i := range dst[:n] {
		dst[i] = finiteOr0(scale * dst[i])
	}
	return dst
}

// Scores returns the calibrated utility estimates of context c's arms.
func (l *NeuralADBTarget) Scores(c int) []float64 {
	return l.Score(nil, l.contextRows(c))
}

// Sigma2 returns the posterior variance s²·ν̂²(z_a − z_b)ᵀΣ(z_a − z_b) of
// the margin h_a − h_b in context c on the scale of Scores: s is the
// calibration factor Scores applies to the raw average, so that σ and the
// score difference the labelling page shows are in the same units (the
// selection rules read ν̂²·ψᵀΣψ of the raw margin, not this).
func (l *NeuralADBTarget) Sigma2(c, a, b int) float64 {
	l.ready()
	x := l.contextRows(c)
	d := l.pool.Dim
	_, _, psi := l.pairState(x[a*d:(a+1)*d], x[b*d:(b+1)*d])
	s := l.model.calibration()
	return s * s * l.post.nu2 * l.post.quad(psi)
}

// tgTerm is one member's part of the averaged scores h̄: its weight w, its
// linear part u and its network (nil when it has none: the linear member,
// or g ≡ 0 at the mirrored initialisation).
type tgTerm struct {
	w   float64
	u   []float64
	net *tgNet
}

// terms returns the members that count in h̄ (weight ≠ 0), in order.
func (m *tgModel) terms() []tgTerm {
	var ts []tgTerm
	for k, mb := range m.members {
		wk := m.weight(k)
		if wk == 0 {
			continue
		}
		t := tgTerm{w: wk, u: mb.u}
		if !mb.linear() && !mb.net.net.IdenticallyZero() {
			t.net = &mb.net
		}
		ts = append(ts, t)
	}
	return ts
}

// tgSum writes h̄ = Σ_k w_k · finiteOr0(x·u_k + g_k(x)) of the rows of x
// into h (b: workspace of the forward passes).
func tgSum(terms []tgTerm, x *tgRows, h []float64, b *tgBatch) {
	R := x.n()
	clear(h[:R])
	for _, t := range terms {
		if t.net != nil {
			t.net.forward(x, nil, b)
		}
		for r := range R {
			v := x.dot(r, t.u)
			if t.net != nil {
				v += b.out[r]
			}
			h[r] += t.w * finiteOr0(v)
		}
	}
}

// calibration returns the factor that turns h̄ into calibrated utilities:
// τ of the member in use (while averaging), else neural-adb-plus's
// max(τ, 1/64) once duels were scored, else 1.
func (m *tgModel) calibration() float64 {
	mb := m.current()
	if m.avg {
		return mb.tau
	}
	if len(mb.marg) > 0 {
		return max(mb.tau, 1.0/64)
	}
	return 1
}

var _ interface {
	Learner
	Pender
	Scorer
	Replayer
} = (*NeuralADBTarget)(nil)
