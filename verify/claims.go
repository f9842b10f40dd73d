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

// Verdicts. A claim is Undecided when a statistic its test needs is not a
// number (too few seeds, a metric that is NaN, a slope with too few points):
// no claim is ever decided on a NaN, whichever way a comparison with it
// would fall.
const (
	Holds        Verdict = "holds"
	DoesNotHold  Verdict = "does not hold"
	Undecided    Verdict = "undecided"
	notEvaluated Verdict = "not evaluated"
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
	res := cacheResults{opts.Cache}
	rows := make([]Row, len(claims))
	for i, c := range claims {
		rows[i] = Row{Claim: c, Scale: sc.Name}
		out, err := c.Evaluate(ctx, c.ScaleFor(sc), res)
		rows[i].Outcome, rows[i].Err = out, err
		if err != nil {
			rows[i].Verdict = notEvaluated
		}
	}
	return rows, nil
}

// final returns a metric at the last checkpoint of spec for every seed.
func final(sc Scale, r Results, spec experiments.Spec, metric string) ([]float64, error) {
	var out []float64
	for _, s := range sc.SeedsOf(spec) {
		res, err := r.Get(s)
		if err != nil {
			return nil, err
		}
		cp := res.Checkpoints[len(res.Checkpoints)-1]
		v, err := experiments.Metric(res, cp, metric)
		if err != nil {
			return nil, err
		}
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
