//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package label

import "os"

// lockFile does nothing on systems without flock: do not run two servers on
// the same log directory there.
func lockFile(*os.File) error { return nil }
