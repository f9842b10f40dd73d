package verify

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/experiments"
)

// nonLearner serves runs of a learner that does not learn: its final mean
// gap is exactly a uniformly random policy's on the instance.
type nonLearner struct{ t *testing.T }

func (n nonLearner) Get(s experiments.Spec) (*experiments.Result, error) {
	g, err := randomPolicyGap(s)
	if err != nil {
		return nil, err
	}
	cp := experiments.Checkpoint{T: s.T, WorstGap: 3 * g, MeanGap: g, QueriedGap: g, AvgRegret: g, TopShare: 0.01, Distinct: 5}
	return &experiments.Result{Spec: s, Checkpoints: []experiments.Checkpoint{cp}}, nil
}

// TestSanityGuardsCatchANonLearner: the guards 0a and 0b do not hold for a
// learner that ends where a uniformly random policy is (0a: it does not hold,
// the random policy's half being lower; 0b: not resolved, the two equal),
// while the claims they guard (2a–2c, 8a–8c), whose every learner ends at the
// same gap, are not resolved: failing to reject in both directions is not
// evidence against them.
func TestSanityGuardsCatchANonLearner(t *testing.T) {
	ctx := context.Background()
	for _, c := range Table() {
		var want Verdict
		switch c.ID {
		case "0a":
			want = DoesNotHold
		case "0b", "2a", "2b", "2c", "8a", "8b", "8c":
			want = NotResolved
		default:
			continue
		}
		out, err := c.Evaluate(ctx, Reduced, nonLearner{t})
		if err != nil {
			t.Fatal(err)
		}
		if out.Verdict != want {
			t.Errorf("claim %s on a non-learner: %q, want %q (%s)", c.ID, out.Verdict, want, out.Result)
		}
	}
}

// TestMarkdownNamesRecordedVerdicts: the claims table calls the recorded
// verdict a regression guard, never an expectation (which would read as a
// preregistration).
func TestMarkdownNamesRecordedVerdicts(t *testing.T) {
	rows := []Row{{Claim: Table()[0], Outcome: Outcome{Verdict: Holds, Result: "r"}, Scale: "reduced"}}
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, rows); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	if !strings.Contains(md, "recorded verdict (regression guard)") || !strings.Contains(md, "not a preregistration") {
		t.Errorf("table does not name the recorded verdict as a regression guard:\n%s", md)
	}
	if lower := strings.ToLower(md); strings.Contains(lower, "expected verdict") || strings.Contains(lower, "| expected |") || strings.Contains(lower, "differs from expected") {
		t.Errorf("table speaks of expected verdicts:\n%s", md)
	}
}
