package verify

import (
	"context"
	"testing"

	"github.com/neural-adb/nadb/experiments"
)

// shiftedRuns serves runs whose final gaps are a per-(algorithm, problem)
// level plus a per-seed wobble shared by every algorithm on the same seed
// (the same instance) and a small per-algorithm one, so that paired tests see
// the levels' differences against a little noise.
type shiftedRuns map[[2]string]float64

func (r shiftedRuns) Get(s experiments.Spec) (*experiments.Result, error) {
	k := float64(s.Seed%5) - 2 // shared by every algorithm: cancels in pairs
	own := 0.01 * float64((s.Seed*uint64(len(s.Algorithm)))%3)
	g := r[[2]string{s.Algorithm, s.Problem.Name}] + 0.1*k + own
	cp := experiments.Checkpoint{T: s.T, WorstGap: 3 * g, MeanGap: g, QueriedGap: g, AvgRegret: g, TopShare: 0.01, Distinct: 5}
	return &experiments.Result{Spec: s, Checkpoints: []experiments.Checkpoint{cp}}, nil
}

// TestEverySignificantOrReversed decides claim 8c (neural-adb-tsctx-ucb's
// mean gap below neural-adb-ucb-randctx's on Square and Sine) on made-up runs
// that give each verdict of the rule: holds when both are lower, does not
// hold when one is higher (the reverse test significant), not resolved when
// one is lower and the other level (no test rejects in either direction).
func TestEverySignificantOrReversed(t *testing.T) {
	const ts, rnd = "neural-adb-tsctx-ucb", "neural-adb-ucb-randctx"
	var c8c Claim
	for _, c := range Table() {
		if c.ID == "8c" {
			c8c = c
		}
	}
	if c8c.Evaluate == nil {
		t.Fatal("no claim 8c")
	}
	for _, tc := range []struct {
		name             string
		squareTS, sineTS float64 // levels against randctx's 1 on both
		want             Verdict
	}{
		{"lower on both", 0.5, 0.5, Holds},
		{"lower on one, higher on the other", 0.5, 1.5, DoesNotHold},
		{"higher on both", 1.5, 1.5, DoesNotHold},
		{"lower on one, level on the other", 0.5, 1, NotResolved},
		{"level on both", 1, 1, NotResolved},
	} {
		runs := shiftedRuns{{ts, "square"}: tc.squareTS, {ts, "sine"}: tc.sineTS, {rnd, "square"}: 1, {rnd, "sine"}: 1}
		out, err := c8c.Evaluate(context.Background(), Reduced, runs)
		if err != nil {
			t.Fatal(err)
		}
		if out.Verdict != tc.want {
			t.Errorf("%s: %q, want %q (%s)", tc.name, out.Verdict, tc.want, out.Result)
		}
	}
}
