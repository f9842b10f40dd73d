package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPoolDirCommands: nadb data synth writes a pool directory (and its CSV)
// that suggest, export (with and without a saved model) and run read; the
// directory and the CSV give the same suggestions.
func TestPoolDirCommands(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pool")
	do := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if err := run(context.Background(), &out, &errb, args); err != nil {
			t.Fatalf("nadb %s: %v\n%s", strings.Join(args, " "), err, errb.String())
		}
		return out.String()
	}
	do("data", "synth", "-out", dir, "-contexts", "30", "-arms", "4", "-dim", "5", "-answers", "200", "-csv")
	ans := filepath.Join(dir, "answers.csv")
	fromDir := do("suggest", "-pool", dir, "-answers", ans, "-algo", "random-nn", "-width", "8", "-n", "20")
	fromCSV := do("suggest", "-pool", filepath.Join(dir, "pool.csv"), "-answers", ans, "-algo", "random-nn", "-width", "8", "-n", "20")
	if fromDir != fromCSV {
		t.Errorf("suggestions differ:\n%s\nvs CSV\n%s", fromDir, fromCSV)
	}
	if rows, err := csv.NewReader(strings.NewReader(fromDir)).ReadAll(); err != nil || len(rows) != 21 || rows[1][1][0] != 'r' {
		t.Errorf("suggest: %v, %q", err, fromDir)
	}
	model := filepath.Join(t.TempDir(), "m.json")
	policy := do("export", "-pool", dir, "-answers", ans, "-algo", "random", "-model", model)
	again := do("export", "-pool", dir, "-load", model)
	strip := func(s string) string { // the queries column is empty with -load and no -answers
		var b strings.Builder
		for l := range strings.SplitSeq(s, "\n") {
			if i := strings.LastIndexByte(l, ','); i >= 0 {
				l = l[:i]
			}
			b.WriteString(l + "\n")
		}
		return b.String()
	}
	if strip(policy) != strip(again) || strings.Count(policy, "\n") != 30*4+1 {
		t.Errorf("export -load differs from the learner's export")
	}
	do("run", "-problem", "pool", "-pool", dir, "-algo", "random", "-T", "20", "-every", "10", "-holdout", "5", "-q")
}

// TestSynthTooLarge: sizes whose generation would not fit in memory, or
// that no pool file holds, are usage errors naming the flags, and nothing is
// written (no folder, no temporary file).
func TestSynthTooLarge(t *testing.T) {
	t.Setenv("NADB_MAX_MEMORY", "1MB")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-contexts", "10", "-arms", "100000", "-dim", "100000"}, "-arms, -dim (one context's features)"},
		{[]string{"-contexts", "1000", "-arms", "200", "-dim", "8"}, "-contexts, -arms (the utility of every row)"},
		{[]string{"-contexts", "4294967296", "-arms", "4294967296", "-dim", "1"}, "-contexts, -arms, -dim: 4294967296 contexts"},
	} {
		dir := filepath.Join(t.TempDir(), "big")
		_, _, err := nadb(append([]string{"data", "synth", "-out", dir}, c.args...)...)
		if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want a usage error naming %q", c.args, err, c.want)
		}
		if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%v: %s was created (%v)", c.args, dir, err)
		}
	}
}
