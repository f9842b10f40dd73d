package verify

// Constructors of the claims about the paper's experiments (claims 1–4, 7).

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/sweep"
	"github.com/neural-adb/nadb/internal/stats"
)

// rateClaim: the gap decreases in T at a polynomial (sub-linear) rate.
func rateClaim(id, algo, name, metric, mname string) Claim {
	return Claim{
		ID:        id,
		Claim:     fmt.Sprintf("The %s of Neural-ADB (%s) decreases as T grows (the paper: at the sub-linear rate Õ(√(d̃/T)); tested here only that it decreases)", mname, name),
		Source:    "Theorems 2 and 3; Section 4, Figure 1",
		Statistic: "per seed, least-squares slope of log(" + metric + ") on log t over checkpoints t ≥ T/10 (Square); mean slope across seeds with 95% t-interval; −1/2 is the rate of the bound",
		Test:      "holds if the interval lies below 0, does not hold if it lies at or above 0, else not resolved",
		Runs:      func(sc Scale) []experiments.Spec { return sc.SeedsOf(spec(sc, algo, "square")) },
		Evaluate: func(ctx context.Context, sc Scale, r Results) (Outcome, error) {
			var slopes []float64
			for _, s := range sc.SeedsOf(spec(sc, algo, "square")) {
				res, err := r.Get(s)
				if err != nil {
					return Outcome{}, err
				}
				var x, y []float64
				for _, cp := range res.Checkpoints {
					v, _ := experiments.Metric(res, cp, metric)
					if cp.T >= sc.T/10 && v > 0 {
						x = append(x, math.Log(float64(cp.T)))
						y = append(y, math.Log(v))
					}
				}
				b := math.NaN()
				if len(x) >= 3 {
					b, _ = stats.Slope(x, y, 0.95)
				}
				recordValue(r, s, "slope of log "+metric+" on log t (t >= T/10)", res.Checkpoints[len(res.Checkpoints)-1].T, b)
				slopes = append(slopes, b)
			}
			// A seed without a slope (fewer than three positive values) leaves
			// the claim undecided rather than being dropped.
			m, h := stats.MeanCI(slopes, 0.95)
			out := Outcome{Verdict: below(m, h, 0)}
			rel := "excludes"
			if m-h <= -0.5 && -0.5 <= m+h {
				rel = "contains"
			}
			out.Result = fmt.Sprintf("log–log slope %.3f ± %.3f (n = %d seeds; the interval %s −0.5)", m, h, len(slopes), rel)
			if n := countNaN(slopes); n > 0 {
				out.Result += fmt.Sprintf("; %d seeds have fewer than 3 positive checkpoints, so no slope", n)
			}
			_, sd := stat.MeanStdDev(slopes, nil)
			out.Power = fmt.Sprintf("detects a mean slope of %.3f below 0 at 80%% power", stats.PairedMDE(len(slopes), sd, alpha, 0.8))
			return out, nil
		},
	}
}

// comparison is one one-sided paired test "a < b" of a claim's family.
type comparison struct {
	label string
	a, b  []float64
}

// familyResult is a claim's family of one-sided paired t-tests.
type familyResult struct {
	adj      []float64 // Holm-adjusted p-values, in the order of the comparisons
	rev      []float64 // Holm-adjusted p-values of the reverse tests "b < a", same order
	rejected []string  // labels that reject at level alpha
	kept     []string  // the others, with their adjusted p-values and detectable differences
	mdes     []float64 // each test's detectable difference at 80% power (Bonferroni level), same order
	mde      float64   // their median
}

// keptLabel is the entry of kept for comparison i: its label, its
// adjusted p-value, that of its reverse test (which decides "does not
// hold", allSignificantOrReversed) and the difference it detects at 80%
// power, in the units of its own metric (a family may mix metrics, whose
// median detectable difference would hide a weak test).
func (f familyResult) keptLabel(label string, i int) string {
	return fmt.Sprintf("%s (adj. %s; reverse adj. %s; detects %.3g)", label, pvalue(f.adj[i]), pvalue(f.rev[i]), f.mdes[i])
}

// family runs the one-sided paired t-tests of cmps and Holm-corrects them,
// and the reverse one-sided tests, Holm-corrected over the same family (the
// evidence that contradicts a claim, allSignificantOrReversed). The
// detectable difference uses the Bonferroni level, a conservative stand-in
// for Holm's.
func family(cmps []comparison) familyResult {
	p := make([]float64, len(cmps))
	rev := make([]float64, len(cmps))
	var sds []float64
	for i, c := range cmps {
		p[i] = stats.PairedTLess(c.a, c.b).P
		rev[i] = stats.PairedTLess(c.b, c.a).P
		d := make([]float64, len(c.a))
		for k := range d {
			d[k] = c.a[k] - c.b[k]
		}
		_, sd := stat.MeanStdDev(d, nil)
		sds = append(sds, sd)
	}
	var f familyResult
	f.adj, f.rev = stats.Holm(p), stats.Holm(rev)
	for i, c := range cmps {
		f.mdes = append(f.mdes, stats.PairedMDE(len(c.a), sds[i], alpha/float64(len(cmps)), 0.8))
	}
	for i, c := range cmps {
		if f.adj[i] < alpha {
			f.rejected = append(f.rejected, c.label)
		} else {
			f.kept = append(f.kept, f.keptLabel(c.label, i))
		}
	}
	f.mde = math.NaN()
	if len(f.mdes) > 0 {
		f.mde = slices.Sorted(slices.Values(f.mdes))[len(f.mdes)/2]
	}
	return f
}

// summary states how many tests of the family are significant.
func (f familyResult) summary() string {
	s := fmt.Sprintf("%d of %d Holm-corrected one-sided paired t-tests significant at 5%%", len(f.rejected), len(f.adj))
	if len(f.kept) > 0 {
		s += "; not significant: " + strings.Join(f.kept, ", ")
	}
	if n := countNaN(f.adj); n > 0 {
		s += fmt.Sprintf(" (%d tests could not be computed: undecided)", n)
	}
	return s
}

// countNaN counts the NaN values of x.
func countNaN(x []float64) int {
	n := 0
	for _, v := range x {
		if math.IsNaN(v) {
			n++
		}
	}
	return n
}

// comparisonRuns are the runs of Figure 1: every algorithm of the paper's
// comparison on Square and Sine.
func comparisonRuns(sc Scale) []experiments.Spec {
	var out []experiments.Spec
	for _, p := range []string{"square", "sine"} {
		for _, a := range sweep.PaperAlgorithms {
			out = append(out, sc.SeedsOf(spec(sc, a, p))...)
		}
	}
	return out
}

func lowestWorstGap() Claim {
	others := slices.DeleteFunc(slices.Clone(sweep.PaperAlgorithms), func(a string) bool { return a == "neural-adb-ucb" })
	return Claim{
		ID:        "2a",
		Claim:     "Neural-ADB (UCB) has the lowest worst gap on Square and Sine",
		Source:    "Section 4, Figure 1",
		Statistic: "final worst gap per seed (T), Neural-ADB (UCB) against every other algorithm, Square and Sine",
		Test:      "one-sided paired t-test per algorithm and problem (same seeds = same instances), Holm-corrected; holds if every test is significant, does not hold if the reverse test of some comparison is (Holm over the same family), else not resolved",
		Runs:      comparisonRuns,
		Evaluate: func(ctx context.Context, sc Scale, r Results) (Outcome, error) {
			var cmps []comparison
			for _, p := range []string{"square", "sine"} {
				ucb, err := final(sc, r, spec(sc, "neural-adb-ucb", p), "worst_gap")
				if err != nil {
					return Outcome{}, err
				}
				for _, o := range others {
					v, err := final(sc, r, spec(sc, o, p), "worst_gap")
					if err != nil {
						return Outcome{}, err
					}
					cmps = append(cmps, comparison{o + "/" + p, ucb, v})
				}
			}
			f := family(cmps)
			out := Outcome{Verdict: allSignificantOrReversed(f.adj, f.rev), Result: f.summary()}
			out.Power = fmt.Sprintf("median detectable difference %.3g over the family's tests (80%% power, Bonferroni level; each test not significant names its own)", f.mde)
			return out, nil
		},
	}
}

func beatsBaselines(id, metric, mname string) Claim {
	var baselines []string
	for _, a := range sweep.PaperAlgorithms {
		if !strings.HasPrefix(a, "neural-adb-ucb") && !strings.HasPrefix(a, "neural-adb-ts") {
			baselines = append(baselines, a)
		}
	}
	return Claim{
		ID:        id,
		Claim:     fmt.Sprintf("Neural-ADB (UCB and TS) beats every baseline on %s, on Square and Sine", mname),
		Source:    "Section 4, Figure 1",
		Statistic: "final " + metric + " per seed, each Neural-ADB variant against each baseline, Square and Sine",
		Test:      "one-sided paired t-tests, Holm-corrected over the family; holds if every test is significant, does not hold if the reverse test of some comparison is (Holm over the same family), else not resolved",
		Runs:      comparisonRuns,
		Evaluate: func(ctx context.Context, sc Scale, r Results) (Outcome, error) {
			var cmps []comparison
			for _, p := range []string{"square", "sine"} {
				for _, n := range []string{"neural-adb-ucb", "neural-adb-ts"} {
					mine, err := final(sc, r, spec(sc, n, p), metric)
					if err != nil {
						return Outcome{}, err
					}
					for _, b := range baselines {
						v, err := final(sc, r, spec(sc, b, p), metric)
						if err != nil {
							return Outcome{}, err
						}
						cmps = append(cmps, comparison{strings.TrimPrefix(n, "neural-adb-") + "<" + b + "/" + p, mine, v})
					}
				}
			}
			f := family(cmps)
			out := Outcome{Verdict: allSignificantOrReversed(f.adj, f.rev), Result: f.summary()}
			out.Power = fmt.Sprintf("median detectable difference %.3g over the family's tests (80%% power, Bonferroni level; each test not significant names its own)", f.mde)
			return out, nil
		},
	}
}

func trendClaim(id, axis string) Claim {
	algos := []string{"neural-adb-ucb", "neural-adb-ts"}
	metrics := []string{"worst_gap", "mean_gap"}
	return Claim{
		ID:        id,
		Claim:     fmt.Sprintf("Neural-ADB (UCB and TS) performs worse as %s grows", axis),
		Source:    "Section 4, Figures 2 and 3",
		Statistic: fmt.Sprintf("least-squares slope of the final worst gap and mean gap on %s over the ablation grid, seeds as replicates (Square)", axis),
		Test:      "one-sided t-test of slope > 0 for each algorithm and metric, Holm-corrected; holds if all four are significant, does not hold if some slope < 0 test is (Holm over the same four), else not resolved",
		Runs: func(sc Scale) []experiments.Spec {
			var out []experiments.Spec
			for _, a := range algos {
				runs, _ := sweep.GridRuns(sc, a, axis)
				for _, s := range runs {
					out = append(out, sc.SeedsOf(s)...)
				}
			}
			return out
		},
		Evaluate: func(ctx context.Context, sc Scale, r Results) (Outcome, error) {
			var p, rev []float64
			var parts []string
			for _, a := range algos {
				for _, m := range metrics {
					var x, y []float64
					runs, grid := sweep.GridRuns(sc, a, axis)
					for i, v := range grid {
						vals, err := final(sc, r, runs[i], m)
						if err != nil {
							return Outcome{}, err
						}
						for _, val := range vals {
							x = append(x, float64(v))
							y = append(y, val)
						}
					}
					b, h, pg := stats.SlopeTest(x, y, 0.95)
					p, rev = append(p, pg), append(rev, 1-pg) // the reverse test: slope < 0
					parts = append(parts, fmt.Sprintf("%s %s: %.3g ± %.3g per unit", strings.TrimPrefix(a, "neural-adb-"), m, b, h))
				}
			}
			adj := stats.Holm(p)
			for i := range adj {
				parts[i] += " (adj. " + pvalue(adj[i]) + ")"
			}
			out := Outcome{Verdict: allSignificantOrReversed(adj, stats.Holm(rev)), Result: strings.Join(parts, "; ")}
			return out, nil
		},
	}
}

func networkClaim(id, axis string) Claim {
	return Claim{
		ID:        id,
		Claim:     fmt.Sprintf("Network %s matters: Neural-ADB's performance differs across the %s ablation", axis, axis),
		Source:    "Appendix B, Figure 6",
		Statistic: fmt.Sprintf("final mean gap of Neural-ADB (UCB) on Square per %s setting", axis),
		Test:      "one-way ANOVA across settings; holds if p < 0.05, else not resolved (a non-significant ANOVA cannot show the settings equal)",
		Runs: func(sc Scale) []experiments.Spec {
			var out []experiments.Spec
			runs, _ := sweep.NetworkRuns(sc, axis)
			for _, s := range runs {
				out = append(out, sc.SeedsOf(s)...)
			}
			return out
		},
		Evaluate: func(ctx context.Context, sc Scale, r Results) (Outcome, error) {
			var groups [][]float64
			runs, grid := sweep.NetworkRuns(sc, axis)
			for i := range grid {
				vals, err := final(sc, r, runs[i], "mean_gap")
				if err != nil {
					return Outcome{}, err
				}
				groups = append(groups, vals)
			}
			a := stats.OneWayANOVA(groups)
			var means []string
			for i, v := range grid {
				means = append(means, fmt.Sprintf("%d: %.3g", v, a.GroupMeans[i]))
			}
			out := Outcome{Verdict: differs(a.P)}
			out.Result = fmt.Sprintf("F(%d, %d) = %.2f, %s, η² = %.2f; means %s", a.DFb, a.DFw, a.F, pvalue(a.P), a.EtaSquared, strings.Join(means, ", "))
			return out, nil
		},
	}
}

func lockOnClaim() Claim {
	return Claim{
		ID:        "7",
		Claim:     "Neural-ADB's context rule explores the context space (queries at least as many distinct contexts as uniformly random context choice)",
		Source:    "Section 1 (\"context selection aims to encourage diversity\"), eq. (3)",
		Statistic: "distinct contexts queried by T, Neural-ADB as written vs the same arm rule on uniformly random contexts (randctx), UCB and TS, Square and Sine",
		Test:      "one-sided paired t-tests of fewer distinct contexts than randctx, Holm-corrected; the claim does not hold if any is significant",
		Runs: func(sc Scale) []experiments.Spec {
			var out []experiments.Spec
			for _, p := range []string{"square", "sine"} {
				for _, a := range []string{"neural-adb-ucb", "neural-adb-ts", "neural-adb-ucb-randctx", "neural-adb-ts-randctx"} {
					out = append(out, sc.SeedsOf(spec(sc, a, p))...)
				}
			}
			return out
		},
		Evaluate: func(ctx context.Context, sc Scale, r Results) (Outcome, error) {
			var cmps []comparison
			var parts []string
			for _, p := range []string{"square", "sine"} {
				for _, a := range []string{"neural-adb-ucb", "neural-adb-ts"} {
					mine, err := final(sc, r, spec(sc, a, p), "distinct_contexts")
					if err != nil {
						return Outcome{}, err
					}
					rnd, err := final(sc, r, spec(sc, a+"-randctx", p), "distinct_contexts")
					if err != nil {
						return Outcome{}, err
					}
					cmps = append(cmps, comparison{a + "/" + p, mine, rnd})
					m1, h1 := stats.MeanCI(mine, 0.95)
					m2, _ := stats.MeanCI(rnd, 0.95)
					parts = append(parts, fmt.Sprintf("%s/%s %.1f ± %.1f vs %.1f", strings.TrimPrefix(a, "neural-adb-"), p, m1, h1, m2))
				}
			}
			f := family(cmps)
			out := Outcome{Verdict: noneSignificant(f.adj), Result: fmt.Sprintf("distinct contexts of %d: %s; %d of %d fewer-than-random tests significant", sc.Problem.Contexts, strings.Join(parts, "; "), len(f.rejected), len(cmps))}
			return out, nil
		},
	}
}
