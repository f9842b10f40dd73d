package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/neural-adb/nadb/experiments/sweep"
)

// TestProgressETAWeighsRuns feeds the progress display the events of a
// sweep whose first run was expected to cost 1 s of the 10 s in all: after
// 10 s of wall time the ETA is 90 s (9 expected seconds left at 10 s per
// expected second), not the 10 s × 9 runs left / 1 run done of counting.
// Without expected costs it counts runs.
func TestProgressETAWeighsRuns(t *testing.T) {
	for _, tc := range []struct {
		name           string
		expected, left float64
		want           string
	}{
		{"weighted", 1, 9, "ETA 1m30s"},
		{"counted", 0, 0, "ETA 1m0s"},
	} {
		var buf bytes.Buffer
		p := newProgress(&buf, "paper")
		p.start = time.Now().Add(-10 * time.Second)
		ev := sweep.Event{Done: 1, Total: 7, Expected: tc.expected, Left: tc.left}
		ev.Group = "fig"
		p.event(ev)
		if !strings.Contains(buf.String(), tc.want) {
			t.Errorf("%s: progress line %q, want %s", tc.name, buf.String(), tc.want)
		}
	}
}
