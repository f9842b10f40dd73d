package verify

import (
	"context"
	"hash/fnv"
	"math"
	"slices"
	"testing"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/theory"
)

// fakeResults serves made-up runs: every checkpoint of the spec's schedule
// with the float metrics NaN (nan) or a positive value that depends on the
// algorithm, seed and round.
type fakeResults struct{ nan bool }

func (f fakeResults) Get(s experiments.Spec) (*experiments.Result, error) {
	h := fnv.New32a()
	h.Write([]byte(s.Algorithm + s.Problem.Name))
	base := 1 + float64(h.Sum32()%1000)/100 + float64(s.Seed)/7
	res := &experiments.Result{Spec: s, ExtraColumns: []string{"test_accuracy", "test_logloss"}}
	for t := 0; ; t = min(t+s.Every, s.T) {
		v := base / math.Sqrt(1+float64(t))
		if f.nan {
			v = math.NaN()
		}
		res.Checkpoints = append(res.Checkpoints, experiments.Checkpoint{T: t, WorstGap: v, MeanGap: v, QueriedGap: v, AvgRegret: v, TopShare: v, Distinct: 5 + int(s.Seed)%3, Extra: []float64{v, v}})
		if t == s.T {
			return res, nil
		}
	}
}

// theoryClaims are the claims decided by package theory's computations
// rather than from runs; TestTheoryClaimsFailClosed covers them.
var theoryClaims = []string{"5a", "5b", "6"}

// TestClaimsFailClosed proves for every claim of the table that a NaN
// statistic makes it undecided, never "holds" or "does not hold". Runs whose
// metrics are NaN make every claim that reads a float metric undecided; claim
// 7 counts distinct contexts, an integer, so a single seed (no variance, no
// p-value) stands in for its NaN. With one seed every claim's statistic is
// NaN except the trend regressions of 3a and 3b, whose grid of four settings
// still gives a slope with two degrees of freedom.
func TestClaimsFailClosed(t *testing.T) {
	ctx := context.Background()
	oneSeed := Reduced
	oneSeed.Seeds = 1
	for _, c := range Table() {
		if c.Runs == nil {
			if !slices.Contains(theoryClaims, c.ID) {
				t.Errorf("claim %s has no runs and is not one of the theory claims %v: add its fail-closed test", c.ID, theoryClaims)
			}
			continue
		}
		if c.ID != "7" {
			out, err := c.Evaluate(ctx, c.ScaleFor(Reduced), fakeResults{nan: true})
			if err != nil {
				t.Errorf("claim %s on NaN metrics: %v", c.ID, err)
			} else if out.Verdict != Undecided {
				t.Errorf("claim %s on NaN metrics: verdict %q, want %q (%s)", c.ID, out.Verdict, Undecided, out.Result)
			}
		}
		if c.ID != "3a" && c.ID != "3b" {
			out, err := c.Evaluate(ctx, oneSeed, fakeResults{})
			if err != nil {
				t.Errorf("claim %s with one seed: %v", c.ID, err)
			} else if out.Verdict != Undecided {
				t.Errorf("claim %s with one seed: verdict %q, want %q (%s)", c.ID, out.Verdict, Undecided, out.Result)
			}
		}
	}
	if (Row{Claim: Claim{Recorded: both(Holds)}, Outcome: Outcome{Verdict: Undecided}, Scale: "reduced"}).Agrees() {
		t.Error("an undecided verdict agrees with a recorded one: TestClaims would pass on NaN data")
	}
}

// TestTheoryClaimsFailClosed: claims 5a, 5b and 6 are undecided when a
// number they are decided from is NaN (a violation count cannot see a NaN
// norm, and a NaN slope compares false with any bound).
func TestTheoryClaimsFailClosed(t *testing.T) {
	o := theory.DefaultTheorem1Options(true)
	o.Generators = o.Generators[:1]
	o.Seeds, o.T = 3, []int{8, 16, 32}
	o.SlopePoints = 3
	rep, err := theory.CheckTheorem1(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []theory.Claim{theory.Literal, theory.Repaired} {
		out, err := theorem1Outcome(rep, c)
		if err != nil || out.Verdict == Undecided {
			t.Fatalf("%v on finite data: %q, %v", c, out.Verdict, err)
		}
	}
	rep.Points[1].MaxNorm = math.NaN()
	for _, c := range []theory.Claim{theory.Literal, theory.Repaired} {
		if out, _ := theorem1Outcome(rep, c); out.Verdict != Undecided {
			t.Errorf("%v with a NaN max norm: verdict %q, want %q", c, out.Verdict, Undecided)
		}
	}

	ok := theory.Slope{Value: 0.1, Half: 0.05, Points: 4, OK: true}
	for _, tc := range []struct {
		name  string
		slope theory.Slope
		want  Verdict
	}{
		{"finite, below", ok, Holds},
		{"finite, interval reaches 1/2", theory.Slope{Value: 0.495, Half: 0.105, Points: 4, OK: true}, NotResolved},
		{"finite, interval above 1/2", theory.Slope{Value: 0.7, Half: 0.1, Points: 4, OK: true}, DoesNotHold},
		{"finite, interval from 1/2 up", theory.Slope{Value: 0.6, Half: 0.1, Points: 4, OK: true}, DoesNotHold},
		{"NaN value", theory.Slope{Value: math.NaN(), Half: 0.1, Points: 4, OK: true}, Undecided},
		{"NaN half-width", theory.Slope{Value: 0.1, Half: math.NaN(), Points: 4, OK: true}, Undecided},
		{"no slope", theory.Slope{Points: 2}, Undecided},
	} {
		rep := &theory.PaperScaleReport{P: 10, Summaries: []theory.PaperScaleSummary{{Algorithm: "a", DTildeSlope: ok}, {Algorithm: "b", DTildeSlope: tc.slope}}}
		if got := effectiveDimensionOutcome(rep, 2).Verdict; got != tc.want {
			t.Errorf("claim 6, %s: verdict %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := effectiveDimensionOutcome(&theory.PaperScaleReport{}, 2).Verdict; got != Undecided {
		t.Errorf("claim 6 without learners: verdict %q, want %q", got, Undecided)
	}
}

// TestDecisionRules pins the decision rules on finite and NaN inputs.
func TestDecisionRules(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		got  Verdict
		want Verdict
	}{
		{"all significant", allSignificant([]float64{0.01, 0.02}), Holds},
		{"one not significant", allSignificant([]float64{0.01, 0.2}), DoesNotHold},
		{"all: a NaN", allSignificant([]float64{0.01, nan}), Undecided},
		{"all: a NaN and a non-significant", allSignificant([]float64{0.5, nan}), Undecided},
		{"all: empty", allSignificant(nil), Undecided},
		{"none significant", noneSignificant([]float64{0.3, 0.2}), Holds},
		{"one significant", noneSignificant([]float64{0.01, 0.2}), DoesNotHold},
		{"none: a NaN", noneSignificant([]float64{0.3, nan}), Undecided},
		{"below", below(-0.3, 0.1, 0), Holds},
		{"interval straddles the bound", below(-0.05, 0.1, 0), NotResolved},
		{"interval ends at the bound", below(-0.1, 0.1, 0), NotResolved},
		{"interval starts at the bound", below(0.1, 0.1, 0), DoesNotHold},
		{"interval above the bound", below(0.5, 0.1, 0), DoesNotHold},
		{"below: NaN mean", below(nan, 0.1, 0), Undecided},
		{"below: NaN half-width", below(-1, nan, 0), Undecided},
		{"below: negative half-width", below(-1, -0.1, 0), Undecided},
		{"differs", differs(0.01), Holds},
		{"differs: not significant", differs(0.05), NotResolved},
		{"differs: NaN", differs(nan), Undecided},
		{"all or reversed: all significant", allSignificantOrReversed([]float64{0.01, 0.02}, []float64{1, 1}), Holds},
		{"all or reversed: one reversed", allSignificantOrReversed([]float64{0.01, 1}, []float64{1, 0.01}), DoesNotHold},
		{"all or reversed: reversed at the level", allSignificantOrReversed([]float64{0.01, 1}, []float64{1, 0.05}), NotResolved},
		{"all or reversed: neither way", allSignificantOrReversed([]float64{0.01, 0.2}, []float64{1, 0.8}), NotResolved},
		{"all or reversed: none significant, none reversed", allSignificantOrReversed([]float64{0.5, 0.5}, []float64{0.5, 0.5}), NotResolved},
		{"all or reversed: a NaN forward", allSignificantOrReversed([]float64{0.01, nan}, []float64{1, 0.01}), Undecided},
		{"all or reversed: a NaN reverse", allSignificantOrReversed([]float64{0.2, 0.01}, []float64{0.01, nan}), Undecided},
		{"all or reversed: empty", allSignificantOrReversed(nil, nil), Undecided},
		{"all or reversed: lengths differ", allSignificantOrReversed([]float64{0.01}, []float64{1, 1}), Undecided},
		{"parts: all hold", allParts(Holds, Holds), Holds},
		{"parts: one not resolved", allParts(Holds, NotResolved), NotResolved},
		{"parts: one does not hold", allParts(NotResolved, DoesNotHold, Holds), DoesNotHold},
		{"parts: one undecided", allParts(DoesNotHold, Undecided), Undecided},
		{"parts: none", allParts(), Undecided},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}
