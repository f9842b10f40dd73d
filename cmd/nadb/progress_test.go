package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/experiments/sweep"
)

// TestProgressETAWeighsRuns feeds the progress display the events of a
// sweep whose first run took 10 s and was expected to cost 1 s of the 10 s
// in all: the ETA is 90 s on one worker (9 expected seconds left at 10 s per
// expected second), not the 10 s × 6 runs left / 1 run done of counting, and
// 45 s on two. Without expected costs it counts runs.
func TestProgressETAWeighsRuns(t *testing.T) {
	for _, tc := range []struct {
		name           string
		workers        int
		expected, left float64
		want           string
	}{
		{"weighted", 1, 1, 9, "ETA 1m30s"},
		{"weighted, 2 workers", 2, 1, 9, "ETA 45s"},
		{"counted", 1, 0, 0, "ETA 1m0s"},
		{"counted, 2 workers", 2, 0, 0, "ETA 30s"},
	} {
		var buf bytes.Buffer
		p := newProgress(&buf, "paper", tc.workers)
		ev := sweep.Event{Done: 1, Total: 7, Wall: 10, Expected: tc.expected, Left: tc.left}
		ev.Group = "fig"
		p.event(ev)
		if !strings.Contains(buf.String(), tc.want) {
			t.Errorf("%s: progress line %q, want %s", tc.name, buf.String(), tc.want)
		}
	}
}
