package experiments

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/neural-adb/nadb/algorithms"
)

// The fresh-context reading of the paper's experiments ("for all t ≥ 1,
// x_{t,a} is sampled uniformly at random from (−1,1)^d"): every round the
// problem draws Candidates new contexts of K arms from the same distribution
// and offers only them; the learner picks one (context, arm, arm), and after
// the answer the queried context is committed to its pool while the other
// candidates are dropped (algorithms.Pool.SetFresh, Commit). The metrics of
// the policy are computed on a fixed evaluation pool of Contexts contexts,
// drawn once, never offered and never shown to the learner: the learner's
// model scores it (algorithms.Scorer), and a context's gap is averaged over
// the arms its scores tie at (uniform tie-breaking). queried_gap, avg_regret
// and the context counts are over the committed (queried) contexts.

// Rounds is implemented by problems whose offer changes every round.
type Rounds interface {
	// Begin prepares round t (t ≥ 1) and returns its offer; it may change
	// the pool's fresh contexts.
	Begin(t int) (algorithms.Offer, error)
	// End is called with round t's answered query before the learner
	// observes it, and returns the query as the learner must see it (its
	// context renumbered once committed).
	End(q algorithms.Query) (algorithms.Query, error)
}

// ModelEvaluator is implemented by evaluators that measure the learner's
// model on contexts the learner never sees (an evaluation or held-out pool)
// instead of its policy on the pool: worst_gap and mean_gap are then over
// those contexts.
type ModelEvaluator interface {
	ModelGaps(dst []float64, l algorithms.Learner) ([]float64, error)
}

// freshRounds draws the candidates of every round and keeps the latent
// rewards of the learner's pool rows (committed, then fresh) in step.
type freshRounds struct {
	syn   Synthetic
	theta []float64
	rng   *rand.Rand
	pool  *algorithms.Pool
	lat   *Latent // rows of pool: committed, then this round's fresh ones
	next  int     // the round whose candidates the pool holds (0: none)
	x     []float64
}

func (s Synthetic) fresh(seed uint64, evalX, theta, evalF []float64) (*Problem, error) {
	fr := &freshRounds{syn: s, theta: theta, rng: rand.New(rand.NewPCG(seed, StreamCandidates)), lat: &Latent{Arms: s.Arms}}
	x := fr.drawCandidates()
	pool := &algorithms.Pool{Arms: s.Arms, Dim: s.Dim}
	if err := pool.SetFresh(x); err != nil {
		return nil, err
	}
	fr.pool, fr.next = pool, 1
	fr.lat.F = s.rewards(nil, x, theta)
	ev := &freshEvaluator{Latent: fr.lat, evalX: evalX, eval: &Latent{Arms: s.Arms, F: evalF}, dim: s.Dim}
	return &Problem{
		Name:      string(s.Function),
		Pool:      pool,
		Oracle:    &BradleyTerry{Latent: fr.lat, Rng: rand.New(rand.NewPCG(seed, StreamFeedback))},
		Evaluator: ev,
		Rounds:    fr,
	}, nil
}

// drawCandidates draws Candidates contexts of K arms, x ~ U(−1,1)^d.
func (fr *freshRounds) drawCandidates() []float64 {
	s := fr.syn
	fr.x = fr.x[:0]
	for range s.Candidates * s.Arms * s.Dim {
		fr.x = append(fr.x, 2*fr.rng.Float64()-1)
	}
	return fr.x
}

// Begin implements Rounds.
func (fr *freshRounds) Begin(t int) (algorithms.Offer, error) {
	if t != fr.next {
		x := fr.drawCandidates()
		if err := fr.pool.SetFresh(x); err != nil {
			return algorithms.Offer{}, err
		}
		fr.lat.F = fr.syn.rewards(fr.lat.F[:fr.pool.Committed()*fr.syn.Arms], x, fr.theta)
		fr.next = t
	}
	first := fr.pool.Committed()
	ctxs := make([]int, fr.pool.Fresh())
	for i := range ctxs {
		ctxs[i] = first + i
	}
	return algorithms.Offer{Contexts: ctxs}, nil
}

// End implements Rounds: the queried context is committed, with its latent
// rewards.
func (fr *freshRounds) End(q algorithms.Query) (algorithms.Query, error) {
	K := fr.syn.Arms
	first := fr.pool.Committed()
	c, err := fr.pool.Commit(q.Context)
	if err != nil {
		return q, err
	}
	copy(fr.lat.F[first*K:(first+1)*K], fr.lat.F[q.Context*K:(q.Context+1)*K])
	fr.lat.F = fr.lat.F[:(first+1)*K]
	fr.next = 0
	q.Context = c
	return q, nil
}

// freshEvaluator measures the learner's model on the evaluation pool
// (ModelGaps) and its policy and queries on the committed contexts (Latent).
type freshEvaluator struct {
	*Latent
	evalX []float64
	eval  *Latent
	dim   int
	buf   []float64
}

// ModelGaps implements ModelEvaluator.
func (e *freshEvaluator) ModelGaps(dst []float64, l algorithms.Learner) ([]float64, error) {
	var ok bool
	if e.buf, ok = Scores(e.buf, l, e.evalX); !ok {
		return dst, fmt.Errorf("experiments: the fresh-context reading scores the evaluation pool with the learner's model, and this learner has none (algorithms.Scorer)")
	}
	return TiedGaps(dst, e.buf, e.eval.F, e.eval.Arms), nil
}

// TiedGaps writes, for every context, the expected gap max_a f(c,a) − f(c,â)
// of the arm â = argmax_a h(c,a) chosen uniformly among exact ties in h (a
// NaN in h counts as the context's worst arm), and returns dst.
func TiedGaps(dst, h, f []float64, K int) []float64 {
	contexts := len(h) / K
	if cap(dst) < contexts {
		dst = make([]float64, contexts)
	}
	dst = dst[:contexts]
	for c := range contexts {
		hc, fc := h[c*K:(c+1)*K], f[c*K:(c+1)*K]
		best, top := math.Inf(-1), slices.Max(fc)
		for _, v := range hc {
			best = max(best, v)
		}
		sum, n := 0.0, 0
		for a, v := range hc {
			if v == best {
				sum += top - fc[a]
				n++
			}
		}
		if n == 0 {
			sum, n = top-slices.Min(fc), 1
		}
		dst[c] = sum / float64(n)
	}
	return dst
}
