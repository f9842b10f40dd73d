package cputime

import (
	"syscall"
	"time"
)

// rusageThread is RUSAGE_THREAD of getrusage(2) (Linux).
const rusageThread = 1

// Thread returns the user and system time the calling thread has used so
// far. A goroutine that measures a stretch of its own work with it must stay
// on one thread meanwhile (runtime.LockOSThread); the runtime's own helper
// threads (part of the garbage collector's work) are not counted.
func Thread() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ThreadSupported reports whether Thread counts (Linux).
func ThreadSupported() bool { return true }
