package verify

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/sweep"
)

// Claim 10b's decision rule (verify/prereg/target.json) on made-up numbers.

func TestTwinAtReference(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		metric    string
		twin, ref float64
		want      referenceState
	}{
		{"test_logloss", 0.570, 0.580, refReached},
		{"test_logloss", 0.580, 0.580, refReached}, // "at least as good"
		{"test_logloss", 0.609, 0.580, refNotReached},
		{"test_mean_gap", 0.098, 0.098, refReached},
		{"test_mean_gap", 0.300, 0.098, refNotReached},
		{"test_accuracy", 0.960, 0.951, refReached}, // higher is better
		{"test_accuracy", 0.847, 0.951, refNotReached},
		{"test_logloss", nan, 0.580, refUnknown},
		{"test_logloss", 0.570, nan, refUnknown},
	} {
		if got := twinAtReference(tc.metric, tc.twin, tc.ref); got != tc.want {
			t.Errorf("%s: twin %g, reference %g: %v, want %v", tc.metric, tc.twin, tc.ref, got, tc.want)
		}
	}
}

func TestReadSavings(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		name          string
		seeds         int
		est, hi, half float64
		ref           referenceState
		want          savingsReading
	}{
		{"interval below half", 30, 300, 450, 500, refNone, savingsHolds},
		{"upper end at half", 30, 300, 500, 500, refNone, savingsHolds},
		{"point below, interval above", 30, 400, 620, 500, refNone, savingsNotResolved},
		{"interval unbounded", 30, 400, inf, 500, refNone, savingsNotResolved},
		{"point above half", 30, 520, 700, 500, refNone, savingsFails},
		{"never matches", 30, inf, inf, 500, refNotReached, savingsFails},
		{"twin at the reference exempts", 30, inf, inf, 500, refReached, savingsExempt},
		{"twin at the reference, saving anyway", 30, 200, 300, 500, refReached, savingsExempt},
		{"twin short of the reference", 30, 300, 450, 500, refNotReached, savingsHolds},
		{"reference unknown", 30, 300, 450, 500, refUnknown, savingsUndecided},
		{"one seed", 1, 300, 450, 500, refNone, savingsUndecided},
		{"one seed at the reference", 1, 300, 450, 500, refReached, savingsUndecided},
		{"NaN estimate", 30, nan, 450, 500, refNone, savingsUndecided},
		{"NaN upper end", 30, 300, nan, 500, refNotReached, savingsUndecided},
	} {
		if got := readSavings(tc.seeds, tc.est, tc.hi, tc.half, tc.ref); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestSavingsVerdict(t *testing.T) {
	h, n, f, e, u := savingsHolds, savingsNotResolved, savingsFails, savingsExempt, savingsUndecided
	for _, tc := range []struct {
		name     string
		readings []savingsReading
		want     Verdict
	}{
		{"all hold", []savingsReading{h, h, h, h}, Holds},
		{"the others hold, one exempt", []savingsReading{h, h, e, h}, Holds},
		{"every problem exempt (vacuous, as registered)", []savingsReading{e, e}, Holds},
		{"one does not hold", []savingsReading{h, f, e, h}, DoesNotHold},
		{"one does not hold, one undecided", []savingsReading{u, f}, DoesNotHold},
		{"one not resolved", []savingsReading{h, n, h, h}, NotResolved},
		{"one not resolved, one undecided", []savingsReading{n, u}, Undecided},
		{"one undecided", []savingsReading{h, h, u, h}, Undecided},
		{"no problems", nil, Undecided},
	} {
		if got := savingsVerdict(tc.readings); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestHalfPoint(t *testing.T) {
	for _, tc := range []struct{ T, want int }{{1000, 400}, {500, 200}, {250, 100}} {
		g := sweep.LogGrid(tc.T)
		if got := g[halfPoint(g)]; got != tc.want {
			t.Errorf("T = %d: %d, want %d", tc.T, got, tc.want)
		}
	}
}

// curveResults serves made-up learning curves: value(spec, t) at every
// checkpoint, in every metric.
type curveResults struct {
	value func(s experiments.Spec, t int) float64
}

func (c curveResults) Get(s experiments.Spec) (*experiments.Result, error) {
	res := &experiments.Result{Spec: s, ExtraColumns: []string{"test_logloss", "test_mean_gap", "test_accuracy"}}
	for t := 0; ; t = min(t+s.Every, s.T) {
		v := c.value(s, t)
		res.Checkpoints = append(res.Checkpoints, experiments.Checkpoint{T: t, WorstGap: v, MeanGap: v, QueriedGap: v, AvgRegret: v, Extra: []float64{v, v, v}})
		if t == s.T {
			return res, nil
		}
	}
}

// TestTargetSavingsExemption runs claim 10b on made-up curves at reduced
// scale (Square, Cosine, CEMSChoice), with CEMSChoice's full-data reference
// computed on its real splits: the learner reaches its twin's final level
// within a fifth of the duels on the synthetic problems and never on
// CEMSChoice. With the twin's CEMSChoice log-loss below the reference the
// problem is exempt and the claim holds; above it, it does not hold.
func TestTargetSavingsExemption(t *testing.T) {
	c := targetSavings()
	sc := c.ScaleFor(Reduced)
	for _, tc := range []struct {
		name     string
		twinCEMS float64 // the twin's CEMSChoice log-loss at every t > 0
		want     Verdict
		text     string
	}{
		{"twin below the reference", 0.05, Holds, "twin at the reference (10a only)"},
		{"twin above the reference", 0.9, DoesNotHold, "does not hold"},
	} {
		r := curveResults{func(s experiments.Spec, t int) float64 {
			seed := float64(s.Seed) / 100
			twin := s.Config.Collect == algorithms.CollectPassive
			switch {
			case t == 0:
				return 2 + seed
			case s.Problem.Name == "cems" && twin:
				return tc.twinCEMS + seed
			case s.Problem.Name == "cems":
				return 1 + seed // never reaches the twin
			case twin:
				return 1 + seed - float64(t)/float64(2*s.T)
			}
			return 0.1 + seed // at the twin's final level from t = 25 on
		}}
		rec := &recording{Results: r}
		out, err := c.Evaluate(context.Background(), sc, rec)
		if err != nil {
			t.Fatal(err)
		}
		if out.Verdict != tc.want || !strings.Contains(out.Result, "test_logloss/cems") || !strings.Contains(out.Result, tc.text) {
			t.Errorf("%s: %q (%s), want %q with %q", tc.name, out.Verdict, out.Result, tc.want, tc.text)
		}
		refs := 0
		for _, v := range rec.values {
			if v.Spec.Algorithm == linearReferenceName {
				refs++
				if !(v.Value > 0.3 && v.Value < 0.8) {
					t.Errorf("CEMSChoice's full-data reference log-loss on seed %d is %g", v.Spec.Seed, v.Value)
				}
			}
		}
		if refs != sc.Seeds {
			t.Errorf("%s: %d reference values recorded for the seeds file, want %d", tc.name, refs, sc.Seeds)
		}
	}
}
