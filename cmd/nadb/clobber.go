package main

// The check that a command's outputs do not overwrite its inputs or each
// other.

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// flagPath is a file a command reads or writes, with the flag naming it and,
// when the flag names it only in part, how to call it (the log of -session).
type flagPath struct {
	flag, path, shown string
}

// String returns "-flag path", or shown.
func (f flagPath) String() string {
	if f.shown != "" {
		return f.shown
	}
	return "-" + f.flag + " " + f.path
}

// checkClobber refuses, as a usage error naming both flags, an output of
// outs that would overwrite an input of ins or another output: the same file
// (os.SameFile, following symbolic links as the writes do) when both exist,
// else the same absolute path. An output inside the pool directory pool
// (flag -pool; "" or a pool file: none) is refused too: the directory is
// the pool (nothing in it is the command's to write, and a new
// utility.npy would change the pool). Empty paths, "-" (stdout) and the
// null device pass.
func checkClobber(pool string, ins, outs []flagPath) error {
	for i, o := range outs {
		if skipPath(o.path) {
			continue
		}
		for _, in := range slices.Concat(ins, outs[:i]) {
			if skipPath(in.path) || !samePath(o.path, in.path) {
				continue
			}
			what := "input"
			if in.flag == "out" || in.flag == "model" || in.flag == "references" {
				what = "output"
			}
			return usageError{fmt.Errorf("%s is the same file as %s: writing it would overwrite that %s; name another file", o, in, what)}
		}
		if pool != "" && insideDir(o.path, pool) {
			return usageError{fmt.Errorf("%s lies inside the pool directory of -pool %s: the directory is the pool's; write outputs beside it", o, pool)}
		}
	}
	return nil
}

// skipPath reports whether path names no file that could be clobbered: no
// path, stdout ("-") or the null device.
func skipPath(path string) bool {
	if path == "" || path == "-" {
		return true
	}
	st, err := os.Stat(path)
	if err != nil {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err == nil && os.SameFile(st, null)
}

// samePath reports whether a and b name the same file: os.SameFile when both
// exist, else the same absolute path.
func samePath(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	switch {
	case errA == nil && errB == nil:
		return os.SameFile(sa, sb)
	case errA == nil || errB == nil:
		return false
	}
	aa, errA := filepath.Abs(a)
	ab, errB := filepath.Abs(b)
	return errA == nil && errB == nil && aa == ab
}

// insideDir reports whether path lies in directory dir or below it (the
// existing directories above path compared with os.SameFile).
func insideDir(path, dir string) bool {
	sd, err := os.Stat(dir)
	if err != nil || !sd.IsDir() {
		return false
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	for p := filepath.Dir(abs); ; p = filepath.Dir(p) {
		if st, err := os.Stat(p); err == nil && os.SameFile(st, sd) {
			return true
		}
		if p == filepath.Dir(p) {
			return false
		}
	}
}
