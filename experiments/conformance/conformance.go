// Package conformance is the test suite every learner passes, in the manner
// of gonum's testlapack. It takes an algorithms.Factory, so a learner can be
// tested before (or without) registering a name:
//
//	func TestMine(t *testing.T) { conformance.Test(t, newMine, nil) }
//
// and a registered one by its name: conformance.Run(t, "mine", nil). Either
// way the learner gets the checks this suite runs on the paper's algorithms;
// the tests of package experiments check more of every name registered in
// package algorithms (golden runs, processor independence, replay, model
// round trips).
//
// The checks: every query is valid (context in the pool, arms in range and
// distinct) and allowed by the round's offer, under restricted offers too
// (some contexts, some pairs); the learner depends only on the features, its
// seed and the answers, never on latent rewards; the same seed gives the same
// queries and policy; answers to queries the learner did not choose are
// accepted; the passive twin and the random-context rule (algorithms.Collect)
// run in every reading, and what they draw does not depend on the answers;
// a batch of k queries is k distinct queries; the policy covers every
// context; the run does not depend on how often it is checked (Policy and
// Score change nothing the learner does later, so that the run checked
// every round holds the run checked every 30: experiments.Thin); K = 2 and
// d = 1 work; and on an easy problem (linear rewards) the learned policy
// beats the uniformly random policy's mean gap.
package conformance

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
)

// Options adjusts the suite; nil means the defaults.
type Options struct {
	// Config is the learner configuration; the zero value means a small
	// network (width 16) with every other field at its default.
	Config *algorithms.Config
	// T is the number of rounds of the learning check (default 400).
	T int
}

func (o *Options) config() algorithms.Config {
	if o != nil && o.Config != nil {
		return *o.Config
	}
	c := algorithms.Default()
	c.Width = 16
	return c
}

func (o *Options) rounds() int {
	if o != nil && o.T > 0 {
		return o.T
	}
	return 400
}

// trace is what a learner did in one run.
type trace struct {
	queries []algorithms.Query
	answers []algorithms.Feedback
	policy  []int
}

// flipped answers every query with the opposite of o's answer.
type flipped struct{ o experiments.Oracle }

func (f flipped) Answer(q algorithms.Query) algorithms.Feedback {
	return algorithms.Arm1Won + algorithms.Arm2Won - f.o.Answer(q)
}

// replay answers from a fixed list, then panics if asked for more.
type replay struct {
	answers []algorithms.Feedback
	next    int
}

func (r *replay) Answer(algorithms.Query) algorithms.Feedback {
	y := r.answers[r.next]
	r.next++
	return y
}

// build makes a learner with f, checking the configuration first as
// algorithms.New does.
func build(t *testing.T, f algorithms.Factory, env algorithms.Env) algorithms.Learner {
	t.Helper()
	if err := env.Config.Validate(); err != nil {
		t.Fatal(err)
	}
	l, err := f(env)
	if err != nil {
		t.Fatalf("factory: %v", err)
	}
	return l
}

// drive runs the learner made by f on prob for T rounds (experiments.Loop
// checks every query) and records what it did.
func drive(t *testing.T, f algorithms.Factory, cfg algorithms.Config, prob *experiments.Problem, seed uint64, T int) trace {
	t.Helper()
	l := build(t, f, algorithms.Env{Pool: prob.Pool, Config: cfg, Seed: seed})
	var tr trace
	err := experiments.Loop(context.Background(), l, prob, 0, T, experiments.Hooks{Observed: func(_ int, q algorithms.Query, y algorithms.Feedback) error {
		tr.queries = append(tr.queries, q)
		tr.answers = append(tr.answers, y)
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	tr.policy = l.Policy(nil)
	if len(tr.policy) != prob.Pool.Contexts {
		t.Fatalf("Policy returned %d entries for %d contexts", len(tr.policy), prob.Pool.Contexts)
	}
	for c, a := range tr.policy {
		if a < 0 || a >= prob.Pool.Arms {
			t.Fatalf("Policy(%d) = %d, outside [0, %d)", c, a, prob.Pool.Arms)
		}
	}
	return tr
}

func problem(t *testing.T, s experiments.Synthetic, seed uint64) *experiments.Problem {
	t.Helper()
	if s.Theta == "" {
		s.Theta = experiments.ThetaSphere
	}
	p, err := s.New(seed)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// sameFloat reports whether x and y hold the same bits.
func sameFloat(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }

// sameCheckpoint reports whether a and b hold the same values, bit for
// bit, apart from the elapsed time.
func sameCheckpoint(a, b experiments.Checkpoint) bool {
	return a.T == b.T && a.Distinct == b.Distinct && sameFloat(a.WorstGap, b.WorstGap) && sameFloat(a.MeanGap, b.MeanGap) &&
		sameFloat(a.QueriedGap, b.QueriedGap) && sameFloat(a.AvgRegret, b.AvgRegret) && sameFloat(a.TopShare, b.TopShare) &&
		slices.EqualFunc(a.Extra, b.Extra, sameFloat)
}

func equalTraces(a, b trace) bool {
	if len(a.queries) != len(b.queries) || len(a.policy) != len(b.policy) {
		return false
	}
	for i := range a.queries {
		if a.queries[i] != b.queries[i] {
			return false
		}
	}
	for i := range a.policy {
		if a.policy[i] != b.policy[i] {
			return false
		}
	}
	return true
}

// Run runs the suite on the registered learner name.
func Run(t *testing.T, name string, opts *Options) {
	t.Helper()
	a, err := algorithms.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	Test(t, a.New, opts)
}

// Test runs the suite on the learners made by f.
func Test(t *testing.T, f algorithms.Factory, opts *Options) {
	t.Helper()
	cfg := opts.config()
	small := experiments.Synthetic{Function: experiments.Square, Dim: 4, Arms: 5, Contexts: 30}

	t.Run("valid-queries-and-policy", func(t *testing.T) {
		drive(t, f, cfg, problem(t, small, 1), 1, 120)
	})

	t.Run("same-seed-same-queries", func(t *testing.T) {
		a := drive(t, f, cfg, problem(t, small, 2), 7, 100)
		b := drive(t, f, cfg, problem(t, small, 2), 7, 100)
		if !equalTraces(a, b) {
			t.Fatal("two runs with the same seed made different queries or policies")
		}
	})

	t.Run("never-sees-latent-rewards", func(t *testing.T) {
		// Run once against the Bradley–Terry oracle, then again on the same
		// features with other latent rewards but the same answers replayed:
		// a learner that sees only features and answers cannot tell.
		p1 := problem(t, small, 3)
		a := drive(t, f, cfg, p1, 5, 100)
		other := problem(t, experiments.Synthetic{Function: experiments.Sine, Dim: 4, Arms: 5, Contexts: 30}, 3)
		other.Oracle = &replay{answers: a.answers}
		if &other.Pool.RowTo(nil, 0)[0] == &p1.Pool.RowTo(nil, 0)[0] {
			t.Fatal("test setup: pools alias")
		}
		b := drive(t, f, cfg, other, 5, 100)
		if !equalTraces(a, b) {
			t.Fatal("with the same features and answers but other latent rewards the learner behaved differently")
		}
	})

	t.Run("honours-restricted-offers", func(t *testing.T) {
		// Offers that change every round: a random subset of contexts and a
		// random symmetric pair mask (each offered context keeps a pair).
		p := problem(t, small, 6)
		l := build(t, f, algorithms.Env{Pool: p.Pool, Config: cfg, Seed: 3})
		rng := rand.New(rand.NewPCG(6, 1))
		for round := 1; round <= 80; round++ {
			o := randomOffer(p.Pool, rng)
			q := l.Select(o)
			if err := o.Check(p.Pool, q); err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			l.Observe(q, p.Oracle.Answer(q))
		}
	})

	t.Run("answers-to-foreign-queries", func(t *testing.T) {
		// Answers collected elsewhere (queries the learner did not choose)
		// are fed through Observe, before and between its own queries; the
		// result is still deterministic and valid.
		run := func() trace {
			p := problem(t, small, 7)
			l := build(t, f, algorithms.Env{Pool: p.Pool, Config: cfg, Seed: 4})
			rng := rand.New(rand.NewPCG(7, 1))
			var tr trace
			for round := 1; round <= 90; round++ {
				q := algorithms.Offer{}.RandomQuery(p.Pool, rng)
				if round%3 == 0 {
					q = l.Select(algorithms.Offer{})
					if err := q.Validate(p.Pool); err != nil {
						t.Fatalf("round %d: %v", round, err)
					}
				}
				y := p.Oracle.Answer(q)
				l.Observe(q, y)
				tr.queries, tr.answers = append(tr.queries, q), append(tr.answers, y)
			}
			tr.policy = l.Policy(nil)
			return tr
		}
		if a, b := run(), run(); !equalTraces(a, b) {
			t.Fatal("two runs with foreign answers and the same seed differ")
		}
	})

	t.Run("batch-of-distinct-queries", func(t *testing.T) {
		p := problem(t, small, 8)
		l := build(t, f, algorithms.Env{Pool: p.Pool, Config: cfg, Seed: 5})
		for range 3 {
			qs := algorithms.SelectBatch(l, p.Pool, algorithms.Offer{}, 6)
			if len(qs) != 6 {
				t.Fatalf("batch of %d queries, want 6", len(qs))
			}
			seen := map[[3]int]bool{}
			for _, q := range qs {
				if err := q.Validate(p.Pool); err != nil {
					t.Fatal(err)
				}
				k := [3]int{q.Context, min(q.Arm1, q.Arm2), max(q.Arm1, q.Arm2)}
				if seen[k] {
					t.Fatalf("batch %v repeats %v", qs, q)
				}
				seen[k] = true
			}
			for _, q := range qs {
				l.Observe(q, p.Oracle.Answer(q))
			}
		}
	})

	t.Run("fresh-contexts", func(t *testing.T) {
		// The fresh-context reading: every round new candidate contexts,
		// the queried one committed. Queries are checked against each
		// round's offer by experiments.Loop; the run is deterministic and
		// the learner scores the evaluation pool with its model.
		run := func() (trace, []float64) {
			s := small
			s.Candidates = 6
			p := problem(t, s, 9)
			l := build(t, f, algorithms.Env{Pool: p.Pool, Config: cfg, Seed: 6})
			var tr trace
			err := experiments.Loop(context.Background(), l, p, 0, 80, experiments.Hooks{Observed: func(_ int, q algorithms.Query, y algorithms.Feedback) error {
				tr.queries, tr.answers = append(tr.queries, q), append(tr.answers, y)
				return nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			tr.policy = l.Policy(nil)
			if len(tr.policy) != p.Pool.Committed() || p.Pool.Committed() != 80 {
				t.Fatalf("policy over %d contexts, %d committed after 80 rounds", len(tr.policy), p.Pool.Committed())
			}
			gaps, err := p.Evaluator.(experiments.ModelEvaluator).ModelGaps(nil, l)
			if err != nil {
				t.Fatal(err)
			}
			return tr, gaps
		}
		a, ga := run()
		b, gb := run()
		if !equalTraces(a, b) || !slices.Equal(ga, gb) {
			t.Fatal("two fresh-context runs with the same seed differ")
		}
	})

	t.Run("collect-rules", func(t *testing.T) {
		// The passive twin (and the random-context rule) in the fixed-pool
		// reading, under a restricted offer and in the fresh-context reading:
		// every query is valid for its round's offer (experiments.Loop checks),
		// the learner accepts the duels it did not choose, and what the rule
		// draws does not depend on the answers: the passive twin's queries
		// and the random-context rule's contexts are the same whether the
		// answers are the oracle's or their opposites.
		type variant struct {
			name   string
			prob   func() *experiments.Problem
			rounds int
		}
		restricted := func() *experiments.Problem {
			p := problem(t, small, 12)
			o := randomOffer(p.Pool, rand.New(rand.NewPCG(12, 1)))
			p.Offer = o
			return p
		}
		fresh := func() *experiments.Problem {
			s := small
			s.Candidates = 6
			return problem(t, s, 13)
		}
		variants := []variant{
			{"fixed", func() *experiments.Problem { return problem(t, small, 11) }, 90},
			{"restricted-offer", restricted, 90},
			{"fresh", fresh, 60},
		}
		for _, v := range variants {
			for _, rule := range []algorithms.Collect{algorithms.CollectPassive, algorithms.CollectRandomContext} {
				t.Run(v.name+"/"+string(rule), func(t *testing.T) {
					run := func(flip bool) trace {
						p := v.prob()
						if flip {
							p.Oracle = flipped{p.Oracle}
						}
						l := build(t, f, algorithms.Env{Pool: p.Pool, Config: cfg, Seed: 8})
						var tr trace
						h := experiments.Hooks{Collect: algorithms.NewCollector(rule, 8), Observed: func(_ int, q algorithms.Query, y algorithms.Feedback) error {
							tr.queries, tr.answers = append(tr.queries, q), append(tr.answers, y)
							return nil
						}}
						if err := experiments.Loop(context.Background(), l, p, 0, v.rounds, h); err != nil {
							t.Fatal(err)
						}
						tr.policy = l.Policy(nil)
						if len(tr.policy) != p.Pool.Committed() {
							t.Fatalf("policy over %d contexts, %d committed", len(tr.policy), p.Pool.Committed())
						}
						return tr
					}
					a, b := run(false), run(true)
					for i := range a.queries {
						qa, qb := a.queries[i], b.queries[i]
						if rule == algorithms.CollectRandomContext {
							qa.Arm1, qa.Arm2, qb.Arm1, qb.Arm2 = 0, 0, 0, 0
						}
						if qa != qb {
							t.Fatalf("round %d: %v with the oracle's answers, %v with the opposite answers: the rule's draws depend on the answers", i+1, a.queries[i], b.queries[i])
						}
					}
					if again := run(false); !equalTraces(a, again) {
						t.Fatal("two runs with the same seed differ")
					}
				})
			}
		}
	})

	t.Run("checkpoint-period", func(t *testing.T) {
		// Policy and Score change nothing the learner does later (the
		// Learner contract): the same run checked every round and every 30
		// rounds makes the same queries and gets the same answers, so the
		// coarse run's checkpoints can be read off the fine one
		// (experiments.Thin, as the sweep does), and the models score the
		// pool alike. In both readings: the fresh one scores its
		// evaluation pool at every checkpoint.
		for _, v := range []struct {
			name string
			prob experiments.Synthetic
		}{
			{"fixed", small},
			{"fresh", experiments.Synthetic{Function: small.Function, Dim: small.Dim, Arms: small.Arms, Contexts: small.Contexts, Candidates: 6}},
		} {
			t.Run(v.name, func(t *testing.T) {
				run := func(every int) (*experiments.Result, []float64) {
					p := problem(t, v.prob, 14)
					l := build(t, f, algorithms.Env{Pool: p.Pool, Config: cfg, Seed: 9})
					spec := experiments.Spec{Config: cfg, T: 60, Every: every, Seed: 9}
					res, err := experiments.RunLearner(context.Background(), spec, p, l, nil)
					if err != nil {
						t.Fatal(err)
					}
					scores, _ := experiments.PoolScores(nil, l, p.Pool)
					return res, scores
				}
				fine, fineScores := run(1)
				coarse, coarseScores := run(30)
				thinned, err := experiments.Thin(fine, coarse.Spec)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(thinned.Counts, coarse.Counts) {
					t.Fatalf("checked every round, the learner queried the contexts %v times; every 30 rounds, %v times: Policy or Score changes what it does later (a random stream drawn from, or state that Select reads)", thinned.Counts, coarse.Counts)
				}
				for i, cp := range coarse.Checkpoints {
					if !sameCheckpoint(thinned.Checkpoints[i], cp) {
						t.Fatalf("at t = %d, checked every round: %+v; every 30 rounds: %+v: Policy or Score changes what the learner does later", cp.T, thinned.Checkpoints[i], cp)
					}
				}
				if !slices.EqualFunc(fineScores, coarseScores, sameFloat) {
					t.Fatal("after the run checked every round and the run checked every 30 rounds the models score the pool differently")
				}
			})
		}
	})

	t.Run("two-arms", func(t *testing.T) {
		drive(t, f, cfg, problem(t, experiments.Synthetic{Function: experiments.Square, Dim: 3, Arms: 2, Contexts: 10}, 4), 1, 60)
	})

	t.Run("one-dimension", func(t *testing.T) {
		drive(t, f, cfg, problem(t, experiments.Synthetic{Function: experiments.Square, Dim: 1, Arms: 4, Contexts: 10}, 5), 1, 60)
	})

	t.Run("beats-random-policy", func(t *testing.T) {
		// Linear rewards on a small pool: every learner's model class contains
		// them. Averaged over three seeds, the final mean gap must be below
		// 80% of the uniformly random policy's expected mean gap.
		easy := experiments.Synthetic{Function: experiments.Linear, Dim: 3, Arms: 4, Contexts: 20, Theta: experiments.ThetaSphere}
		var got, random float64
		for seed := uint64(1); seed <= 3; seed++ {
			p := problem(t, easy, 10+seed)
			spec := experiments.Spec{Config: cfg, T: opts.rounds(), Every: opts.rounds(), Seed: seed}
			l := build(t, f, algorithms.Env{Pool: p.Pool, Config: cfg, Seed: seed})
			res, err := experiments.RunLearner(context.Background(), spec, p, l, nil)
			if err != nil {
				t.Fatal(err)
			}
			got += res.Checkpoints[len(res.Checkpoints)-1].MeanGap / 3
			random += p.Evaluator.(*experiments.Latent).RandomPolicyGap() / 3
		}
		t.Logf("mean gap %.4f, uniformly random policy %.4f", got, random)
		if got >= 0.8*random {
			t.Errorf("mean gap %.4f is not below 80%% of the random policy's %.4f", got, random)
		}
	})
}

// randomOffer draws a random restricted offer for pool p: about half the
// contexts and a symmetric mask keeping about half the pairs, with at least
// one pair in every offered context.
func randomOffer(p *algorithms.Pool, rng *rand.Rand) algorithms.Offer {
	type key struct{ c, a, b int }
	allowed := map[key]bool{}
	var ctxs []int
	for c := range p.Contexts {
		if rng.IntN(2) == 0 && !(c == p.Contexts-1 && len(ctxs) == 0) {
			continue
		}
		ctxs = append(ctxs, c)
		any := false
		for a := range p.Arms {
			for b := a + 1; b < p.Arms; b++ {
				if rng.IntN(2) == 0 {
					allowed[key{c, a, b}] = true
					any = true
				}
			}
		}
		if !any {
			a := rng.IntN(p.Arms)
			b := (a + 1 + rng.IntN(p.Arms-1)) % p.Arms
			allowed[key{c, min(a, b), max(a, b)}] = true
		}
	}
	return algorithms.Offer{Contexts: ctxs, Allowed: func(c, a, b int) bool { return allowed[key{c, min(a, b), max(a, b)}] }}
}
