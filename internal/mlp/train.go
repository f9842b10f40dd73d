package mlp

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/neural-adb/nadb/internal/enum"
	"github.com/neural-adb/nadb/internal/gemm"
	"github.com/neural-adb/nadb/internal/logistic"
	"github.com/neural-adb/nadb/internal/xmath"
)

// Optimizer names a training algorithm.
type Optimizer string

// Optimisers.
const (
	Adam Optimizer = "adam" // Kingma & Ba, β = (0.9, 0.999), ε = 1e-8 (default)
	GD   Optimizer = "gd"   // plain gradient descent
)

// Optimizers lists the valid optimisers.
var Optimizers = []Optimizer{Adam, GD}

// UnmarshalText implements encoding.TextUnmarshaler: it accepts only the
// names of Optimizers.
func (o *Optimizer) UnmarshalText(b []byte) (err error) {
	*o, err = enum.Parse("optimizer", string(b), Optimizers)
	return err
}

// Validate reports whether o is one of Optimizers.
func (o Optimizer) Validate() error { return enum.Check("optimizer", o, Optimizers) }

// Values lists the valid names.
func (Optimizer) Values() []string { return enum.Strings(Optimizers) }

// LossScale names the factor S in front of the summed negative log-likelihood.
type LossScale string

// Loss scales.
const (
	ScaleSum   LossScale = "sum"   // S = 1 (default)
	ScaleMean  LossScale = "mean"  // S = 1/n, n the number of pairs
	ScaleWidth LossScale = "width" // S = 1/w, eq. (2) as printed
)

// LossScales lists the valid loss scales.
var LossScales = []LossScale{ScaleSum, ScaleMean, ScaleWidth}

// UnmarshalText implements encoding.TextUnmarshaler: it accepts only the
// names of LossScales.
func (s *LossScale) UnmarshalText(b []byte) (err error) {
	*s, err = enum.Parse("loss scale", string(b), LossScales)
	return err
}

// Validate reports whether s is one of LossScales.
func (s LossScale) Validate() error { return enum.Check("loss scale", s, LossScales) }

// Values lists the valid names.
func (LossScale) Values() []string { return enum.Strings(LossScales) }

// Regularizer names the penalty R(θ).
type Regularizer string

// Regularisers.
const (
	RegTheta  Regularizer = "theta"  // λ‖θ‖², the practical choice of Appendix B (default)
	RegTheta0 Regularizer = "theta0" // (λ/2)‖θ − θ0‖², eq. (2)
)

// Regularizers lists the valid penalties.
var Regularizers = []Regularizer{RegTheta, RegTheta0}

// UnmarshalText implements encoding.TextUnmarshaler: it accepts only the
// names of Regularizers.
func (r *Regularizer) UnmarshalText(b []byte) (err error) {
	*r, err = enum.Parse("regularizer", string(b), Regularizers)
	return err
}

// Validate reports whether r is one of Regularizers.
func (r Regularizer) Validate() error { return enum.Check("regularizer", r, Regularizers) }

// Values lists the valid names.
func (Regularizer) Values() []string { return enum.Strings(Regularizers) }

// TrainConfig configures a Trainer. The zero value is not valid; see
// DefaultTrainConfig.
type TrainConfig struct {
	Optimizer    Optimizer
	LearningRate float64
	Steps        int         // gradient steps per call to Train
	Reset        bool        // restart from θ0 at every Train (false: warm start)
	KeepMoments  bool        // keep Adam's moment estimates across calls to Train
	BatchSize    int         // pairs per step; 0 means the full data set
	LossScale    LossScale   // S
	Regularizer  Regularizer // R
	Lambda       float64     // λ in R
}

// DefaultTrainConfig returns the defaults documented in the package.
func DefaultTrainConfig() TrainConfig {
	return TrainConfig{Optimizer: Adam, LearningRate: 1e-3, Steps: 50, LossScale: ScaleSum, Regularizer: RegTheta, Lambda: 1}
}

// Validate reports the first invalid field.
func (c TrainConfig) Validate() error {
	for _, err := range []error{c.Optimizer.Validate(), c.LossScale.Validate(), c.Regularizer.Validate()} {
		if err != nil {
			return fmt.Errorf("mlp: %w", err)
		}
	}
	switch {
	case !(c.LearningRate > 0) || math.IsInf(c.LearningRate, 0):
		return fmt.Errorf("mlp: learning rate %v must be positive and finite", c.LearningRate)
	case c.Steps < 0:
		return fmt.Errorf("mlp: steps %d must be ≥ 0", c.Steps)
	case c.BatchSize < 0:
		return fmt.Errorf("mlp: batch size %d must be ≥ 0 (0 = full batch)", c.BatchSize)
	case !(c.Lambda >= 0) || math.IsInf(c.Lambda, 0):
		return fmt.Errorf("mlp: lambda %v must be ≥ 0 and finite", c.Lambda)
	}
	return nil
}

// Pair is a duel outcome between two rows of the trainer's input set.
type Pair struct{ Win, Lose int }

// Target is a regression observation: the value Y at row Row of the
// trainer's input set. It adds the squared error (h(x_Row) − Y)² to the loss.
type Target struct {
	Row int
	Y   float64
}

// Trainer fits a Net to Bradley–Terry duel outcomes between rows of a fixed
// input set (the pool), and to squared-error targets at such rows, minimising
// the loss of the package documentation.
type Trainer struct {
	Net    *Net
	Config TrainConfig

	x      []float64 // pool rows × In
	rows   int
	theta0 []float64
	pairs  []Pair
	targs  []Target
	slot   []int32 // pool row → position in uniq, −1 if absent (full batch)
	uniq   []int
	rng    *rand.Rand // mini-batch sampling

	m, v []float64    // Adam moments
	t    int          // Adam step count
	corr [][2]float64 // Adam's bias corrections 1−β1^t and 1−β2^t of step t = 1, 2, …
	grad []float64
	c    []float64
	// regReady: grad holds (2λ)·θ of the current θ (set by Fit between its
	// steps only).
	regReady bool
	sig      []float64 // per pair: −diff, then μ(−diff) (lossGradScaled)
	batch    *Batch
	// gathered is the number of leading rows of uniq whose inputs batch
	// holds (they never change: uniq only grows, and the rows it names keep
	// their inputs); 0 after a mini-batch step used batch for other rows.
	gathered int
	zero     bool // the net sat at a mirrored θ0 when the trainer was made
}

// NewTrainer returns a trainer for net over the pool rows x (rows × In). θ0 is
// the network's current θ. rng drives mini-batch sampling only.
func NewTrainer(net *Net, x []float64, cfg TrainConfig, rng *rand.Rand) (*Trainer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	rows := len(x) / net.Arch.In
	if len(x) != rows*net.Arch.In {
		panic("mlp: NewTrainer input is not a whole number of rows")
	}
	slot := make([]int32, rows)
	for i := range slot {
		slot[i] = -1
	}
	p := len(net.Theta)
	return &Trainer{
		Net: net, Config: cfg, x: x, rows: rows,
		theta0: append([]float64(nil), net.Theta...),
		slot:   slot, rng: rng,
		m: make([]float64, p), v: make([]float64, p), grad: make([]float64, p),
		batch: NewBatch(net.Arch, 16),
		zero:  net.zeroAtInit,
	}, nil
}

// SetInputs replaces the trainer's input rows with x: the rows that recorded
// pairs and targets use must stay where they are, unchanged (as committed
// contexts do in the fresh-context reading); other rows may change, be added
// or be dropped.
func (tr *Trainer) SetInputs(x []float64) {
	in := tr.Net.Arch.In
	rows := len(x) / in
	if len(x) != rows*in {
		panic("mlp: SetInputs input is not a whole number of rows")
	}
	for _, r := range tr.uniq {
		if r >= rows {
			panic("mlp: SetInputs drops a row that recorded data use")
		}
	}
	tr.x = x
	if rows < tr.rows {
		tr.slot = tr.slot[:rows]
	}
	for range rows - tr.rows {
		tr.slot = append(tr.slot, -1)
	}
	tr.rows = rows
}

// Add records that pool row win beat pool row lose.
func (tr *Trainer) Add(win, lose int) {
	if win < 0 || win >= tr.rows || lose < 0 || lose >= tr.rows {
		panic("mlp: Trainer.Add row out of range")
	}
	tr.pairs = append(tr.pairs, Pair{win, lose})
	for _, r := range [2]int{win, lose} {
		tr.use(r)
	}
}

// AddTarget records a squared-error observation y at pool row r. Targets and
// pairs may be mixed; the loss sums both terms (package documentation).
func (tr *Trainer) AddTarget(r int, y float64) {
	if r < 0 || r >= tr.rows {
		panic("mlp: Trainer.AddTarget row out of range")
	}
	if math.IsNaN(y) || math.IsInf(y, 0) {
		panic("mlp: Trainer.AddTarget target is not finite")
	}
	tr.targs = append(tr.targs, Target{r, y})
	tr.use(r)
}

// use lists pool row r among the rows forwarded at each full-batch step.
func (tr *Trainer) use(r int) {
	if tr.slot[r] < 0 {
		tr.slot[r] = int32(len(tr.uniq))
		tr.uniq = append(tr.uniq, r)
	}
}

// Targets returns the number of recorded regression targets.
func (tr *Trainer) Targets() int { return len(tr.targs) }

// MeanSquaredError returns the mean of (h(x_r) − y)² over the recorded
// targets at the current θ, without the regulariser; NaN if there are none.
func (tr *Trainer) MeanSquaredError() float64 {
	if len(tr.targs) == 0 {
		return math.NaN()
	}
	b := tr.forwardAll()
	se := 0.0
	for _, o := range tr.targs {
		d := b.Out[tr.slot[o.Row]] - o.Y
		se += d * d
	}
	return se / float64(len(tr.targs))
}

// Len returns the number of recorded pairs.
func (tr *Trainer) Len() int { return len(tr.pairs) }

// Train runs Config.Steps optimisation steps on the recorded pairs and returns
// the loss at the parameters it ends with (full data set).
func (tr *Trainer) Train() float64 {
	tr.Fit()
	return tr.Loss()
}

// Fit is Train without the loss at the end (one forward pass over the data
// fewer): the same steps, the same parameters.
func (tr *Trainer) Fit() {
	cfg := tr.Config
	if cfg.Reset {
		copy(tr.Net.Theta, tr.theta0)
		tr.Net.zeroAtInit = tr.zero
	}
	if !cfg.KeepMoments || cfg.Reset {
		clear(tr.m)
		clear(tr.v)
		tr.t = 0
	}
	if len(tr.pairs)+len(tr.targs) == 0 {
		return
	}
	// Between two steps of this loop nothing else changes θ, so a step may
	// leave the next one's penalty gradient (2λ)·θ in tr.grad (regReady).
	ready := false
	for i := range cfg.Steps {
		tr.regReady = ready
		if cfg.BatchSize > 0 && cfg.BatchSize < len(tr.pairs)+len(tr.targs) {
			tr.miniBatchGrad()
		} else {
			tr.lossGradScaled(tr.pairs, tr.targs, tr.uniq, tr.slot, false, true, 1)
		}
		ready = tr.step(i < cfg.Steps-1)
	}
	tr.regReady = false
}

// Loss returns the training loss on all recorded pairs at the current θ.
func (tr *Trainer) Loss() float64 {
	return tr.lossGradScaled(tr.pairs, tr.targs, tr.uniq, tr.slot, true, false, 1)
}

// MeanNLL returns the mean negative log-likelihood per recorded pair at the
// current θ, without the regulariser: log 2 ≈ 0.693 for a constant model.
func (tr *Trainer) MeanNLL() float64 {
	if len(tr.pairs) == 0 {
		return math.Log(2)
	}
	b := tr.forwardAll()
	nll := 0.0
	for _, p := range tr.pairs {
		nll += logistic.Softplus(b.Out[tr.slot[p.Lose]] - b.Out[tr.slot[p.Win]])
	}
	return nll / float64(len(tr.pairs))
}

// forward evaluates the network on the listed pool rows.
func (tr *Trainer) forward(uniq []int) *Batch {
	a := tr.Net.Arch
	b := tr.batch
	b.Resize(a, len(uniq))
	for k, r := range uniq {
		copy(b.Input(a, k), tr.x[r*a.In:(r+1)*a.In])
	}
	tr.gathered = 0
	tr.Net.Forward(b)
	return b
}

// forwardAll evaluates the network on every row of uniq; only the inputs of
// the rows added since the last such call are copied into the batch.
func (tr *Trainer) forwardAll() *Batch {
	a := tr.Net.Arch
	b := tr.batch
	b.Resize(a, len(tr.uniq))
	for k := tr.gathered; k < len(tr.uniq); k++ {
		r := tr.uniq[k]
		copy(b.Input(a, k), tr.x[r*a.In:(r+1)*a.In])
	}
	tr.gathered = len(tr.uniq)
	tr.Net.Forward(b)
	return b
}

// miniBatchGrad samples BatchSize observations with replacement from the
// pairs followed by the targets (with pairs only, exactly as many draws as
// pairs-only training always made).
func (tr *Trainer) miniBatchGrad() {
	n := tr.Config.BatchSize
	total := len(tr.pairs) + len(tr.targs)
	sel := make([]Pair, 0, n)
	var selT []Target
	var uniq []int
	slot := map[int]int32{}
	use := func(r int) {
		if _, ok := slot[r]; !ok {
			slot[r] = int32(len(uniq))
			uniq = append(uniq, r)
		}
	}
	for range n {
		k := tr.rng.IntN(total)
		if k >= len(tr.pairs) {
			o := tr.targs[k-len(tr.pairs)]
			selT = append(selT, o)
			use(o.Row)
			continue
		}
		p := tr.pairs[k]
		sel = append(sel, p)
		for _, r := range [2]int{p.Win, p.Lose} {
			use(r)
		}
	}
	s := make([]int32, tr.rows)
	for r, k := range slot {
		s[r] = k
	}
	// The loss of a mini-batch is scaled to estimate the full-data sum.
	tr.lossGradScaled(sel, selT, uniq, s, false, true, float64(total)/float64(n))
}

// lossGradScaled evaluates the loss if wantLoss (0 otherwise) and, if
// wantGrad, its gradient into tr.grad, over pairs and targets whose rows are
// listed once in uniq (tr.uniq or a mini-batch's); slot maps a pool row to
// its position in uniq. weight multiplies the data terms. The gradient does
// not depend on whether the loss is evaluated.
func (tr *Trainer) lossGradScaled(pairs []Pair, targs []Target, uniq []int, slot []int32, wantLoss, wantGrad bool, weight float64) float64 {
	net := tr.Net
	a := net.Arch
	var b *Batch
	if len(uniq) == len(tr.uniq) && (len(uniq) == 0 || &uniq[0] == &tr.uniq[0]) {
		b = tr.forwardAll()
	} else {
		b = tr.forward(uniq)
	}
	s := weight
	switch tr.Config.LossScale {
	case ScaleMean:
		s /= float64(len(tr.pairs) + len(tr.targs))
	case ScaleWidth:
		s /= float64(a.Width)
	}
	if cap(tr.c) < len(uniq) {
		tr.c = make([]float64, len(uniq), 2*len(uniq))
	}
	c := tr.c[:len(uniq)]
	clear(c)
	nll := 0.0
	// μ(−diff) of every pair at once (gemm.SigmoidTo: logistic.Sigmoid's
	// bits, 8 at a time), then the sums in the pairs' order.
	if cap(tr.sig) < 2*len(pairs) {
		tr.sig = make([]float64, 2*len(pairs))
	}
	nd, mu := tr.sig[:len(pairs)], tr.sig[len(pairs):2*len(pairs)]
	for k, p := range pairs {
		nd[k] = -(b.Out[slot[p.Win]] - b.Out[slot[p.Lose]])
	}
	gemm.SigmoidTo(mu, nd)
	for k, p := range pairs {
		iw, il := slot[p.Win], slot[p.Lose]
		if wantLoss {
			nll += logistic.Softplus(nd[k])
		}
		g := s * mu[k] // −∂/∂diff of −log μ(diff)
		c[iw] -= g
		c[il] += g
	}
	for _, o := range targs {
		i := slot[o.Row]
		d := b.Out[i] - o.Y
		nll += d * d
		c[i] += 2 * s * d
	}
	loss := s * nll
	lam := tr.Config.Lambda
	theta := net.Theta
	switch {
	case !wantLoss:
		loss = 0
	case tr.Config.Regularizer == RegTheta:
		loss += lam * dot(theta, theta)
	case tr.Config.Regularizer == RegTheta0:
		r := 0.0
		for i, t := range theta {
			d := t - tr.theta0[i]
			r += d * d
		}
		loss += lam / 2 * r
	}
	if !wantGrad {
		return loss
	}
	g := tr.grad
	switch tr.Config.Regularizer {
	case RegTheta:
		// g_i = (2λ)·θ_i, one rounded product each (vectorised), unless
		// the Adam step that made θ left them in g (Fit).
		if !tr.regReady {
			gemm.ScaleTo(g, theta, 2*lam)
		}
	case RegTheta0:
		for i, t := range theta {
			g[i] = lam * (t - tr.theta0[i])
		}
	}
	net.backward(b, c, g, false)
	return loss
}

// step applies one optimiser step to θ with the gradient in tr.grad. Every
// operation is correctly rounded and none is fused, so θ has the same bits on
// every machine: GD is θ ← θ − (lr·g) and Adam is gemm.AdamStep (vectorised).
// With fill, an Adam step with the penalty λ‖θ‖² also leaves (2λ)·θ of the
// new θ in tr.grad (gemm.AdamStepScale, the bits of lossGradScaled's
// gemm.ScaleTo) and reports that it did.
func (tr *Trainer) step(fill bool) bool {
	theta := tr.Net.Theta
	g := tr.grad
	lr := tr.Config.LearningRate
	switch tr.Config.Optimizer {
	case GD:
		for i := range theta {
			theta[i] -= float64(lr * g[i]) // no fused multiply–subtract
		}
	case Adam:
		const b1, b2, eps = 0.9, 0.999, 1e-8
		tr.t++
		// The bias corrections of step t, kept for the first maxCorr steps
		// (every Train restarts t unless it keeps the moments).
		const maxCorr = 1 << 10
		for len(tr.corr) < min(tr.t, maxCorr) {
			t := float64(len(tr.corr) + 1)
			tr.corr = append(tr.corr, [2]float64{1 - xmath.Pow(b1, t), 1 - xmath.Pow(b2, t)})
		}
		var corr [2]float64
		if tr.t <= maxCorr {
			corr = tr.corr[tr.t-1]
		} else {
			corr = [2]float64{1 - xmath.Pow(b1, float64(tr.t)), 1 - xmath.Pow(b2, float64(tr.t))}
		}
		p := gemm.Adam{
			B1: b1, OneMinusB1: 1 - b1, B2: b2, OneMinusB2: 1 - b2,
			Correction1: corr[0], Correction2: corr[1],
			LearningRate: lr, Eps: eps,
		}
		if fill && tr.Config.Regularizer == RegTheta {
			gemm.AdamStepScale(theta, tr.m, tr.v, g, p, 2*tr.Config.Lambda)
			tr.Net.zeroAtInit = false
			return true
		}
		gemm.AdamStep(theta, tr.m, tr.v, g, p)
	}
	tr.Net.zeroAtInit = false
	return false
}

// LossGrad returns the full-data loss and writes its gradient into dst; it is
// exported for checks against finite differences.
func (tr *Trainer) LossGrad(dst []float64) float64 {
	l := tr.lossGradScaled(tr.pairs, tr.targs, tr.uniq, tr.slot, true, true, 1)
	copy(dst, tr.grad)
	return l
}
