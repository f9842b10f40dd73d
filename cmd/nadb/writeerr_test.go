package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteErrorIsNotUsage: an output that cannot be written (a full disk:
// /dev/full) is an error of exit status 1 in suggest and export alike, not
// a usage error (status 2, bad input); a session log of another pool stays
// a usage error.
func TestWriteErrorIsNotUsage(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	dir := cemsDir(t, 30)
	pool, some := filepath.Join(dir, "pool.csv"), filepath.Join(dir, "some.csv")
	for _, args := range [][]string{
		{"suggest", "-pool", pool, "-algo", "random", "-out", "/dev/full"},
		{"export", "-pool", pool, "-answers", some, "-algo", "random", "-out", "/dev/full"},
		{"export", "-pool", pool, "-answers", some, "-algo", "random", "-out", os.DevNull, "-model", "/dev/full"},
	} {
		_, _, err := nadb(args...)
		if err == nil || errors.As(err, new(usageError)) || !strings.Contains(err.Error(), "no space left") {
			t.Errorf("%v: %v, want a write error that is not a usage error", args, err)
		}
	}
}
