package cputime

import "time"

// Since returns the processor time used since start, a value of Process.
func Since(start time.Duration) time.Duration { return Process() - start }
