package label

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/poolfile"
)

// testPoolFile returns a pool file of contexts × arms rows with d uniform
// features and a linear utility, parsed from its CSV text.
func testPoolFile(t testing.TB, contexts, arms, d int) *poolfile.PoolFile {
	t.Helper()
	rng := rand.New(rand.NewPCG(11, 1))
	theta := make([]float64, d)
	for i := range theta {
		theta[i] = rng.NormFloat64()
	}
	var b strings.Builder
	b.WriteString("context,arm")
	for i := range d {
		fmt.Fprintf(&b, ",x%d", i)
	}
	b.WriteString(",utility\n")
	for c := range contexts {
		for a := range arms {
			fmt.Fprintf(&b, "user%d,item%d", c, a)
			u := 0.0
			for i := range d {
				x := 2*rng.Float64() - 1
				u += 3 * theta[i] * x
				b.WriteString("," + strconv.FormatFloat(x, 'g', -1, 64))
			}
			b.WriteString("," + strconv.FormatFloat(u, 'g', -1, 64) + "\n")
		}
	}
	pf, err := poolfile.ReadPool(strings.NewReader(b.String()), "pool.csv")
	if err != nil {
		t.Fatal(err)
	}
	return pf
}

// learnerConfig is a small network retrained often, so that a short session
// trains it.
func learnerConfig() algorithms.Config {
	cfg := algorithms.Default()
	cfg.Width, cfg.RetrainEvery, cfg.Steps = 16, 4, 30
	return cfg
}

// learnerProposer returns a constructor of Neural-ADB (UCB) proposers on pf.
func learnerProposer(t testing.TB, pf *poolfile.PoolFile) func() (Proposer, error) {
	return func() (Proposer, error) {
		l, err := algorithms.New("neural-adb-ucb", algorithms.Env{Pool: pf.Pool, Config: learnerConfig(), Seed: 5})
		if err != nil {
			return nil, err
		}
		return NewLearnerProposer(l, pf.Pool), nil
	}
}

// newLearnerFixture serves a session of Neural-ADB on pf with its log in dir.
func newLearnerFixture(t testing.TB, pf *poolfile.PoolFile, dir string) *fixture {
	t.Helper()
	f := &fixture{t: t, cat: PoolCatalogue{pf}, dir: dir, clock: newClock()}
	srv, err := New(f.cat, learnerProposer(t, pf), Options{LogDir: dir, Now: f.clock.Now, Logger: quiet(), ShowScores: true})
	if err != nil {
		t.Fatal(err)
	}
	f.srv = srv
	f.ts = httptest.NewServer(srv.Handler())
	t.Cleanup(f.close)
	return f
}

// truth answers q by the pool's utilities: 1 when arm1's is higher.
func truth(pf *poolfile.PoolFile, q map[string]any) float64 {
	K := pf.Pool.Arms
	c, a1, a2 := int(q["context_index"].(float64)), int(q["arm1_index"].(float64)), int(q["arm2_index"].(float64))
	if pf.Utility[c*K+a1] > pf.Utility[c*K+a2] {
		return 1
	}
	return 0
}

// rawSummary returns the body of GET /api/summary.
func (f *fixture) rawSummary() string {
	f.t.Helper()
	resp, err := f.ts.Client().Get(f.ts.URL + "/api/summary")
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		f.t.Fatalf("summary: status %d, %v", resp.StatusCode, err)
	}
	return string(b)
}

// TestLearnerSession labels with Neural-ADB behind the HTTP API: every query
// has the learner's reason, the summary has a policy, scores and σ for every
// context and counts the answers, and a restart from the log rebuilds the
// same policy, scores and σ.
func TestLearnerSession(t *testing.T) {
	pf := testPoolFile(t, 6, 4, 3)
	dir := t.TempDir()
	f := newLearnerFixture(t, pf, dir)
	const n = 22
	for range n {
		q := f.next("ann")
		if _, ok := q["score"].(float64); !ok {
			t.Fatalf("query %v has no score", q)
		}
		if s, ok := q["sigma"].(float64); !ok || s < 0 {
			t.Fatalf("query %v has no σ ≥ 0", q)
		}
		if st, r := f.answer(q["id"], truth(pf, q)); st != http.StatusOK {
			t.Fatalf("answer: %d %v", st, r)
		}
	}
	_, sum := f.do("GET", "/api/summary", nil)
	ctxs := sum["contexts"].([]any)
	if len(ctxs) != 6 || sum["answered"].(float64) != n {
		t.Fatalf("summary has %d contexts and %v answers, want 6 and %d", len(ctxs), sum["answered"], n)
	}
	queries := 0
	for _, c := range ctxs {
		cj := c.(map[string]any)
		queries += int(cj["queries"].(float64))
		if cj["policy"] == nil {
			t.Errorf("context %v has no policy", cj["context"])
		}
		for _, a := range cj["arms"].([]any) {
			aj := a.(map[string]any)
			s, ok := aj["sigma"].(float64)
			if _, hasScore := aj["score"].(float64); !hasScore || !ok || s < 0 || (aj["index"] == cj["policy_index"]) != (s == 0) {
				t.Errorf("context %v arm %v: score %v, σ %v; want numbers, σ = 0 for the policy's arm only", cj["context"], aj["arm"], aj["score"], aj["sigma"])
			}
		}
	}
	if queries != n {
		t.Errorf("the contexts count %d answers, want %d", queries, n)
	}
	before := f.rawSummary()
	f.close()

	g := newLearnerFixture(t, pf, dir)
	if after := g.rawSummary(); after != before {
		t.Errorf("summary after a restart differs:\nbefore %s\nafter  %s", before, after)
	}
}

// TestLearnerConcurrentLabellers gives 12 labellers a query at once: the
// queries are distinct duels.
func TestLearnerConcurrentLabellers(t *testing.T) {
	pf := testPoolFile(t, 5, 4, 3)
	f := newLearnerFixture(t, pf, t.TempDir())
	const labellers = 12
	qs := make([]algorithms.Query, labellers)
	var wg sync.WaitGroup
	for i := range labellers {
		wg.Go(func() {
			st, q := f.do("GET", "/api/next?labeller=l"+strconv.Itoa(i), nil)
			if st != http.StatusOK || q["id"] == nil {
				t.Errorf("labeller %d: status %d %v", i, st, q)
				return
			}
			qs[i] = algorithms.Query{Context: int(q["context_index"].(float64)), Arm1: int(q["arm1_index"].(float64)), Arm2: int(q["arm2_index"].(float64))}
		})
	}
	wg.Wait()
	for i := range qs {
		for j := range i {
			if sameDuel(qs[i], qs[j]) {
				t.Errorf("labellers %d and %d both got %+v", j, i, qs[i])
			}
		}
	}
}

// pendSpy is a real learner whose Select proposes its first query again
// whenever the offer allows it, counting the Pend calls per query.
type pendSpy struct {
	algorithms.Learner
	first *algorithms.Query
	pends map[algorithms.Query]int
}

func (s *pendSpy) Select(o algorithms.Offer) algorithms.Query {
	if s.first != nil && o.Contexts == nil && o.Allows(s.first.Context, s.first.Arm1, s.first.Arm2) {
		return *s.first
	}
	q := s.Learner.Select(o)
	if s.first == nil {
		s.first = &q
	}
	return q
}

func (s *pendSpy) Score(dst, x []float64) []float64 {
	return s.Learner.(algorithms.Scorer).Score(dst, x)
}

func (s *pendSpy) Pend(q algorithms.Query) {
	s.pends[q]++
	s.Learner.(algorithms.Pender).Pend(q)
}

// TestLearnerProposerPendsOnce proposes a query, proposes it again as after
// its expiry (no longer excluded), then answers it and proposes it once more:
// the learner is asked to pend it once before the answer and once after.
// Excluded pairs are never proposed, and an exhausted pool proposes nothing.
func TestLearnerProposerPendsOnce(t *testing.T) {
	pf := testPoolFile(t, 2, 3, 2)
	l, err := algorithms.New("apo", algorithms.Env{Pool: pf.Pool, Config: algorithms.Default(), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	spy := &pendSpy{Learner: l, pends: map[algorithms.Query]int{}}
	lp := NewLearnerProposer(spy, pf.Pool)
	q1, r, ok := lp.Propose(nil)
	if !ok || math.IsNaN(r.Score) || !math.IsNaN(r.Sigma) {
		t.Fatalf("first proposal %+v %+v %v; want a score and no σ (apo exposes none)", q1, r, ok)
	}
	if q, _, _ := lp.Propose(nil); q != q1 || spy.pends[q1] != 1 {
		t.Fatalf("proposed %+v again with %d Pend calls, want %+v pended once", q, spy.pends[q1], q1)
	}
	lp.Observe(q1, algorithms.Arm1Won)
	lp.Propose(nil)
	if spy.pends[q1] != 2 {
		t.Errorf("%+v pended %d times after its answer and a new proposal, want 2", q1, spy.pends[q1])
	}
	var exclude []algorithms.Query
	for {
		q, _, ok := lp.Propose(exclude)
		if !ok {
			break
		}
		for _, e := range exclude {
			if sameDuel(e, q) {
				t.Fatalf("proposed the excluded duel %+v", q)
			}
		}
		exclude = append(exclude, q)
	}
	if len(exclude) != 2*3 {
		t.Errorf("proposed %d distinct duels before running out, want all 6", len(exclude))
	}
	if s := lp.Summary(); s.Contexts[q1.Context].Queries != 1 || s.Contexts[1-q1.Context].Queries != 0 {
		t.Errorf("summary counts %d and %d answers, want 1 in context %d", s.Contexts[0].Queries, s.Contexts[1].Queries, q1.Context)
	}
}

// TestLearnerProposerBatchSameAsWithout: proposing a batch one query at a
// time (the exclusions growing, as nadb suggest does), then after some
// exclusions are dropped (expired), gives the queries a twin learner chooses
// on Offer.Without of the same exclusions, pended the same way.
func TestLearnerProposerBatchSameAsWithout(t *testing.T) {
	pf := testPoolFile(t, 6, 4, 3)
	for _, name := range []string{"neural-adb-target", "neural-adb-ucb", "random-nn"} {
		t.Run(name, func(t *testing.T) {
			newL := func() algorithms.Learner {
				l, err := algorithms.New(name, algorithms.Env{Pool: pf.Pool, Config: learnerConfig(), Seed: 3})
				if err != nil {
					t.Fatal(err)
				}
				return l
			}
			lp, ref := NewLearnerProposer(newL(), pf.Pool), newL()
			pended := map[algorithms.Query]bool{}
			var exclude []algorithms.Query
			check := func() {
				t.Helper()
				q, _, ok := lp.Propose(exclude)
				want := ref.Select(algorithms.Offer{}.Without(pf.Pool, exclude))
				if pd, isP := ref.(algorithms.Pender); isP && !pended[want] {
					pd.Pend(want)
					pended[want] = true
				}
				if !ok || q != want {
					t.Fatalf("with %d exclusions: proposed %+v (%v), want %+v", len(exclude), q, ok, want)
				}
				exclude = append(exclude, q)
			}
			for range 12 {
				check()
			}
			exclude = append(exclude[:2:2], exclude[5:]...) // three expired
			for range 6 {
				check()
			}
		})
	}
}
