package verify

import (
	"context"
	"fmt"
	"math"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/sweep"
)

// Verdict is the outcome of testing a claim.
type Verdict string

// Verdicts. A claim holds when its test supports it and does not hold when
// the data contradict it; it is NotResolved when its test neither supports
// nor contradicts it (the seeds cannot tell: a family in which not every
// test is significant and no reverse test is, an interval that straddles
// the bound, an ANOVA that is not significant). A claim is Undecided when a statistic its test needs is
// not a number (too few seeds, a metric that is NaN, a slope with too few
// points): no claim is ever decided on a NaN, whichever way a comparison
// with it would fall. Refutation-style claims (no test significant) and
// pre-registered claims keep their own rules, which may have no NotResolved
// (decide.go).
const (
	Holds        Verdict = "holds"
	DoesNotHold  Verdict = "does not hold"
	NotResolved  Verdict = "not resolved"
	Undecided    Verdict = "undecided"
	notEvaluated Verdict = "not evaluated"
	// Pending is a recorded verdict only: the claim is pre-registered and
	// has not been decided at that scale yet (its runs wait for the final
	// code). A computed verdict never agrees with it, so "nadb verify"
	// reports the claim until its verdict is recorded.
	Pending Verdict = "pending"
)

// Outcome is what a claim's test computed.
type Outcome struct {
	Verdict Verdict
	Result  string // the numbers: estimates with intervals, p-values
	Power   string // what the test could detect (effect size at 80% power), if it applies
}

// Claim is one checkable statement of the paper (or of this project about
// the paper) with the statistic and the test that decide it.
type Claim struct {
	ID        string
	Claim     string // the statement, in our words
	Source    string // where the paper makes it
	Statistic string // what is measured
	Test      string // how it is decided
	// Recorded is the verdict our runs gave at each scale (by scale name),
	// with a one-line explanation in Why. It is a regression guard, not a
	// preregistration: it was written down after the runs, and TestClaims
	// (and "nadb verify") fail when a computed verdict differs from it, so
	// that a change of the code that changes a verdict cannot go unnoticed.
	Recorded map[string]Verdict
	Why      string
	// Seeds overrides the number of seeds at a scale (by scale name; absent
	// or 0: the scale's own), for claims that need more seeds than the
	// figures run to be decided.
	Seeds map[string]int
	// Prereg names the pre-registration of the claim (verify/prereg/NAME.json),
	// committed before its first result. Claims decided before
	// pre-registration was introduced have none (preregExempt).
	Prereg string
	// Runs lists every run the claim needs at a scale.
	Runs func(Scale) []experiments.Spec
	// Evaluate decides the claim from the finished runs (ctx cancels
	// claims that compute beyond the runs, such as the theory checks).
	Evaluate func(context.Context, Scale, Results) (Outcome, error)
}

// Results gives access to finished runs.
type Results interface {
	Get(experiments.Spec) (*experiments.Result, error)
}

// Row is one evaluated line of the claims table.
type Row struct {
	Claim
	Outcome
	Scale string
	Err   error
	// Values are the per-seed values the claim's test read, in the order
	// read (written by WriteSeedsCSV, so that every test can be recomputed
	// from the repository alone).
	Values []SeedValue
	// FirstSeed is the scale's first seed (0 or 1: seeds from 1).
	FirstSeed uint64
}

// SeedValue is one per-seed value a claim's test read: a metric of a run at
// a checkpoint, or a per-seed statistic derived from a run's checkpoints
// (such as a log–log slope, named in Metric).
type SeedValue struct {
	Spec   experiments.Spec
	Metric string
	T      int
	Value  float64
}

// recording is the Results of one claim's evaluation, keeping the values
// its test reads.
type recording struct {
	Results
	values []SeedValue
}

// recordValue keeps v as a value the claim's test read, if r records.
func recordValue(r Results, s experiments.Spec, metric string, t int, v float64) {
	if rec, ok := r.(*recording); ok {
		rec.values = append(rec.values, SeedValue{Spec: s, Metric: metric, T: t, Value: v})
	}
}

// Agrees reports whether the computed verdict is the recorded one (an
// Undecided verdict never agrees).
func (r Row) Agrees() bool {
	return r.Err == nil && r.Verdict == r.Recorded[r.Scale]
}

// ScaleFor is sc with the claim's own number of seeds at that scale, if it
// has one: the scale its runs and its evaluation use.
func (c Claim) ScaleFor(sc Scale) Scale {
	if n := c.Seeds[sc.Name]; n > 0 {
		sc.Seeds = n
	}
	return sc
}

// Options configures Evaluate.
type Options struct {
	Cache   *sweep.Cache // where runs are cached (required)
	Workers int
	OnEvent func(sweep.Event)
	Only    []string // claim ids; empty: all
}

type cacheResults struct{ c *sweep.Cache }

func (r cacheResults) Get(s experiments.Spec) (*experiments.Result, error) {
	return sweep.CacheLoader(r.c)(s)
}

// Evaluate runs every claim's runs (reusing the cache) and decides each claim.
func Evaluate(ctx context.Context, sc Scale, opts Options) ([]Row, error) {
	if opts.Cache == nil {
		return nil, fmt.Errorf("verify: no cache directory")
	}
	claims := Table()
	if len(opts.Only) > 0 {
		var keep []Claim
		for _, c := range claims {
			for _, id := range opts.Only {
				if c.ID == id {
					keep = append(keep, c)
				}
			}
		}
		if len(keep) != len(opts.Only) {
			return nil, fmt.Errorf("verify: Options.Only: unknown claim id in %v", opts.Only)
		}
		claims = keep
	}
	var jobs []sweep.Job
	for _, c := range claims {
		if c.Runs == nil {
			continue
		}
		for _, s := range c.Runs(c.ScaleFor(sc)) {
			jobs = append(jobs, sweep.Job{Spec: s, Group: "claim " + c.ID})
		}
	}
	sw := sweep.Sweep{Cache: opts.Cache, Workers: opts.Workers, OnEvent: opts.OnEvent}
	if err := sw.Execute(ctx, jobs); err != nil {
		return nil, err
	}
	rows := make([]Row, len(claims))
	for i, c := range claims {
		rows[i] = Row{Claim: c, Scale: sc.Name, FirstSeed: sc.FirstSeed}
		res := &recording{Results: cacheResults{opts.Cache}}
		out, err := c.Evaluate(ctx, c.ScaleFor(sc), res)
		rows[i].Outcome, rows[i].Err, rows[i].Values = out, err, res.values
		if err != nil {
			rows[i].Verdict = notEvaluated
		}
	}
	return rows, nil
}

// final returns a metric at the last checkpoint of spec for every seed.
func final(sc Scale, r Results, spec experiments.Spec, metric string) ([]float64, error) {
	return valuesAt(sc, r, spec, metric, -1)
}

// valuesAt returns a metric at checkpoint t (−1: the last) of spec for every
// seed, and records them as values the claim's test read (SeedValue).
func valuesAt(sc Scale, r Results, spec experiments.Spec, metric string, t int) ([]float64, error) {
	var out []float64
	for _, s := range sc.SeedsOf(spec) {
		res, err := r.Get(s)
		if err != nil {
			return nil, err
		}
		k := len(res.Checkpoints) - 1
		for t >= 0 && k >= 0 && res.Checkpoints[k].T != t {
			k--
		}
		if k < 0 {
			return nil, fmt.Errorf("%s on %s, seed %d: no checkpoint at t = %d", s.Algorithm, s.Problem.Name, s.Seed, t)
		}
		cp := res.Checkpoints[k]
		v, err := experiments.Metric(res, cp, metric)
		if err != nil {
			return nil, err
		}
		recordValue(r, s, metric, cp.T, v)
		out = append(out, v)
	}
	return out, nil
}

// pvalue formats a p-value.
func pvalue(p float64) string {
	switch {
	case math.IsNaN(p):
		return "p = n/a"
	case p < 1e-4:
		return "p < 1e-4"
	}
	return fmt.Sprintf("p = %.2g", p)
}
