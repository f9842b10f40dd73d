package algorithms

import (
	"fmt"
	"math"

	"github.com/neural-adb/nadb/internal/gram"
	"github.com/neural-adb/nadb/internal/mlp"
)

// denseKernelMaxRows bounds the pool size (Contexts·Arms) for which the
// confidence state is a gram.Confidence over the features of every pool row
// (its r̃ storage is 8·rows bytes per update); larger pools keep a
// lazyConfidence (lazyMinRows).
const denseKernelMaxRows = 6000

// NeuralModel is the reward-model machinery shared by the neural learners: the
// MLP h(·;θ) trained on Bradley–Terry duels (eq. 2), its gradient features
// φ = g(·;θ0)/√w, and optionally the exact confidence state V (eqs. 3 and 6).
// Learners in this package embed it; learners added elsewhere may use it via
// NewNeuralModel.
type NeuralModel struct {
	Pool *Pool
	Cfg  Config
	Net  *mlp.Net
	// Conf is the exact confidence state V; nil when not requested. On a
	// fixed pool of at most lazyMinRows rows it is a *gram.Confidence (every
	// context's block Q_c = Φ_c V⁻¹ Φ_cᵀ kept up to date); on a larger one it
	// solves blocks on demand (lazyConfidence); in the fresh-context reading
	// it has the blocks of the round's fresh contexts only.
	Conf Confidence

	rows    rowScores // h(x_n;θ_t) for every pool row, refreshed after every retrain
	trainer *mlp.Trainer
	// train holds the feature rows of the pool rows duels and targets use,
	// in order of first use: the trainer's inputs (trainerRow).
	train     []float64
	trainOf   map[int]int   // pool row → row of train
	feat      *mlp.Features // gradient features of every row (dense-kernel pools only)
	duels     int
	targets   int  // regression targets (AddTarget)
	trains    int  // retrains so far
	trainedAt int  // observations (duels and targets) at the last retrain
	stale     bool // the rows' scores predate the last retrain
	// scored[c] is the number of retrains when context c's rows were last
	// scored on their own (Scores, while stale).
	scored  []int
	predict *mlp.Batch     // workspace of score
	replay  replaySchedule // the schedule while replaying a log (replay.go)
	sigmaK  float64        // σ² = sigmaK · ‖Δφ‖²_{V⁻¹}
	kernel  gram.Kernel    // K0 = ΦΦᵀ of the features (nil without confidence)
	dense   *gram.Dense    // K0 as a matrix, made by DenseKernel
}

// NewNeuralModel builds the network at θ0 from the stream (env.Seed, 1) and,
// if withConfidence, the gradient features and the confidence state at V0.
func NewNeuralModel(env Env, withConfidence bool) (*NeuralModel, error) {
	cfg := env.Config
	p := env.Pool
	net := mlp.NewNet(cfg.Arch(p.Dim))
	if err := net.Initialize(cfg.Init, cfg.InitScale, NewStream(env.Seed, streamInit)); err != nil {
		return nil, fmt.Errorf("algorithms: %w", err)
	}
	tr, err := mlp.NewTrainer(net, nil, cfg.TrainConfig(), NewStream(env.Seed, streamTrain))
	if err != nil {
		return nil, fmt.Errorf("algorithms: %w", err)
	}
	m := &NeuralModel{
		Pool: p, Cfg: cfg, Net: net, trainer: tr, trainOf: map[int]int{},
		rows:   newRowScores(p, env.Seed),
		sigmaK: cfg.Lambda / cfg.Kappa,
	}
	if cfg.SigmaWidth == SigmaTwice {
		m.sigmaK /= float64(cfg.Width)
	}
	m.rows.eval(m.score, 0, p.Rows())
	if withConfidence {
		if p.Fresh() > 0 {
			if cfg.FeatureNorm == FeatureUnit {
				return nil, fmt.Errorf("algorithms: feature-norm %s is not available in the fresh-context reading", FeatureUnit)
			}
			m.Conf = newStreamConfidence(p, net.Clone(), 1/float64(cfg.Width), cfg.Lambda/cfg.Kappa, cfg.RefreshEvery)
			return m, nil
		}
		if p.Rows() > lazyMinRows {
			m.Conf = newLazyConfidence(p, net.Clone(), 1/float64(cfg.Width), cfg.Lambda/cfg.Kappa, cfg.FeatureNorm == FeatureUnit, cfg.RefreshEvery)
			return m, nil
		}
		m.feat = net.NewFeatures(p.RowsTo(nil, 0, p.Rows()), 1/float64(cfg.Width))
		k := newExactKernel(m.feat, cfg.FeatureNorm == FeatureUnit)
		m.kernel = k
		conf := gram.New(k, p.Contexts, p.Arms, cfg.Lambda/cfg.Kappa)
		conf.RefreshEvery = cfg.RefreshEvery
		m.Conf = conf
	}
	return m, nil
}

// score writes h(x;θ_t) for the feature rows x into dst, through one
// workspace kept across calls (a converted pool is scored a block at a
// time, and a workspace per block would be allocated and cleared each time).
func (m *NeuralModel) score(dst, x []float64) {
	if m.predict == nil {
		m.predict = mlp.NewBatch(m.Net.Arch, 1024)
	}
	m.Net.Predict(dst, x, m.predict)
}

// sync brings the per-row state up to date with the pool (committed contexts
// added, fresh ones replaced; see Pool).
func (m *NeuralModel) sync() {
	if m.rows.gen == m.Pool.Generation() {
		return
	}
	m.rows.sync(m.score)
}

// trainerRow returns the trainer's input row of pool row n, copying the
// row's features into the trainer's inputs on first use. The trainer sees
// only the rows duels and targets use (in order of first use: the order in
// which it would list the pool's rows), so it never needs the pool's other
// rows, however large or however stored the pool is. The inputs grow by
// doubling, with not-yet-used rows zero (the trainer never reads a row no
// duel or target uses).
func (m *NeuralModel) trainerRow(n int) int {
	if i, ok := m.trainOf[n]; ok {
		return i
	}
	d := m.Pool.Dim
	i := len(m.trainOf)
	if (i+1)*d > len(m.train) {
		grown := make([]float64, 2*max(8, i)*d)
		copy(grown, m.train)
		m.train = grown
		m.trainer.SetInputs(m.train)
	}
	copy(m.train[i*d:(i+1)*d], m.Pool.RowTo(m.train[i*d:(i+1)*d], n))
	m.trainOf[n] = i
	return i
}

// RowScores returns h(x_n;θ_t) for every pool row (read only).
func (m *NeuralModel) RowScores() []float64 {
	m.current()
	return m.rows.S
}

// AddDuel records that arm win beat arm lose in context c and retrains the
// network every Cfg.RetrainEvery duels (warm start unless Cfg.Reset).
func (m *NeuralModel) AddDuel(c, win, lose int) {
	m.sync()
	m.trainer.Add(m.trainerRow(m.Pool.Row(c, win)), m.trainerRow(m.Pool.Row(c, lose)))
	m.duels++
	if m.duels%m.Cfg.RetrainEvery == 0 && m.replay.due(m.duels+m.targets) {
		m.Retrain()
	}
}

// AddTarget records the squared-error target y for arm a of context c (the
// regression loss of internal/mlp, used by AE-Borda (NN)) and retrains the
// network every Cfg.RetrainEvery recorded duels and targets together.
func (m *NeuralModel) AddTarget(c, a int, y float64) {
	m.sync()
	m.trainer.AddTarget(m.trainerRow(m.Pool.Row(c, a)), y)
	m.targets++
	if (m.duels+m.targets)%m.Cfg.RetrainEvery == 0 && m.replay.due(m.duels+m.targets) {
		m.Retrain()
	}
}

// Retrain runs one training round and refreshes H.
func (m *NeuralModel) Retrain() {
	m.sync()
	m.trainer.Fit()
	m.trains++
	m.trainedAt = m.duels + m.targets
	// Every row is scored again when the scores are next read, not now: a
	// learner that reads them only at checkpoints or for one context
	// (random-nn, a replay's intermediate retrains) does not pay a pass over
	// a large pool per retrain. The scores are a function of θ alone, so
	// when they are computed changes nothing.
	m.stale = true
}

// current refreshes the row scores a retrain left stale.
func (m *NeuralModel) current() {
	m.sync()
	if m.stale {
		m.stale = false
		m.rows.refresh(m.score)
	}
}

// Retrains returns the number of retrains so far.
func (m *NeuralModel) Retrains() int { return m.trains }

// Duels returns the number of recorded duels.
func (m *NeuralModel) Duels() int { return m.duels }

// Sigma2 returns σ²_{t−1}(c, a, b) of eq. (6).
func (m *NeuralModel) Sigma2(c, a, b int) float64 { return m.sigmaK * m.Conf.Norm2(c, a, b) }

// MaxPair returns the allowed pair (a < b) of context c with the largest
// ‖φ_a − φ_b‖²_{V⁻¹} (eq. 3) and that squared norm.
func (m *NeuralModel) MaxPair(o Offer, c int) (a, b int, norm2 float64) {
	return maxPair(m.Conf, o, c, m.Pool.Arms)
}

// Scores returns h for the arms of context c (aliases H: read only). After
// a retrain it scores context c's rows alone, not the pool's: a rule that
// reads the scores of one context per round (the arm rule) then does not
// pay a pass over the pool per retrain. A row's score does not depend on
// the rows scored with it, so the bits are those of a whole refresh.
func (m *NeuralModel) Scores(c int) []float64 {
	K := m.Pool.Arms
	m.sync()
	if m.stale {
		if c >= len(m.scored) {
			m.scored = append(m.scored, make([]int, c+1-len(m.scored))...)
		}
		if m.scored[c] != m.trains {
			m.scored[c] = m.trains
			m.rows.eval(m.score, c*K, (c+1)*K)
		}
	}
	return m.rows.S[c*K : (c+1)*K]
}

// Policy returns π(c) = argmax_a h(x_{c,a};θ_t) (eq. 8) for every context.
func (m *NeuralModel) Policy(dst []int) []int {
	m.current()
	return m.rows.policy(dst)
}

// policyAll is Policy over every context now in the pool, fresh ones too.
func (m *NeuralModel) policyAll(dst []int) []int {
	m.current()
	return PolicyFromScores(dst, m.Pool.Contexts, m.Pool.Arms, m.rows.S, m.rows.prio)
}

// Score evaluates h(·;θ_t) on arbitrary feature rows.
func (m *NeuralModel) Score(dst, x []float64) []float64 { return m.Net.Predict(dst, x, nil) }

// DenseKernel returns the Gram matrix of the pool's gradient features,
// K0 = ΦΦᵀ (Rows × Rows, divided by the rows' norms with feature-norm=unit),
// made on first use: the same entries the confidence state computes on
// demand. ok is false where the model keeps no features of the whole pool
// (no confidence state, a pool larger than lazyMinRows rows, fresh
// contexts). A learner that reads whole rows of K0 (the lookahead context
// rule) uses it; 8·Rows² bytes.
func (m *NeuralModel) DenseKernel() (d *gram.Dense, ok bool) {
	if m.feat == nil {
		return nil, false
	}
	if m.dense == nil {
		m.dense = &gram.Dense{N: m.feat.Rows(), Data: m.feat.GramTo(nil)}
		if m.Cfg.FeatureNorm == FeatureUnit {
			unitDiagonal(m.dense)
		}
	}
	return m.dense, true
}

// exactKernel is the gram.Kernel of a fixed pool's confidence state: the
// entries of the gradient features computed on demand, in blocks
// (mlp.BlockKernel: the bits of Features.GramTo), divided with
// feature-norm=unit by the rows' norms as unitDiagonal divides the dense
// matrix. It keeps nothing of size Rows², so a paper-scale run holds no
// 72 MB matrix and computes only the entries its updates name.
type exactKernel struct {
	k    *mlp.BlockKernel
	n    int
	inv  []float64 // 1/‖φ_i‖ (feature-norm=unit), nil otherwise
	one  [1]int
	kept []int // the rows of the kept columns (Keep), with feature-norm=unit
}

func newExactKernel(f *mlp.Features, unit bool) *exactKernel {
	e := &exactKernel{k: mlp.NewBlockKernel(f), n: f.Rows()}
	if unit {
		e.inv = make([]float64, e.n)
		var v [1]float64
		for i := range e.n {
			e.one[0] = i
			e.k.ColumnsTo(v[:], i, i+1, e.one[:])
			if v[0] > 0 {
				e.inv[i] = 1 / math.Sqrt(v[0])
			}
		}
	}
	return e
}

func (e *exactKernel) Rows() int { return e.n }

func (e *exactKernel) Entry(i, j int) float64 {
	var v [1]float64
	e.one[0] = j
	e.ColumnsTo(v[:], i, i+1, e.one[:])
	return v[0]
}

// Column returns K0[:, j], computed anew (the caller may keep it).
func (e *exactKernel) Column(j int) []float64 {
	col := make([]float64, e.n)
	e.one[0] = j
	e.ColumnsTo(col, 0, e.n, e.one[:])
	return col
}

// ColumnsTo implements gram.Blocker.
func (e *exactKernel) ColumnsTo(dst []float64, lo, hi int, cols []int) {
	e.k.ColumnsTo(dst, lo, hi, cols)
	if e.inv == nil {
		return
	}
	nr := hi - lo
	for b, j := range cols {
		col := dst[b*nr : (b+1)*nr]
		for a := range col {
			col[a] *= e.inv[lo+a] * e.inv[j]
		}
	}
}

// Keep implements gram.Keeper.
func (e *exactKernel) Keep(i int) {
	e.k.Keep(i)
	if e.inv != nil {
		e.kept = append(e.kept, i)
	}
}

// KeptTo implements gram.Keeper, with the division of ColumnsTo.
func (e *exactKernel) KeptTo(dst []float64, lo, hi, j0, j1 int) {
	e.k.KeptTo(dst, lo, hi, j0, j1)
	if e.inv == nil {
		return
	}
	nc := j1 - j0
	for a := range hi - lo {
		row := dst[a*nc : (a+1)*nc]
		for b, j := range e.kept[j0:j1] {
			row[b] *= e.inv[lo+a] * e.inv[j]
		}
	}
}

// unitDiagonal rescales a Gram matrix to K_ij/√(K_ii K_jj): the kernel of the
// features φ/‖φ‖ (Config.FeatureNorm FeatureUnit). Rows of zero norm stay zero.
func unitDiagonal(d *gram.Dense) {
	n := d.N
	inv := make([]float64, n)
	for i := range n {
		if v := d.Data[i*n+i]; v > 0 {
			inv[i] = 1 / math.Sqrt(v)
		}
	}
	for i := range n {
		row := d.Data[i*n : (i+1)*n]
		for j := range row {
			row[j] *= inv[i] * inv[j]
		}
	}
}
