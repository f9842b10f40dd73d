//go:build unix

package gram

import (
	"syscall"
	"time"
)

// cpuTime returns the processor time (user + system) of the process so far:
// on a loaded machine it measures the work better than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
