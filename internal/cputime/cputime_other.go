//go:build !unix

package cputime

import "time"

// Process returns 0: this system offers no processor-time count.
func Process() time.Duration { return 0 }
