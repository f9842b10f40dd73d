package verify

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/neural-adb/nadb/experiments/sweep"
)

// cacheDir is the run cache the tests of this package share (TestMain), so
// that a run two tests need is computed once.
var cacheDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "nadb-verify-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cacheDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// sharedCache returns the package's shared run cache.
func sharedCache(t *testing.T) *sweep.Cache {
	t.Helper()
	return &sweep.Cache{Dir: cacheDir}
}

// TestClaims evaluates every claim at the reduced scale and fails for each
// claim whose computed verdict differs from the recorded one (an undecided
// verdict never agrees). With
// NADB_CLAIMS_OUT=FILE it also writes the Markdown table there (the
// paper-scale table is made by make verify into figures/claims.md).
func TestClaims(t *testing.T) {
	rows, err := Evaluate(context.Background(), Reduced, Options{Cache: sharedCache(t)})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, rows); err != nil {
		t.Fatal(err)
	}
	if out := os.Getenv("NADB_CLAIMS_OUT"); out != "" {
		if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
			t.Error(err)
		}
	}
	for _, r := range rows {
		if r.Err != nil {
			t.Errorf("claim %s: %v", r.ID, r.Err)
			continue
		}
		t.Logf("claim %s: %s — %s", r.ID, r.Verdict, r.Result)
		if !r.Agrees() {
			t.Errorf("claim %s (%s): computed %q, recorded %q (%s)\n  %s", r.ID, r.Claim.Claim, r.Verdict, r.Recorded[r.Scale], r.Why, r.Result)
		}
	}
}

// TestTableIsComplete checks that every claim states its source, statistic,
// test, recorded verdicts for both scales and an explanation.
func TestTableIsComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Table() {
		if seen[c.ID] {
			t.Errorf("duplicate claim id %s", c.ID)
		}
		seen[c.ID] = true
		if c.Claim == "" || c.Source == "" || c.Statistic == "" || c.Test == "" || c.Why == "" || c.Evaluate == nil {
			t.Errorf("claim %s is incomplete: %+v", c.ID, c)
		}
		for _, sc := range []string{"reduced", "paper"} {
			v := c.Recorded[sc]
			if v == Pending && sc == "paper" && c.Prereg != "" {
				continue // pre-registered, not yet run at paper scale
			}
			if v != Holds && v != DoesNotHold && v != NotResolved {
				t.Errorf("claim %s: recorded verdict at %s scale is %q", c.ID, sc, v)
			}
		}
	}
}
