package algorithms

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/neural-adb/nadb/internal/enum"
)

// Learner is an active contextual dueling-bandit learner over a Pool
// (Algorithm Neural-ADB and every baseline). The loop that drives it is:
//
//	for t := 1..T { q := l.Select(offer_t); y := oracle(q); l.Observe(q, y) }
//	π := l.Policy(nil)
//
// The contract:
//   - Select returns a query the offer allows (Offer.Check); the zero Offer
//     allows every context and pair.
//   - Observe accepts the answer to any valid query of the pool, whether
//     Select proposed it or not: answers collected earlier or by another tool
//     are fed the same way (the conformance suite checks it). A learner
//     never sees latent rewards, only features, queries and answers.
//   - In the fresh-context reading the pool also holds, during Select only,
//     this round's fresh candidate contexts (Pool.Fresh); after the answer the
//     queried one is committed and Observe sees it under its committed index.
//   - Policy covers the pool's committed contexts, and calling it (or a
//     Scorer method) changes nothing the learner does later, as long as no
//     more than MaxIdle answers arrive without a Select, Pend, Policy or
//     Score between them: experiments read it at checkpoints, and a run's
//     choices must not depend on how often they do. Beyond MaxIdle answers
//     without such a call (answers fed in bulk) a learner may put off work
//     until the next call.
//
// Learners are not safe for concurrent use; independent learners are.
type Learner interface {
	// Select returns the next query among those o allows.
	Select(o Offer) Query
	// Observe records the answer y to the valid query q.
	Observe(q Query, y Feedback)
	// Policy writes the learned policy π(c) for every committed context into
	// dst (allocated if nil) and returns it.
	Policy(dst []int) []int
}

// MaxIdle is the number of answers a learner takes without a Select, Pend,
// Policy or Score call before it may put off work until the next such call
// (the Learner contract; neural-adb-target's TargetOptions.DeferAfter).
const MaxIdle = 1000

// Pender is implemented by learners whose uncertainty depends only on which
// queries are asked, not on their answers (V = a·I + Σ ψψᵀ): a query that has
// been asked but not yet answered joins the uncertainty at once (exactly), so
// that the next Select, and the next query of a batch, accounts for it. A
// later Observe of the same query adds only its answer. Learners without it
// are kept from proposing a pending query twice by the offer alone
// (SelectBatch).
type Pender interface {
	Pend(q Query)
}

// SelectBatch proposes k distinct queries (distinct contexts-and-pairs) for
// labelling at once, each chosen by the learner: Collector.SelectBatch with
// the learner's own rule.
func SelectBatch(l Learner, p *Pool, o Offer, k int) []Query {
	return (*Collector)(nil).SelectBatch(l, p, o, k)
}

// Scorer is implemented by learners whose model assigns a utility estimate to
// any feature vector, so that they can be evaluated on contexts they never saw
// (held-out users). x holds rows of Pool.Dim features.
type Scorer interface {
	Score(dst, x []float64) []float64
}

// Env is everything a learner is built from.
type Env struct {
	Pool   *Pool
	Config Config
	Seed   uint64 // all of the learner's randomness derives from it
}

// Factory builds a learner; it returns an error for unusable settings.
type Factory func(Env) (Learner, error)

// Algorithm is a registry entry.
type Algorithm struct {
	Name        string
	Description string // one line
	New         Factory
	// PassiveAs names the learner whose passive twin (CollectPassive) is
	// this learner's, bit for bit: the same model trained on the same
	// duels, the two differing only in how they choose duels (empty: none
	// declared). Experiments compute such twins once
	// (experiments.Spec.TrajectoryKey); a test runs every declared pair.
	PassiveAs string
	// Reads returns the names of the Config fields (Field.Name) the learner
	// reads with a configuration, besides collect and consider, which New
	// and NewCollector apply to every learner; nil: every field
	// (DeclareReads, reads.go). ReadsNote says what the list leaves out.
	Reads     func(Config) []string
	ReadsNote string
}

var registry = struct {
	sync.Mutex
	m map[string]Algorithm
}{m: map[string]Algorithm{}}

// Register adds an algorithm under a unique name. It panics on a duplicate or
// empty name; call it from an init function in the algorithm's own file.
func Register(name, description string, f Factory) {
	registry.Lock()
	defer registry.Unlock()
	if name == "" || strings.ContainsAny(name, " \t\n,") {
		panic(fmt.Sprintf("algorithms: invalid name %q", name))
	}
	if _, dup := registry.m[name]; dup {
		panic("algorithms: duplicate registration of " + name)
	}
	registry.m[name] = Algorithm{Name: name, Description: description, New: f}
}

// DeclarePassiveAs records that the registered learner name's passive twin
// is the learner as's (Algorithm.PassiveAs); as declares none itself. It
// panics if name is not registered; call it from the init function that
// registers name.
func DeclarePassiveAs(name, as string) {
	registry.Lock()
	defer registry.Unlock()
	a, ok := registry.m[name]
	if !ok || as == "" || as == name {
		panic(fmt.Sprintf("algorithms: DeclarePassiveAs(%q, %q)", name, as))
	}
	a.PassiveAs = as
	registry.m[name] = a
}

// Names returns every registered name, sorted.
func Names() []string {
	registry.Lock()
	defer registry.Unlock()
	names := make([]string, 0, len(registry.m))
	for n := range registry.m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup returns the named algorithm.
func Lookup(name string) (Algorithm, error) {
	registry.Lock()
	a, ok := registry.m[name]
	registry.Unlock()
	if !ok {
		return Algorithm{}, fmt.Errorf("algorithms: %w", enum.Unknown("algorithm", name, Names()))
	}
	return a, nil
}

// New validates env and builds the named learner. It refuses, with a
// *MemoryError, sizes whose allocations would exceed the memory limit
// (EstimateMemory at 0 rounds against memlimit.Current).
func New(name string, env Env) (Learner, error) {
	a, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	if env.Pool == nil {
		return nil, fmt.Errorf("algorithms: %s: no pool", name)
	}
	if err := env.Pool.Validate(); err != nil {
		return nil, err
	}
	if err := env.Config.Validate(); err != nil {
		return nil, err
	}
	if err := checkMemory(name, env); err != nil {
		return nil, err
	}
	l, err := a.New(env)
	if err != nil || env.Config.Consider == 0 {
		return l, err
	}
	return NewSubsample(l, env.Pool, env.Config.Consider, env.Seed), nil
}
