package lockon

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
)

// Mechanism records why the paper's context rule (eq. 3) stays on one
// context: in the most-queried context, how often its largest-norm arm pair
// (the pair that makes eq. 3 choose it) was itself queried, and how that
// norm compares with the pair the arm rule does query and with every other
// context.
type Mechanism struct {
	Problem, Algorithm string
	Seed               uint64
	Distinct           int     // distinct contexts queried in T rounds
	Top                int     // the most-queried context c*
	TopShare           float64 // its share of the T rounds
	LockRound          int     // first round in c*
	MaxPair            [2]int  // largest-norm pair of c* at T
	MaxPairQueried     int     // duels of that pair (either order) in c*
	QueriedPair        [2]int  // most-queried pair in c*
	QueriedPairCount   int
	GreedyInMaxPair    bool    // the greedy arm a_1 of c* at T belongs to MaxPair
	MaxNorm2AtLock     float64 // ‖φ_a − φ_b‖²_{V⁻¹} of c*'s largest pair just before its first duel
	MaxNorm2AtT        float64 // the same at T
	QueriedNorm2AtT    float64 // ‖·‖² of the most-queried pair of c* at T
	RunnerUpNorm2AtT   float64 // largest pair norm² over all other contexts at T
	RoundsOnMaxPair    float64 // share of all rounds whose duel was the chosen context's largest-norm pair
}

// MeasureMechanism drives algorithm (a NeuralADB learner: as written or a
// variant) on spec's problem and returns the Mechanism record.
func MeasureMechanism(ctx context.Context, spec experiments.Spec) (*Mechanism, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	prob, err := spec.Problem.Build(spec.Seed)
	if err != nil {
		return nil, err
	}
	lrn, err := algorithms.New(spec.Algorithm, algorithms.Env{Pool: prob.Pool, Config: spec.Config, Seed: spec.Seed})
	if err != nil {
		return nil, err
	}
	l, ok := lrn.(*algorithms.NeuralADB)
	if !ok {
		return nil, fmt.Errorf("%s is not a Neural-ADB learner", spec.Algorithm)
	}
	K := prob.Pool.Arms
	counts := make([]int, prob.Pool.Contexts)
	first := make([]int, prob.Pool.Contexts)
	lockNorm := make([]float64, prob.Pool.Contexts)
	pairCount := map[[3]int]int{}
	onMax := 0
	err = experiments.Loop(ctx, l, prob, 0, spec.T, experiments.Hooks{Selected: func(t int, q algorithms.Query) {
		a, b, n2 := l.Conf.MaxPair(q.Context) // the confidence state before this duel
		lo, hi := min(q.Arm1, q.Arm2), max(q.Arm1, q.Arm2)
		if lo == a && hi == b {
			onMax++
		}
		if counts[q.Context] == 0 {
			first[q.Context], lockNorm[q.Context] = t, n2
		}
		counts[q.Context]++
		pairCount[[3]int{q.Context, lo, hi}]++
	}})
	if err != nil {
		return nil, err
	}
	m := &Mechanism{Problem: spec.Problem.Name, Algorithm: spec.Algorithm, Seed: spec.Seed, RoundsOnMaxPair: float64(onMax) / float64(spec.T)}
	for c, n := range counts {
		if n > 0 {
			m.Distinct++
		}
		if n > counts[m.Top] {
			m.Top = c
		}
	}
	c := m.Top
	m.TopShare = float64(counts[c]) / float64(spec.T)
	m.LockRound, m.MaxNorm2AtLock = first[c], lockNorm[c]
	a, b, n2 := l.Conf.MaxPair(c)
	m.MaxPair, m.MaxNorm2AtT = [2]int{a, b}, n2
	m.MaxPairQueried = pairCount[[3]int{c, a, b}]
	for i := range K {
		for j := i + 1; j < K; j++ {
			if n := pairCount[[3]int{c, i, j}]; n > m.QueriedPairCount {
				m.QueriedPair, m.QueriedPairCount = [2]int{i, j}, n
			}
		}
	}
	m.QueriedNorm2AtT = l.Conf.Norm2(c, m.QueriedPair[0], m.QueriedPair[1])
	h := l.Scores(c)
	a1 := 0
	for j := range h {
		if h[j] > h[a1] {
			a1 = j
		}
	}
	m.GreedyInMaxPair = a1 == a || a1 == b
	for other := range prob.Pool.Contexts {
		if other != c {
			_, _, v := l.Conf.MaxPair(other)
			m.RunnerUpNorm2AtT = max(m.RunnerUpNorm2AtT, v)
		}
	}
	return m, nil
}

// MechanismSpecs lists the mechanism runs of the study: the as-written rules
// (UCB and TS) on every problem, every seed.
func (s LockonStudy) MechanismSpecs() []experiments.Spec {
	var out []experiments.Spec
	for _, p := range s.Problems {
		for _, a := range []string{"neural-adb-ucb", "neural-adb-ts"} {
			for seed := 1; seed <= s.Seeds; seed++ {
				out = append(out, s.spec(a, p, s.Config, seed))
			}
		}
	}
	return out
}

// RunMechanism measures every mechanism run on workers goroutines (results in
// the order of MechanismSpecs, independent of workers).
func (s LockonStudy) RunMechanism(ctx context.Context, workers int, progress func(done, total int, sp experiments.Spec)) ([]*Mechanism, error) {
	specs := s.MechanismSpecs()
	out := make([]*Mechanism, len(specs))
	err := forEach(ctx, specs, workers, func(i int) (err error) {
		out[i], err = MeasureMechanism(ctx, specs[i])
		return err
	}, progress)
	return out, err
}

// MechanismCSV renders the records as CSV.
func MechanismCSV(ms []*Mechanism) []byte {
	h := []string{"problem", "algorithm", "seed", "distinct", "top_context", "top_share", "lock_round", "max_pair", "max_pair_duels",
		"queried_pair", "queried_pair_duels", "greedy_in_max_pair", "max_norm2_at_lock", "max_norm2_at_T", "queried_norm2_at_T", "runner_up_norm2_at_T", "rounds_on_max_pair"}
	var rows [][]string
	pair := func(p [2]int) string { return fmt.Sprintf("%d-%d", p[0], p[1]) }
	for _, m := range ms {
		rows = append(rows, []string{m.Problem, m.Algorithm, strconv.FormatUint(m.Seed, 10), strconv.Itoa(m.Distinct), strconv.Itoa(m.Top), fmtG(m.TopShare),
			strconv.Itoa(m.LockRound), pair(m.MaxPair), strconv.Itoa(m.MaxPairQueried), pair(m.QueriedPair), strconv.Itoa(m.QueriedPairCount),
			strconv.FormatBool(m.GreedyInMaxPair), fmtG(m.MaxNorm2AtLock), fmtG(m.MaxNorm2AtT), fmtG(m.QueriedNorm2AtT), fmtG(m.RunnerUpNorm2AtT), fmtG(m.RoundsOnMaxPair)})
	}
	return csvBytes(h, rows)
}

// MechanismMarkdown renders the records as Markdown, one line per run.
func MechanismMarkdown(ms []*Mechanism) []byte {
	var b strings.Builder
	b.WriteString("In the most-queried context c*: its largest-norm pair (the pair that makes eq. 3 pick c*) and how often it was queried; the pair the arm rule queried most; squared norms ‖φ_a − φ_b‖²_{V⁻¹} of c*'s largest pair at its first duel and at T, of the most-queried pair at T, and the largest pair norm of every other context at T.\n\n")
	b.WriteString("| problem | algorithm | seed | distinct | c* share | first round in c* | largest pair (duels) | most-queried pair (duels) | a₁ in largest pair | ‖·‖² largest pair: first duel → T | ‖·‖² queried pair at T | other contexts' max ‖·‖² at T | rounds on the chosen context's largest pair |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, m := range ms {
		fmt.Fprintf(&b, "| %s | `%s` | %d | %d | %.3f | %d | %d-%d (%d) | %d-%d (%d) | %v | %.3g → %.3g | %.3g | %.3g | %.3f |\n",
			m.Problem, m.Algorithm, m.Seed, m.Distinct, m.TopShare, m.LockRound, m.MaxPair[0], m.MaxPair[1], m.MaxPairQueried,
			m.QueriedPair[0], m.QueriedPair[1], m.QueriedPairCount, m.GreedyInMaxPair, m.MaxNorm2AtLock, m.MaxNorm2AtT, m.QueriedNorm2AtT, m.RunnerUpNorm2AtT, m.RoundsOnMaxPair)
	}
	return []byte(b.String())
}
