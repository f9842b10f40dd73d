package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite generated sections of README.md")

// TestREADMEConfigTable keeps the README's table of choices identical to the
// output of "nadb config -markdown", so the one place readers see every choice
// cannot drift from the code.
func TestREADMEConfigTable(t *testing.T) {
	const begin, end = "<!-- config:begin", "<!-- config:end -->"
	path := filepath.Join("..", "..", "README.md")
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(context.Background(), &out, &out, []string{"config", "-markdown"}); err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	i := strings.Index(s, begin)
	j := strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatal("README.md has no config:begin/config:end section")
	}
	i += strings.Index(s[i:], "\n") + 1
	if s[i:j] == out.String() {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(s[:i]+out.String()+s[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md config table is stale; run go test ./cmd/nadb -update")
}

// TestBadInputExitsWithStatus2 builds the command and checks that each bad
// flag or value exits with status 2 and a message naming the flag, never a
// stack trace (sizes are checked against a memory limit of 16 GB).
func TestBadInputExitsWithStatus2(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "nadb")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "-K", "1"}, "K must"},
		{[]string{"run", "-d", "0"}, "d (feature dimension)"},
		{[]string{"run", "-algo", "nope"}, "unknown algorithm"},
		{[]string{"run", "-algo", "neural-adb-usb"}, `did you mean "neural-adb-ucb"?`},
		{[]string{"run", "-problem", "cube"}, "unknown problem"},
		{[]string{"run", "-problem", "sqaure"}, `did you mean "square"?`},
		{[]string{"run", "-init", "mirored"}, `did you mean "mirrored"?`},
		{[]string{"run", "-collect", "pasive"}, `did you mean "passive"?`},
		{[]string{"fgures"}, `did you mean "figures"?`},
		{[]string{"run", "-width", "x"}, "(nadb run -h lists the flags)"},
		{[]string{"run", "-T", "0"}, "T (rounds)"},
		{[]string{"run", "-T", "-5"}, "T (rounds)"},
		{[]string{"run", "-lambda", "NaN"}, "lambda"},
		{[]string{"run", "-nu", "Inf"}, "nu"},
		{[]string{"run", "-width", "abc"}, "width"},
		{[]string{"run", "-T", "1.5"}, `-T: "1.5" is not a whole number`},
		{[]string{"run", "-seed", "-1"}, `-seed: "-1" is not a whole number from 0 to 18446744073709551615`},
		{[]string{"run", "-seed", "18446744073709551616"}, `-seed: "18446744073709551616" is out of range: need a whole number from 0 to`},
		{[]string{"run", "-holdout", "big"}, `-holdout: "big" is not a number`},
		{[]string{"lockon", "-algos", "my-baseline"}, `is not a rule of the study (its rules: neural-adb-ucb, `},
		{[]string{"run", "-init", "zeros"}, "init"},
		{[]string{"run", "-contexts", "0"}, "contexts must"},
		{[]string{"run", "-nosuchflag"}, "nosuchflag"},
		{[]string{"frobnicate"}, "frobnicate"},
		{[]string{"run", "-algo", "neural-adb-lookahead-ucb", "-contexts", "700", "-T", "5"}, "contexts"},
		{[]string{"verify", "-only", "99z"}, "-only: unknown claim"},
		{[]string{"verify", "-from", "no-such-claims.csv"}, "-from: open no-such-claims.csv"},
		{[]string{"verify", "-from", "../../figures/claims-seeds.csv"}, "is not a claims table's"},
		{[]string{"verify", "-from", "../../figures/claims.csv", "-scale", "paper"}, "-scale does not apply"},
		{[]string{"figures", "-only", "fig99"}, "-only: sweep: unknown figure"},
		{[]string{"figures", "-shard", "3/2"}, "shard"},
		{[]string{"suggest", "-algo", "apo"}, "-pool"},
		{[]string{"export", "-pool", "no-such-pool.csv", "-answers", "a.csv", "-algo", "apo"}, "no-such-pool.csv"},
		{[]string{"serve", "-pool", "no-such-pool.csv"}, "-log"},
		{[]string{"data", "cems"}, "-out"},
		// Sizes beyond the memory limit are refused before anything is
		// allocated, naming the flag to change.
		{[]string{"run", "-K", "100000"}, "-K: the run would need about"},
		{[]string{"run", "-width", "1000000"}, "-width: the run would need about"},
		{[]string{"run", "-algo", "neural-adb-ucb-randctx", "-contexts", "10000", "-T", "1000000"}, "-T: the run would need about"},
		{[]string{"run", "-contexts", "100000000", "-algo", "random"}, "-contexts: the run would need about"},
		{[]string{"run", "-K", "100000000", "-algo", "random"}, "-K: the run would need about"},
		{[]string{"run", "-d", "100000000", "-algo", "random"}, "-d: the run would need about"},
	} {
		cmd := exec.Command(bin, tc.args...)
		cmd.Env = append(os.Environ(), "NADB_MAX_MEMORY=16GB")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("nadb %v: err %v, want exit status 2", tc.args, err)
			continue
		}
		if !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("nadb %v: stderr %q does not name %q", tc.args, stderr.String(), tc.want)
		}
		if strings.Contains(stderr.String(), "goroutine ") || strings.Contains(stderr.String(), "panic") {
			t.Errorf("nadb %v: a stack trace:\n%s", tc.args, stderr.String())
		}
	}
}

// TestRunWritesCSV runs a tiny experiment end to end through the command.
func TestRunWritesCSV(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.csv")
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), &stdout, &stderr, []string{"run", "-d", "3", "-K", "3", "-contexts", "10", "-T", "40", "-every", "20", "-width", "8", "-out", out})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "t,worst_gap,mean_gap,queried_gap,avg_regret,distinct_contexts,elapsed_s") {
		t.Errorf("CSV:\n%s", data)
	}
	if !strings.Contains(stdout.String(), "worst gap") {
		t.Errorf("no table printed:\n%s", stdout.String())
	}
}

// TestHelpAndVersion: "nadb help CMD" is CMD's usage, and "nadb version"
// names the cache version; a bad flag's error is one line, not the whole
// usage.
func TestHelpAndVersion(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), &out, &errb, []string{"help", "run"}); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("nadb help run: %v", err)
	}
	if !strings.HasPrefix(errb.String(), "usage: nadb run") || !strings.Contains(errb.String(), "-collect") {
		t.Errorf("nadb help run printed %q…, want the usage of nadb run", firstN(errb.String(), 80))
	}
	out.Reset()
	if err := run(context.Background(), &out, &errb, []string{"version"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "cache version ") || !strings.Contains(out.String(), "commit ") || !strings.Contains(out.String(), "matrix kernels ") {
		t.Errorf("nadb version printed %q", out.String())
	}
	errb.Reset()
	err := run(context.Background(), &out, &errb, []string{"run", "-width", "x"})
	if err == nil || errb.Len() != 0 {
		t.Errorf("a bad flag: error %v, and %d bytes of usage printed (want none)", err, errb.Len())
	}
}

func firstN(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func TestList(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, &out, []string{"list"}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"neural-adb-ucb", "neural-adb-ts"} {
		if !strings.Contains(out.String(), name+" ") {
			t.Errorf("nadb list does not list %s:\n%s", name, out.String())
		}
	}
}

// TestFiguresListFloor: nadb figures -list -peak adds the arithmetic floor
// (the committed cost table's operation counts at the given rate) to the
// totals, and a negative rate is refused.
func TestFiguresListFloor(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), &out, &errb, []string{"figures", "-list", "-only", "fig1-main", "-peak", "50"}); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "arithmetic floor") || !strings.Contains(out.String(), "at 50 GFLOP/s") {
		t.Errorf("-list -peak 50 printed no floor:\n%s", out.String())
	}
	out.Reset()
	if err := run(context.Background(), &out, &errb, []string{"figures", "-list", "-only", "fig1-main"}); err != nil || strings.Contains(out.String(), "floor") {
		t.Errorf("-list without -peak: %v, floor printed: %v", err, strings.Contains(out.String(), "floor"))
	}
	if err := run(context.Background(), &out, &errb, []string{"figures", "-list", "-peak", "-1"}); err == nil {
		t.Error("-peak -1: want a usage error")
	}
}
