//go:build !linux

package cputime

import "time"

// Thread returns 0: only Linux offers the processor time of one thread.
func Thread() time.Duration { return 0 }

// ThreadSupported reports whether Thread counts: false here.
func ThreadSupported() bool { return false }
