//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package label

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f, released when f is closed,
// so that two servers never append to the same log.
func lockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}
