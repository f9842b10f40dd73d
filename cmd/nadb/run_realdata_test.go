package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRunRealData: the real-data problems run from the command line, and bad
// input is a usage error (exit status 2) naming the flag, or the file, line
// and column.
func TestRunRealData(t *testing.T) {
	dir := t.TempDir()
	pool := filepath.Join(dir, "pool.csv")
	answers := filepath.Join(dir, "answers.csv")
	badPool := filepath.Join(dir, "bad.csv")
	for name, s := range map[string]string{
		pool:    "context,arm,x,utility\nu1,a,1,0\nu1,b,-1,1\nu2,a,0.5,2\nu2,b,0,0\n",
		answers: "context,arm1,arm2,y\nu1,a,b,0\n",
		badPool: "context,arm,x\nu1,a,1\nu1,b,oops\n",
	} {
		if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	small := []string{"-T", "4", "-every", "2"}
	for _, tc := range []struct {
		args []string
		want string // in stdout
	}{
		{[]string{"-problem", "pool", "-pool", pool}, "on pool (d=1, K=2, 2 contexts)"},
		{[]string{"-problem", "pool", "-pool", pool, "-answers", answers}, "answer_accuracy"},
		{[]string{"-problem", "cems", "-algo", "random"}, "on cems (d=58, K=6, 202 contexts)"},
		{[]string{"-problem", "cems", "-algo", "random", "-contexts", "40", "-holdout", "20"}, "test_copeland_gap"},
		{[]string{"-problem", "cems", "-algo", "random", "-holdout", "0.5", "-missing", "coin"}, "constant model (every pair 50/50)"},
		{[]string{"-problem", "pool", "-pool", pool, "-answers", answers, "-holdout", "1"}, "test_mean_gap"},
		{[]string{"-problem", "shuttle", "-algo", "random", "-contexts", "30", "-holdout", "50"}, "on shuttle (d=70, K=7, 30 contexts)"},
	} {
		var out, errb bytes.Buffer
		args := append(append([]string{"run"}, tc.args...), small...)
		if !slices.Contains(tc.args, "-algo") {
			args = append(args, "-width", "4") // the default learner's network (random reads no -width)
		}
		if err := run(context.Background(), &out, &errb, args); err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("%v: output lacks %q:\n%s", tc.args, tc.want, out.String())
		}
	}

	missing := filepath.Join(dir, "nope")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-problem", "pool"}, "pool: no pool file"},
		{[]string{"-problem", "pool", "-pool", missing}, "pool: open " + missing},
		{[]string{"-problem", "pool", "-pool", badPool}, badPool + ` line 3, column 3 (x): "oops" is not a number`},
		{[]string{"-problem", "pool", "-pool", pool, "-answers", pool}, pool + ` line 1: missing column "arm1"`},
		{[]string{"-problem", "pool", "-pool", pool, "-answers", answers, "-missing", "error"}, `no recorded answer for context "u2"`},
		{[]string{"-problem", "pool", "-pool", pool, "-K", "3"}, "K is not used by problem pool"},
		{[]string{"-problem", "cems", "-data", missing}, "data: folder " + missing},
		{[]string{"-problem", "cems", "-data", dir}, filepath.Join(dir, "cems", "CEMSChoice_subjects.csv")},
		{[]string{"-problem", "cems", "-holdout", "303"}, "-holdout: 303 held-out students of 303 leave no training student"},
		{[]string{"-problem", "cems", "-holdout", "400"}, "-holdout: 400 held-out students, but there are only 303"},
		{[]string{"-problem", "cems", "-holdout", "-2"}, "-holdout: -2 is negative"},
		{[]string{"-problem", "cems", "-holdout", "NaN"}, "-holdout: NaN is not a number of contexts"},
		{[]string{"-problem", "pool", "-pool", pool, "-holdout", "2"}, "-holdout: 2 held-out contexts of 2 leave no training context"},
		{[]string{"-problem", "pool", "-pool", pool, "-holdout", "0.1"}, "-holdout: 0.1 of 2 contexts rounds to no held-out context"},
		{[]string{"-problem", "cems", "-contexts", "250", "-holdout", "60"}, "-contexts: 250 training students and 60 held-out (holdout) exceed the 303 there are"},
		{[]string{"-problem", "cems", "-missing", "guess"}, `invalid value "guess" for flag -missing`},
		{[]string{"-problem", "pool", "-pool", pool, "-missing", "coin"}, "-missing: the missing-answer rule only applies with an answers file"},
		{[]string{"-problem", "cems", "-scale", "3"}, "scale is not used by problem cems"},
		{[]string{"-problem", "shuttle", "-pool", pool}, "pool is not used by problem shuttle"},
		{[]string{"-problem", "shuttle", "-scale", "-1"}, "-scale: must be a positive number"},
		{[]string{"-problem", "square", "-data", dir}, "data is not used by problem square"},
	} {
		var out, errb bytes.Buffer
		err := run(context.Background(), &out, &errb, append(append([]string{"run"}, tc.args...), small...))
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: error %v is not a usage error (exit status 2)", tc.args, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %q does not contain %q", tc.args, err, tc.want)
		}
	}
}

// TestRunReferences: -references writes the reference rows as CSV (with
// -q, which prints nothing and computes them only for the file); without a
// held-out part it is a usage error naming the flag.
func TestRunReferences(t *testing.T) {
	dir := t.TempDir()
	refs := filepath.Join(dir, "refs.csv")
	var out, errb bytes.Buffer
	args := []string{"run", "-q", "-problem", "cems", "-algo", "random", "-contexts", "40", "-holdout", "20", "-T", "4", "-every", "2", "-references", refs}
	if err := run(context.Background(), &out, &errb, args); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 {
		t.Errorf("-q printed:\n%s", out.String())
	}
	data, err := os.ReadFile(refs)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if lines[0] != "reference,note,test_accuracy,test_logloss,test_copeland_gap" || len(lines) != 5 || !strings.HasPrefix(lines[4], "constant model") {
		t.Errorf("references file:\n%s", data)
	}
	err = run(context.Background(), &out, &errb, []string{"run", "-q", "-problem", "square", "-T", "2", "-references", refs})
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "-references") {
		t.Errorf("-references without held-out contexts: %v, want a usage error naming -references", err)
	}
}

// TestRunHeader: the first line of nadb run states the sizes of the reading
// it runs (in the fresh-context reading the candidates per round and the
// evaluation pool, not the candidates alone as contexts) and the collection
// rule when the learner does not choose its duels.
func TestRunHeader(t *testing.T) {
	small := []string{"run", "-algo", "random", "-T", "4", "-every", "2", "-d", "3", "-K", "3"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-contexts", "30"}, "random on square (d=3, K=3, 30 contexts), T=4, seed 1\n"},
		{[]string{"-candidates", "5", "-contexts", "30"}, "random on square (d=3, K=3, 5 fresh candidate contexts per round, policy scored on 30 evaluation contexts), T=4, seed 1\n"},
		{[]string{"-contexts", "30", "-collect", "passive"}, "random on square (d=3, K=3, 30 contexts), T=4, seed 1, collect passive\n"},
		{[]string{"-contexts", "30", "-collect", "own"}, "random on square (d=3, K=3, 30 contexts), T=4, seed 1\n"},
		{[]string{"-candidates", "2", "-contexts", "10", "-collect", "random-context"}, "random on square (d=3, K=3, 2 fresh candidate contexts per round, policy scored on 10 evaluation contexts), T=4, seed 1, collect random-context\n"},
	} {
		var out bytes.Buffer
		if err := run(context.Background(), &out, io.Discard, append(append([]string{}, small...), tc.args...)); err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		if first, _, _ := strings.Cut(out.String(), "\n"); first+"\n" != tc.want {
			t.Errorf("%v: header %q, want %q", tc.args, first, strings.TrimSuffix(tc.want, "\n"))
		}
	}
}
