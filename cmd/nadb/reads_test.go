package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigFlagsNotRead: a config flag the chosen learner does not read is
// a usage error naming the flag, the learner and the flags it reads, in
// suggest, export, serve and run; flags it reads pass.
func TestConfigFlagsNotRead(t *testing.T) {
	dir := cemsDir(t, 30)
	pool, some := filepath.Join(dir, "pool.csv"), filepath.Join(dir, "some.csv")
	for _, c := range []struct {
		args []string
		want []string // in the error; nil: no error
	}{
		{[]string{"suggest", "-pool", pool, "-answers", some, "-n", "1", "-lr", "0.5"}, []string{"-lr: neural-adb-target does not read it", "-width", "-objective"}},
		{[]string{"export", "-pool", pool, "-answers", some, "-bias"}, []string{"-bias: neural-adb-target"}},
		{[]string{"serve", "-pool", pool, "-log", filepath.Join(dir, "log"), "-steps", "10"}, []string{"-steps: neural-adb-target"}},
		{[]string{"export", "-pool", pool, "-answers", some, "-algo", "neural-adb-plus", "-lambda", "3"}, []string{"-lambda: neural-adb-plus", "-plus-ablate fixed-lambda"}},
		{[]string{"run", "-q", "-algo", "random", "-T", "4", "-width", "4"}, []string{"-width: random", "-mle-iters"}},
		{[]string{"run", "-q", "-algo", "neural-adb-ucb", "-T", "4", "-objective", "policy"}, []string{"-objective: neural-adb-ucb"}},
		{[]string{"export", "-pool", pool, "-answers", some, "-width", "20", "-retrain-every", "10", "-objective", "policy", "-out", os.DevNull}, nil},
		{[]string{"export", "-pool", pool, "-answers", some, "-algo", "neural-adb-plus", "-lambda", "3", "-plus-ablate", "fixed-lambda", "-width", "10", "-out", os.DevNull}, nil},
		{[]string{"suggest", "-pool", pool, "-answers", some, "-algo", "random-nn", "-n", "1", "-lr", "0.01", "-steps", "5", "-out", os.DevNull}, nil},
		{[]string{"run", "-q", "-algo", "random", "-T", "4", "-lambda", "2", "-mle-iters", "3", "-consider", "5"}, nil},
	} {
		_, _, err := nadb(c.args...)
		if c.want == nil {
			if err != nil {
				t.Errorf("%v: %v", c.args, err)
			}
			continue
		}
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: got %v, want a usage error", c.args, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q lacks %q", c.args, err, w)
			}
		}
	}
}
