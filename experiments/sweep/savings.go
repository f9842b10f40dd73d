package sweep

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/stats"
)

// Label savings: what a learner's choice of duels buys against its passive
// twin, from the per-seed values of one metric on the learning-curve grid
// (LogGrid). The same seed gives the learner and its twin the same problem
// instance, initialisation and answers to the same duels, so every
// comparison is paired by seed.
//
//   - labels-to-match: the smallest number of duels at which the learner's
//     mean over seeds reaches its twin's mean at the last checkpoint T,
//     linearly interpolated between the grid's checkpoints (0 at t = 0, +Inf
//     when the learner's mean does not reach it by T); its 95% interval is a
//     percentile bootstrap over seeds (BootstrapResamples resamples of the
//     seeds, the same pairs for the learner and the twin);
//   - the area between the curves: per seed, the trapezoid integral over the
//     grid of (twin − learner) divided by T (for metrics where higher is
//     better, learner − twin), so positive when the learner is ahead; its mean
//     over seeds with a 95% t-interval: the average advantage over the budget,
//     in the metric's units;
//   - one-sided paired tests at T in both directions, by the t-test and the
//     Wilcoxon signed-rank test; DecidingTest says which decides.

// BootstrapResamples is the number of bootstrap resamples of the seeds for
// the interval of labels-to-match.
const BootstrapResamples = 2000

// bootstrapStream is the PCG stream of the resamples (seed 1): every
// interval uses the same resamples of the seeds, independently of the order
// in which tables are written.
const bootstrapStream = 20

// Test names which paired test decides a comparison.
type Test string

// The paired tests.
const (
	TTest      Test = "paired t-test"
	SignedRank Test = "Wilcoxon signed-rank test"
)

// DecidingTest is the paired test that decides a comparison of metric,
// declared before any result it decides was computed (verify/prereg): the
// Wilcoxon signed-rank test (exact for up to 300 seeds) for the max-type
// metrics, whose values are heavy-tailed across seeds (one seed of 30 ending
// far above the others moves a t-test's mean and variance both), and the
// paired t-test for every mean-type metric. Tables show both.
func DecidingTest(metric string) Test {
	switch metric {
	case "worst_gap", "test_worst_gap":
		return SignedRank
	}
	return TTest
}

// PairedLess returns the one-sided p-value of H1: a tends to be below b
// (paired by seed) by test.
func PairedLess(test Test, a, b []float64) float64 {
	if test == SignedRank {
		return stats.SignedRankLess(a, b).P
	}
	return stats.PairedTLess(a, b).P
}

// TwinCurves are one metric of a learner and its passive twin on one
// problem: per seed, the values on a grid of checkpoints.
type TwinCurves struct {
	Metric string
	Grid   []int       // checkpoints, from 0 to the last T
	Own    [][]float64 // [seed][checkpoint]: the learner
	Twin   [][]float64 // [seed][checkpoint]: its passive twin
}

// LoadTwinCurves reads metric on grid for seeds 1…seeds of the run own and
// of its passive twin (Twin(own)).
func LoadTwinCurves(load Loader, own experiments.Spec, seeds int, metric string, grid []int) (*TwinCurves, error) {
	c := &TwinCurves{Metric: metric, Grid: grid}
	for seed := 1; seed <= seeds; seed++ {
		for k, spec := range []experiments.Spec{own, Twin(own)} {
			spec.Seed = uint64(seed)
			v, err := valuesAt(load, spec, metric, grid)
			if err != nil {
				return nil, err
			}
			if k == 0 {
				c.Own = append(c.Own, v)
			} else {
				c.Twin = append(c.Twin, v)
			}
		}
	}
	return c, nil
}

// valuesAt returns a run's metric at the checkpoints t of grid.
func valuesAt(load Loader, spec experiments.Spec, metric string, grid []int) ([]float64, error) {
	res, err := load(spec)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(grid))
	for i, t := range grid {
		k := 0
		for k < len(res.Checkpoints) && res.Checkpoints[k].T != t {
			k++
		}
		if k == len(res.Checkpoints) {
			return nil, fmt.Errorf("%s on %s, seed %d: no checkpoint at t = %d (run with checkpoints every %d)", spec.Algorithm, spec.Problem.Name, spec.Seed, t, spec.Every)
		}
		if out[i], err = experiments.Metric(res, res.Checkpoints[k], metric); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// sign is −1 for metrics where higher is better, so that sign·value is
// lower-is-better.
func (c *TwinCurves) sign() float64 {
	if higherIsBetter(c.Metric) {
		return -1
	}
	return 1
}

// means returns the mean over the seeds idx (nil: all) of x at every
// checkpoint, multiplied by sign.
func (c *TwinCurves) means(x [][]float64, idx []int) []float64 {
	m := make([]float64, len(c.Grid))
	n := len(idx)
	if idx == nil {
		n = len(x)
	}
	for k := range n {
		s := k
		if idx != nil {
			s = idx[k]
		}
		for i, v := range x[s] {
			m[i] += v
		}
	}
	for i := range m {
		m[i] *= c.sign() / float64(n)
	}
	return m
}

// LabelsToMatch returns labels-to-match over the seeds idx (nil: all): the
// smallest t at which the learner's mean reaches the twin's mean at the last
// checkpoint, linearly interpolated between checkpoints; +Inf if it does
// not by the last checkpoint; NaN if a value is NaN.
func (c *TwinCurves) LabelsToMatch(idx []int) float64 {
	own, twin := c.means(c.Own, idx), c.means(c.Twin, idx)
	target := twin[len(twin)-1]
	if math.IsNaN(target) {
		return math.NaN()
	}
	for k, v := range own {
		if math.IsNaN(v) {
			return math.NaN()
		}
		if v > target {
			continue
		}
		if k == 0 {
			return float64(c.Grid[0])
		}
		t0, t1 := float64(c.Grid[k-1]), float64(c.Grid[k])
		return t0 + (t1-t0)*(own[k-1]-target)/(own[k-1]-v)
	}
	return math.Inf(1)
}

// LabelsToMatchCI returns labels-to-match with its 95% percentile bootstrap
// interval over seeds (BootstrapResamples resamples from a fixed stream).
func (c *TwinCurves) LabelsToMatchCI() (est, lo, hi float64) {
	est = c.LabelsToMatch(nil)
	rng := rand.New(rand.NewPCG(1, bootstrapStream))
	lo, hi = stats.BootstrapPercentile(len(c.Own), BootstrapResamples, 0.95, rng, c.LabelsToMatch)
	return est, lo, hi
}

// Areas returns, per seed, the area between the curves: the trapezoid
// integral over the grid of (twin − learner) (learner − twin where higher
// is better) divided by the last checkpoint: positive when the learner is
// ahead, in the metric's units.
func (c *TwinCurves) Areas() []float64 {
	out := make([]float64, len(c.Own))
	g := c.Grid
	span := float64(g[len(g)-1] - g[0])
	for s := range c.Own {
		d := func(i int) float64 { return c.sign() * (c.Twin[s][i] - c.Own[s][i]) }
		a := 0.0
		for i := 1; i < len(g); i++ {
			a += float64(g[i]-g[i-1]) * (d(i-1) + d(i)) / 2
		}
		out[s] = a / span
	}
	return out
}

// At returns the learner's and the twin's values over seeds at grid index i.
func (c *TwinCurves) At(i int) (own, twin []float64) {
	for s := range c.Own {
		own = append(own, c.Own[s][i])
		twin = append(twin, c.Twin[s][i])
	}
	return own, twin
}

// Savings is the comparison of a learner with its passive twin on one
// problem and metric (a row of the savings table).
type Savings struct {
	Metric string
	Seeds  int
	T      int // the last checkpoint
	// Start is the mean at the first checkpoint (t = 0: the untrained
	// model, the same for the learner and its twin).
	Start float64
	// Final means over seeds with the half-widths of their 95% t-intervals.
	Own, OwnHalf, Twin, TwinHalf float64
	// One-sided paired p-values at T that the learner is better (PBetter)
	// and that the twin is better (PWorse), by the deciding test (Deciding)
	// and by the other one (…Other).
	Deciding                  Test
	PBetter, PWorse           float64
	PBetterOther, PWorseOther float64
	Match, MatchLo, MatchHi   float64 // labels-to-match and its 95% bootstrap interval
	Area, AreaHalf            float64 // area between the curves, mean ± 95% t half-width
	Verdict                   Verdict
}

// Verdict is the reading of a Savings row.
type Verdict string

// The readings, in the order they are checked: the twin significantly
// better at T (one-sided, deciding test, 5%); else the twin's mean at T no
// better than the untrained model's (t = 0, which the learner and its twin
// share), so that there is no level to reach and labels-to-match is 0 by
// definition; else the learner reaches the twin's final level with fewer
// duels, the whole bootstrap interval of labels-to-match below T; else
// neither resolved.
const (
	TwinBetter   Verdict = "passive twin better at T"
	TwinNoGain   Verdict = "twin no better than untrained"
	SavesLabels  Verdict = "saves labels"
	NotResolved  Verdict = "no resolved saving"
	NotAvailable Verdict = "n/a"
)

// Compare computes the savings row of c.
func (c *TwinCurves) Compare() Savings {
	last := len(c.Grid) - 1
	own, twin := c.At(last)
	s := Savings{Metric: c.Metric, Seeds: len(c.Own), T: c.Grid[last], Deciding: DecidingTest(c.Metric)}
	first, _ := c.At(0)
	s.Start, _ = stats.MeanCI(first, 0.95)
	s.Own, s.OwnHalf = stats.MeanCI(own, 0.95)
	s.Twin, s.TwinHalf = stats.MeanCI(twin, 0.95)
	better, worse := own, twin // better: H1 own below twin (lower is better)
	if higherIsBetter(c.Metric) {
		better, worse = twin, own
	}
	other := TTest
	if s.Deciding == TTest {
		other = SignedRank
	}
	s.PBetter, s.PWorse = PairedLess(s.Deciding, better, worse), PairedLess(s.Deciding, worse, better)
	s.PBetterOther, s.PWorseOther = PairedLess(other, better, worse), PairedLess(other, worse, better)
	s.Match, s.MatchLo, s.MatchHi = c.LabelsToMatchCI()
	s.Area, s.AreaHalf = stats.MeanCI(c.Areas(), 0.95)
	switch {
	case math.IsNaN(s.PWorse) || math.IsNaN(s.Match) || math.IsNaN(s.MatchHi):
		s.Verdict = NotAvailable
	case s.PWorse < 0.05:
		s.Verdict = TwinBetter
	case !(c.sign()*s.Twin < c.sign()*s.Start):
		s.Verdict = TwinNoGain
	case s.MatchHi < float64(s.T):
		s.Verdict = SavesLabels
	default:
		s.Verdict = NotResolved
	}
	return s
}

// MatchText writes labels-to-match with its interval: "180 [120, 260]",
// "> 1000" when the learner does not reach its twin's final level.
func (s Savings) MatchText() string {
	f := func(x float64) string {
		if math.IsInf(x, 1) {
			return fmt.Sprintf("> %d", s.T)
		}
		return fmt.Sprintf("%.0f", x)
	}
	if math.IsNaN(s.Match) {
		return "n/a"
	}
	return f(s.Match) + " [" + f(s.MatchLo) + ", " + f(s.MatchHi) + "]"
}

// Share is labels-to-match as a share of the twin's T duels (+Inf when not
// reached).
func (s Savings) Share() float64 { return s.Match / float64(s.T) }
