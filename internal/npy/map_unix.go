//go:build linux || darwin || freebsd || netbsd || openbsd

package npy

import (
	"os"

	"golang.org/x/sys/unix"
)

const canMap = true

// mapFile maps the first size bytes of f read-only and shared.
func mapFile(f *os.File, size int64) ([]byte, error) {
	return unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
}

func unmap(b []byte) error { return unix.Munmap(b) }

// release tells the kernel the pages of b (page-aligned) are not needed
// now: they leave the process's resident set and stay in the page cache,
// read again on the next access.
func release(b []byte) error { return unix.Madvise(b, unix.MADV_DONTNEED) }
