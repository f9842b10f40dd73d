package pool

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/poolfile"
)

// Part is one side of a problem built from data: contexts with their feature
// rows and what the experimenter knows about them.
type Part struct {
	Pool     *algorithms.Pool  // feature rows c·K + a; the training part's is the learner's pool
	Contexts []string          // context identifiers, for messages; nil: their numbers
	IDs      []string          // arm identifier of every row, for the references; nil: the arm's index
	Utility  []float64         // latent utility f(c,a) of every row; nil: none
	Answers  *poolfile.Answers // recorded answers; nil: none
}

// Setup is a problem built from data: the training contexts the learner
// sees, the contexts held out to score its model, and how duels are
// answered. Every data problem (a pool of one's own, CEMSChoice, Shuttle) is
// built by NewProblem, so they share the replay rules, the held-out columns
// and the references.
type Setup struct {
	Name  string
	Train Part  // needs Answers or Utility (or both: answers replayed, utilities for the gaps)
	Test  *Part // held-out contexts (same arms and features); nil: none
	// Missing is the rule for pairs without a recorded answer ("": mask).
	Missing experiments.MissingRule
	Seed    uint64 // Bradley–Terry draws and coins use the stream (Seed, StreamFeedback)
	// Columns names problem-specific held-out columns; Metrics appends their
	// values for the model whose scores of the held-out rows are h to dst
	// (they are NaN for learners without a Scorer). They follow the held-out
	// answer columns.
	Columns []string
	Metrics func(dst, h []float64) []float64
}

// NewProblem builds the problem of s: the learner's pool is s.Train.Pool;
// recorded answers are replayed (Replay), or, without any, duels are
// Bradley–Terry draws from the utilities. Under the rule "mask" the offer is
// the recorded pairs (Answers.Offer); under "error" every pair of both parts
// must have a record.
func NewProblem(s Setup) (*experiments.Problem, error) {
	tr := s.Train
	if tr.Answers == nil && tr.Utility == nil {
		return nil, errors.New("pool: no utility column and no answers file: nothing can answer the duels (add a utility column or give an answers file)")
	}
	if t := s.Test; t != nil && (t.Pool.Arms != tr.Pool.Arms || t.Pool.Dim != tr.Pool.Dim || t.Pool.Validate() != nil) {
		panic(fmt.Sprintf("pool: held-out part of %d×%d×%d (%v) does not match the training part's %d arms × %d features", t.Pool.Contexts, t.Pool.Arms, t.Pool.Dim, t.Pool.Validate(), tr.Pool.Arms, tr.Pool.Dim))
	}
	rng := rand.New(rand.NewPCG(s.Seed, experiments.StreamFeedback))
	f := tr.Utility
	if f == nil {
		f = tr.Answers.Copeland()
	}
	lat := &experiments.Latent{Arms: tr.Pool.Arms, F: f}
	prob := &experiments.Problem{Name: s.Name, Pool: tr.Pool}
	ev := &evaluator{Latent: lat, setup: s}
	if tr.Answers == nil {
		prob.Oracle = &experiments.BradleyTerry{Latent: lat, Rng: rng}
	} else {
		switch s.Missing.OrDefault() {
		case experiments.MissingError:
			if err := complete(&tr, s.Test); err != nil {
				return nil, fmt.Errorf("pool: %s: %w", s.Name, err)
			}
		case experiments.MissingMask:
			prob.Offer = tr.Answers.Offer()
			if len(prob.Offer.Contexts) == 0 {
				return nil, fmt.Errorf("pool: no training context (of %d) has a recorded answer, so no duel can be asked under the missing-answer rule \"mask\" (record answers for them, or hold out fewer contexts)", tr.Pool.Contexts)
			}
		}
		ev.replay = NewReplay(tr.Answers, rng)
		ev.trainStrict = tr.Answers.Strict()
		prob.Oracle = ev.replay
	}
	ev.columns()
	prob.Evaluator = ev
	return prob, nil
}

// complete reports the first pair of the parts without a record, and how
// many there are (a nil part or one without answers has none).
func complete(parts ...*Part) error {
	total, first := 0, ""
	for _, p := range parts {
		if p == nil || p.Answers == nil {
			continue
		}
		n, a := p.Answers.Missing()
		if n > 0 && total == 0 {
			first = p.describe(a.Context, a.Arm1, a.Arm2)
		}
		total += n
	}
	if total == 0 {
		return nil
	}
	return fmt.Errorf("no recorded answer for %s (and %d other pairs); with the missing-answer rule \"error\" every arm pair of every context needs at least one answer", first, total-1)
}

// describe returns `context "u1", arms "red" and "blue"` for messages.
func (p *Part) describe(c, a, b int) string {
	ctx := strconv.Itoa(c)
	if p.Contexts != nil {
		ctx = p.Contexts[c]
	}
	return fmt.Sprintf("context %q, arms %q and %q", ctx, p.id(c*p.Pool.Arms+a), p.id(c*p.Pool.Arms+b))
}

// id returns the identifier of row n.
func (p *Part) id(n int) string {
	if p.IDs != nil {
		return p.IDs[n]
	}
	return strconv.Itoa(n % p.Pool.Arms)
}

// evaluator scores the policy on the training contexts (Latent: utilities or
// Copeland scores), the model on the training answers (in-sample) and on the
// held-out contexts, and counts the coins of the replay.
type evaluator struct {
	*experiments.Latent
	setup       Setup
	replay      *Replay           // nil: simulated answers
	trainStrict []poolfile.Answer // strict training answers
	testStrict  []poolfile.Answer // strict held-out answers
	testF       []float64
	gapCtx      []int // held-out contexts the gap columns are over (nil: all)
	// choiceAccuracy: the held-out column test_choice_accuracy, the share
	// of held-out contexts whose chosen arm is a best arm (pools with
	// utilities, unless the problem has held-out columns of its own, as
	// Shuttle, whose test_accuracy is that share).
	choiceAccuracy bool

	cols     []string
	heldOutK [2]int // cols[heldOutK[0]:heldOutK[1]] are the held-out columns
	// Scores of the training and the held-out rows (one buffer per input:
	// a Scorer writes len(x)/Dim values into a dst it is given).
	trainBuf, testBuf []float64
}

// columns works out the extra columns and what they need.
func (e *evaluator) columns() {
	s := e.setup
	if s.Train.Answers != nil {
		e.cols = append(e.cols, "answer_accuracy", "answer_logloss")
	}
	e.heldOutK[0] = len(e.cols)
	if t := s.Test; t != nil {
		if t.Answers != nil {
			e.testStrict = t.Answers.Strict()
			e.cols = append(e.cols, "test_accuracy", "test_logloss")
		}
		e.cols = append(e.cols, s.Columns...)
		if t.Utility != nil && len(s.Columns) == 0 {
			e.choiceAccuracy = true
			e.cols = append(e.cols, "test_choice_accuracy")
		}
		switch {
		case t.Utility != nil:
			e.testF = t.Utility
			e.cols = append(e.cols, "test_mean_gap", "test_worst_gap")
		case t.Answers != nil:
			e.testF = t.Answers.Copeland()
			e.gapCtx = slices.Clone(t.Answers.Offer().Contexts)
			e.cols = append(e.cols, "test_copeland_gap")
		}
	}
	e.heldOutK[1] = len(e.cols)
	if e.replay != nil {
		e.cols = append(e.cols, "tie_share", "unrecorded_share")
	}
	seen := map[string]bool{}
	for _, c := range e.cols {
		if seen[c] {
			panic("pool: duplicate column " + c)
		}
		seen[c] = true
	}
}

// ExtraColumns implements experiments.ExtraEvaluator.
func (e *evaluator) ExtraColumns() []string { return e.cols }

// Extra implements experiments.ExtraEvaluator.
func (e *evaluator) Extra(dst []float64, l algorithms.Learner) []float64 {
	dst = dst[:0]
	if e.setup.Train.Answers != nil {
		acc, nll := math.NaN(), math.NaN()
		var ok bool
		if e.trainBuf, ok = experiments.PoolScores(e.trainBuf, l, e.setup.Train.Pool); ok {
			acc, nll = PairMetrics(e.trainBuf, e.Arms, e.trainStrict)
		}
		dst = append(dst, acc, nll)
	}
	if e.setup.Test != nil {
		var h []float64
		var ok bool
		if e.testBuf, ok = experiments.PoolScores(e.testBuf, l, e.setup.Test.Pool); ok {
			h = e.testBuf
		}
		dst = e.heldOut(dst, h)
	}
	if e.replay != nil {
		tie, unrec := e.replay.Shares()
		dst = append(dst, tie, unrec)
	}
	return dst
}

// heldOut appends the held-out columns of the model whose scores of the
// held-out rows are h (nil: NaN, no model) to dst.
func (e *evaluator) heldOut(dst, h []float64) []float64 {
	t := e.setup.Test
	if h == nil {
		for range e.heldOutK[1] - e.heldOutK[0] {
			dst = append(dst, math.NaN())
		}
		return dst
	}
	if t.Answers != nil {
		acc, nll := PairMetrics(h, e.Arms, e.testStrict)
		dst = append(dst, acc, nll)
	}
	if e.setup.Metrics != nil {
		dst = e.setup.Metrics(dst, h)
	}
	if e.choiceAccuracy {
		dst = append(dst, ChoiceAccuracy(h, t.Utility, e.Arms))
	}
	if e.testF != nil {
		gaps := experiments.TiedGaps(nil, h, e.testF, e.Arms)
		if e.gapCtx != nil {
			sel := make([]float64, len(e.gapCtx))
			for i, c := range e.gapCtx {
				sel[i] = gaps[c]
			}
			gaps = sel
		}
		mean, worst := math.NaN(), math.NaN()
		if len(gaps) > 0 {
			mean, worst = 0, slices.Max(gaps)
			for _, g := range gaps {
				mean += g
			}
			mean /= float64(len(gaps))
		}
		dst = append(dst, mean)
		if t.Utility != nil {
			dst = append(dst, worst)
		}
	}
	return dst
}

// SetupOf returns the Setup a problem was built from by NewProblem (for
// tests and tools that inspect a problem's split), and false for other
// problems.
func SetupOf(prob *experiments.Problem) (Setup, bool) {
	if e, ok := prob.Evaluator.(*evaluator); ok {
		return e.setup, true
	}
	return Setup{}, false
}

// ChoiceAccuracy returns the share of contexts whose chosen arm is a best
// arm: the arm argmax_a h(c, a), a uniform choice among exact ties (counted
// as the share of the tied arms that are best), against the arms of highest
// utility f(c, a) (any of them, if several tie). h and f hold K values per
// context; a NaN score counts as not chosen. It is the classification
// accuracy when one arm per context is the right one (Shuttle's
// test_accuracy), and the worst gap's complement on pools where the gap
// saturates: it counts how often the choice is right, not by how much.
func ChoiceAccuracy(h, f []float64, K int) float64 {
	contexts := len(f) / K
	if contexts == 0 {
		return math.NaN()
	}
	hits := 0.0
	for c := range contexts {
		hc, fc := h[c*K:(c+1)*K], f[c*K:(c+1)*K]
		top, best := math.Inf(-1), slices.Max(fc)
		for _, v := range hc {
			if v > top {
				top = v
			}
		}
		chosen, right := 0, 0
		for a, v := range hc {
			if v == top {
				chosen++
				if fc[a] == best {
					right++
				}
			}
		}
		if chosen > 0 {
			hits += float64(right) / float64(chosen)
		}
	}
	return hits / float64(contexts)
}
