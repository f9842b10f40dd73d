package pool

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/logistic"
)

// References: the levels that models which are not active learners reach on
// the held-out columns of a problem built by NewProblem with held-out
// contexts. They are fitted to the training contexts only, and their
// held-out columns are computed exactly as a learner's:
//
//   - a linear Bradley–Terry model on the pool's features fitted passively to
//     every training answer at once (λ = 1): what the linear learners could
//     reach from all the information instead of T chosen duels;
//   - the best single global ranking: one Bradley–Terry utility per arm
//     identifier (the same objective on identifier indicators, λ = 1),
//     fitted to the training answers and applied to the held-out contexts by
//     their arms' identifiers (an identifier never seen scores 0);
//   - the majority arm: the identifier that is best (highest utility, or
//     Copeland score without utilities) in the most training contexts, a
//     context's tied best arms sharing its count, always chosen (scored 1,
//     every other arm 0);
//   - a constant model: every arm scored alike, so every pair is 50/50
//     (log-loss ln 2) and the chosen arm is uniform.
//
// The training answers are the recorded strict answers; without recorded
// answers (a simulated pool, Shuttle) they are the noise-free answers the
// utilities imply: in every training context, each arm beats every arm of
// lower utility.

// ReferenceNote says what the references are, for the tables that show them.
const ReferenceNote = "References are fitted to the training contexts only and scored on the held-out ones like a learner. The linear reference sees every training answer once (without recorded answers, as for Shuttle: every pair the utilities order, answered noise-free), so it bounds what the linear learners can reach from a T-duel budget of chosen answers; the global ranking gives every arm identifier one Bradley–Terry utility; the majority arm is the identifier best in the most training contexts, always chosen; the constant model calls every pair 50/50."

// Reference is the level a non-learner reaches on the held-out columns of
// one problem instance.
type Reference struct {
	Name   string
	Note   string    // what was fitted when it varies with the split (the majority arm)
	Values []float64 // one per held-out column
}

// HasHeldOut reports whether a problem was built by NewProblem with
// held-out contexts, so that HeldOutReferences can compute references (which
// costs a fit to every training answer: call it only when they are shown).
func HasHeldOut(prob *experiments.Problem) bool {
	e, ok := prob.Evaluator.(*evaluator)
	return ok && e.setup.Test != nil
}

// HeldOutReferences returns the held-out columns of a problem built by
// NewProblem and the references' values of them, and false when the problem
// has no held-out contexts.
func HeldOutReferences(prob *experiments.Problem) (cols []string, refs []Reference, ok bool) {
	e, ok := prob.Evaluator.(*evaluator)
	if !ok || e.setup.Test == nil {
		return nil, nil, false
	}
	cols, refs = e.references()
	return cols, refs, true
}

// Levels are a reference's values over seeds.
type Levels struct {
	Name   string
	Notes  []string    // [seed−1]
	Values [][]float64 // [seed−1][column]
}

// References builds the problem p for seeds 1 … seeds and returns its
// held-out columns and every reference's values on each seed.
func References(p experiments.ProblemSpec, seeds int) (cols []string, levels []Levels, err error) {
	for seed := 1; seed <= seeds; seed++ {
		prob, err := p.Build(uint64(seed))
		if err != nil {
			return nil, nil, err
		}
		c, refs, ok := HeldOutReferences(prob)
		if !ok {
			return nil, nil, fmt.Errorf("pool: problem %s has no held-out contexts (holdout) to compute references on", p.Name)
		}
		cols = c
		for i, r := range refs {
			if seed == 1 {
				levels = append(levels, Levels{Name: r.Name})
			}
			levels[i].Notes = append(levels[i].Notes, r.Note)
			levels[i].Values = append(levels[i].Values, r.Values)
		}
	}
	return cols, levels, nil
}

// duel is a training answer: arm w beat arm l in context c.
type duel struct{ c, w, l int }

// trainingDuels returns the training answers the references are fitted to.
func (e *evaluator) trainingDuels() []duel {
	var out []duel
	if e.setup.Train.Answers != nil {
		for _, a := range e.trainStrict {
			if a.Y == 1 {
				out = append(out, duel{a.Context, a.Arm1, a.Arm2})
			} else {
				out = append(out, duel{a.Context, a.Arm2, a.Arm1})
			}
		}
		return out
	}
	K := e.Arms
	for c := range e.setup.Train.Pool.Contexts {
		f := e.F[c*K : (c+1)*K]
		for a := range K {
			for b := range K {
				if f[a] > f[b] {
					out = append(out, duel{c, a, b})
				}
			}
		}
	}
	return out
}

func (e *evaluator) references() ([]string, []Reference) {
	tr, te := e.setup.Train, e.setup.Test
	duels := e.trainingDuels()
	var refs []Reference
	add := func(name, note string, h []float64) {
		refs = append(refs, Reference{Name: name, Note: note, Values: e.heldOut(nil, h)})
	}

	cfg := algorithms.Default()
	cfg.RetrainEvery, cfg.MLEIters = math.MaxInt, 100
	lin := algorithms.NewLinearBT(algorithms.Env{Pool: tr.Pool, Config: cfg, Seed: e.setup.Seed})
	for _, d := range duels {
		lin.AddDuel(d.c, d.w, d.l)
	}
	lin.Fit()
	add("linear BT fitted to all training answers at once (λ = 1)", "", algorithms.ScoreRows(nil, lin, te.Pool, 0, te.Pool.Rows(), nil))

	K := e.Arms
	s := fitRanking(duels, func(c, a int) string { return tr.id(c*K + a) }, 1)
	h := make([]float64, te.Pool.Rows())
	for n := range h {
		h[n] = s[te.id(n)]
	}
	add("global ranking of arm identifiers (BT, λ = 1)", "", h)

	maj := e.majority()
	for n := range h {
		h[n] = 0
		if maj != "" && te.id(n) == maj {
			h[n] = 1
		}
	}
	add("majority arm always", maj, h)

	add("constant model (every pair 50/50)", "", make([]float64, te.Pool.Rows()))
	return slices.Clone(e.cols[e.heldOutK[0]:e.heldOutK[1]]), refs
}

// majority returns the identifier that is best in the most training
// contexts (Latent.F), a context's tied best arms sharing its count and a
// context whose arms all tie counting for none; ties between identifiers go
// to the one seen first. It returns "" when no context has a best arm.
func (e *evaluator) majority() string {
	K := e.Arms
	count := map[string]float64{}
	var order []string
	for c := range e.setup.Train.Pool.Contexts {
		f := e.F[c*K : (c+1)*K]
		top := slices.Max(f)
		if top == slices.Min(f) {
			continue
		}
		n := 0
		for _, v := range f {
			if v == top {
				n++
			}
		}
		for a, v := range f {
			if v != top {
				continue
			}
			id := e.setup.Train.id(c*K + a)
			if _, seen := count[id]; !seen {
				order = append(order, id)
			}
			count[id] += 1 / float64(n)
		}
	}
	best := ""
	for _, id := range order {
		if best == "" || count[id] > count[best] {
			best = id
		}
	}
	return best
}

// fitRanking returns the Bradley–Terry utility s_i of every identifier that
// takes part in duels (idOf names the arm a of context c), the minimiser of
//
//	Σ_duels log(1 + exp(s_loser − s_winner)) + λ/2 Σ_i s_i²,
//
// which is algorithms.LinearBT on identifier indicators, computed sparsely:
// cyclic coordinate steps −g_i/(λ + n_i/4), with n_i the duels of i, each
// of which decreases the objective (μ' ≤ ¼ bounds its curvature), until no
// step exceeds 1e-12 (at most 100,000 sweeps).
func fitRanking(duels []duel, idOf func(c, a int) string, lambda float64) map[string]float64 {
	index := map[string]int{}
	var ids []string
	at := func(id string) int {
		i, ok := index[id]
		if !ok {
			i = len(ids)
			index[id] = i
			ids = append(ids, id)
		}
		return i
	}
	type pair struct{ i, j int }      // i < j
	type tally struct{ n, w float64 } // duels between i and j, and i's wins
	pairs := map[pair]tally{}
	for _, d := range duels {
		w, l := at(idOf(d.c, d.w)), at(idOf(d.c, d.l))
		switch {
		case w < l:
			t := pairs[pair{w, l}]
			pairs[pair{w, l}] = tally{t.n + 1, t.w + 1}
		case l < w:
			t := pairs[pair{l, w}]
			pairs[pair{l, w}] = tally{t.n + 1, t.w}
		}
	}
	type edge struct {
		j    int
		n, w float64 // duels between i and j, and i's wins
	}
	adj := make([][]edge, len(ids))
	deg := make([]float64, len(ids))
	for _, p := range slices.SortedFunc(maps.Keys(pairs), func(a, b pair) int { return cmp.Or(cmp.Compare(a.i, b.i), cmp.Compare(a.j, b.j)) }) {
		t := pairs[p]
		adj[p.i] = append(adj[p.i], edge{p.j, t.n, t.w})
		adj[p.j] = append(adj[p.j], edge{p.i, t.n, t.n - t.w})
		deg[p.i] += t.n
		deg[p.j] += t.n
	}
	s := make([]float64, len(ids))
	for range 100_000 {
		largest := 0.0
		for i := range s {
			g := lambda * s[i]
			for _, ed := range adj[i] {
				g += ed.n*logistic.Sigmoid(s[i]-s[ed.j]) - ed.w
			}
			step := g / (lambda + deg[i]/4)
			s[i] -= step
			largest = max(largest, math.Abs(step))
		}
		if largest <= 1e-12 {
			break
		}
	}
	out := make(map[string]float64, len(ids))
	for i, id := range ids {
		out[id] = s[i]
	}
	return out
}
