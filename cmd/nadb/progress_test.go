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

// TestProgressSummary counts the runs run, read from the cache and read off
// another run, and warns that the cache is keyed by configuration only when
// some run came from it.
func TestProgressSummary(t *testing.T) {
	p := newProgress(&bytes.Buffer{}, "quick", 1)
	p.event(sweep.Event{Done: 1, Total: 3, Wall: 1})
	p.event(sweep.Event{Done: 2, Total: 3, Thinned: true})
	if got := p.summary("c"); got != "runs: 1 executed, 0 read from the cache in c, 1 read off another run" {
		t.Errorf("no cached run: summary %q", got)
	}
	p.event(sweep.Event{Done: 3, Total: 3, Cached: true})
	if got := p.summary("c"); !strings.HasPrefix(got, "runs: 1 executed, 1 read from the cache in c, 1 read off another run (") || !strings.Contains(got, "not by the code") {
		t.Errorf("a cached run: summary %q, want the counts and the warning", got)
	}
}
