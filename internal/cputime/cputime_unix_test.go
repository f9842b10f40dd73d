//go:build unix

package cputime

import (
	"testing"
	"time"
)

// TestProcessGrows checks that busy work moves the count forward.
func TestProcessGrows(t *testing.T) {
	start := Process()
	if start <= 0 {
		t.Fatalf("Process() = %v at the start of a test, want > 0", start)
	}
	x, deadline := 1.0, time.Now().Add(5*time.Second)
	for Since(start) == 0 && time.Now().Before(deadline) {
		for range 100_000 {
			x = x*1.0000001 + 1e-9
		}
	}
	if Since(start) <= 0 || x == 0 {
		t.Fatalf("no processor time counted after busy work (%v)", Since(start))
	}
}
