package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestThreadCountsOwnWork checks that busy work on a locked thread moves the
// thread's count forward, and by no more than the process's count.
func TestThreadCountsOwnWork(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, p0 := Thread(), Process()
	x, deadline := 1.0, time.Now().Add(5*time.Second)
	for Thread()-t0 < 20*time.Millisecond && time.Now().Before(deadline) {
		for range 100_000 {
			x = x*1.0000001 + 1e-9
		}
	}
	dt, dp := Thread()-t0, Since(p0)
	if dt <= 0 || x == 0 {
		t.Fatalf("no thread time counted after busy work (%v)", dt)
	}
	// Both counts advance in clock ticks; allow one tick of 10 ms.
	if dt > dp+10*time.Millisecond {
		t.Fatalf("thread time %v exceeds process time %v", dt, dp)
	}
}
