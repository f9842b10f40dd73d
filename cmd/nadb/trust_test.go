package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/neural-adb/nadb/experiments/sweep"
	"github.com/neural-adb/nadb/verify"
)

// TestPanicExitsWithStatus3: an unexpected panic is an internal error, exit
// status 3 (distinct from bad input, 2), with a one-line message and no
// stack trace.
func TestPanicExitsWithStatus3(t *testing.T) {
	saved := commands
	t.Cleanup(func() { commands = saved })
	commands = append(commands[:len(commands):len(commands)], struct {
		name, help string
		run        func(ctx context.Context, stdout, stderr io.Writer, args []string) error
	}{"boom", "panics", func(context.Context, io.Writer, io.Writer, []string) error {
		panic("index out of range [3] with length 2")
	}})
	var stdout, stderr bytes.Buffer
	if got := mainStatus([]string{"boom"}, &stdout, &stderr); got != exitInternal {
		t.Errorf("exit status %d, want %d", got, exitInternal)
	}
	msg := stderr.String()
	if !strings.Contains(msg, "nadb: internal error: index out of range") || !strings.Contains(msg, "bug") {
		t.Errorf("message %q does not say it is an internal error", msg)
	}
	if strings.Contains(msg, "goroutine") {
		t.Errorf("message carries a stack trace:\n%s", msg)
	}
	if got := mainStatus([]string{"run", "-K", "1"}, &stdout, &stderr); got != exitUsage {
		t.Errorf("bad input: exit status %d, want %d", got, exitUsage)
	}
}

// TestFlagErrorPrintedOnce: an unknown flag is reported once, after the
// usage text (the flag package's own report is suppressed).
func TestFlagErrorPrintedOnce(t *testing.T) {
	for _, args := range [][]string{{"config", "-x"}, {"run", "-nosuchflag"}, {"verify", "-scale"}} {
		var stdout, stderr bytes.Buffer
		if got := mainStatus(args, &stdout, &stderr); got != exitUsage {
			t.Errorf("%v: exit status %d, want %d", args, got, exitUsage)
		}
		flagName := args[1]
		if n := strings.Count(stderr.String(), flagName); n < 1 || strings.Count(stderr.String(), "nadb: ") != 1 {
			t.Errorf("%v: %d mentions of %s and %d error lines in:\n%s", args, n, flagName, strings.Count(stderr.String(), "nadb: "), stderr.String())
		}
		if n := strings.Count(stderr.String(), "provided but not defined"); n > 1 {
			t.Errorf("%v: the error is printed %d times:\n%s", args, n, stderr.String())
		}
	}
	var stderr bytes.Buffer
	if got := mainStatus([]string{"config", "-h"}, io.Discard, &stderr); got != 0 || !strings.Contains(stderr.String(), "-markdown") {
		t.Errorf("-h: status %d, usage %q", got, stderr.String())
	}
}

// cancelAfter is a writer that cancels a context once it has seen a line
// starting with prefix.
type cancelAfter struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	prefix string
	cancel context.CancelFunc
}

func (w *cancelAfter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	for line := range strings.SplitSeq(w.buf.String(), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), w.prefix) {
			w.cancel()
		}
	}
	return len(p), nil
}

// TestRunInterruptedKeepsCheckpoints: an interrupted "nadb run -out" writes
// the checkpoints computed so far and says so.
func TestRunInterruptedKeepsCheckpoints(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.csv")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdout := &cancelAfter{prefix: "60 ", cancel: cancel}
	err := run(ctx, stdout, io.Discard, []string{"run", "-d", "3", "-K", "3", "-contexts", "10", "-T", "5000", "-every", "20", "-width", "8", "-out", out})
	if err == nil || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted at t = 60") || !strings.Contains(err.Error(), out) {
		t.Fatalf("error %v, want an interruption at t = 60 naming %s", err, out)
	}
	data, rerr := os.ReadFile(out)
	if rerr != nil {
		t.Fatalf("no partial CSV: %v", rerr)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "t,worst_gap") || !strings.HasPrefix(lines[4], "60,") {
		t.Errorf("partial CSV (want header and t = 0, 20, 40, 60):\n%s", data)
	}
}

// TestSweepInterruptedSaysResume: an interrupted sweep says that the same
// command resumes it (and nadb figures, how many figures it drew).
func TestSweepInterruptedSaysResume(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"figures", "-quick", "-only", "fig1-main", "-out", filepath.Join(dir, "out"), "-cache", filepath.Join(dir, "cache")},
		{"verify", "-only", "1a", "-cache", filepath.Join(dir, "cache")},
	} {
		err := run(ctx, io.Discard, io.Discard, args)
		if err == nil || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "run the same command again to resume") {
			t.Errorf("%v: error %v does not say that rerunning resumes", args, err)
		}
		if args[0] == "figures" && (err == nil || !strings.Contains(err.Error(), "0 of 1 figures drawn")) {
			t.Errorf("%v: error %v does not say how many figures were drawn", args, err)
		}
	}
}

// TestOutputPathsCheckedFirst: an -out that is a directory where a file is
// needed (or a file where a directory is), or a -cache that is a file, is a
// usage error naming the flag before any run starts (nothing printed).
func TestOutputPathsCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		flag string
	}{
		{[]string{"run", "-T", "100000", "-out", dir}, "-out"},
		{[]string{"run", "-T", "100000", "-out", filepath.Join(file, "run.csv")}, "-out"},
		{[]string{"verify", "-out", dir}, "-out"},
		{[]string{"verify", "-cache", file}, "-cache"},
		{[]string{"figures", "-quick", "-only", "fig1-main", "-out", filepath.Join(dir, "q"), "-cache", file}, "-cache"},
		{[]string{"figures", "-quick", "-only", "fig1-main", "-out", file}, "-out"},
		{[]string{"lockon", "-quick", "-out", file}, "-out"},
		{[]string{"lockon", "-quick", "-cache", file}, "-cache"},
		{[]string{"theory", "-quick", "-out", file}, "-out"},
		{[]string{"theory", "-quick", "-cache", file}, "-cache"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), &stdout, &stderr, tc.args)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.flag) {
			t.Errorf("%v: error %v, want a usage error naming %s", tc.args, err, tc.flag)
		}
		if stdout.Len() > 0 {
			t.Errorf("%v: work started before the check:\n%s", tc.args, stdout.String())
		}
	}
}

// TestNonPaperRunsRefusePaperOutputs: a run that is not at paper scale does
// not overwrite a paper-scale result, whatever -out says, and without -out
// writes no files.
func TestNonPaperRunsRefusePaperOutputs(t *testing.T) {
	dir := t.TempDir()
	claims := filepath.Join(dir, "claims.md")
	lock := filepath.Join(dir, "lockon")
	th := filepath.Join(dir, "theory")
	figs := filepath.Join(dir, "figures")
	// A paper-scale claims CSV without its Markdown table beside it.
	csvOnly := filepath.Join(dir, "csv-only", "claims.csv")
	csvData := verify.CSVHeader + "\n1a,fixed,paper,holds,holds,true,c,s,st,t,r,p,w,\n"
	for path, data := range map[string]string{
		csvOnly:                           csvData,
		claims:                            "# Claims of the paper, tested (paper scale)\n",
		filepath.Join(lock, "README.md"):  "# Lock-on study (paper scale)\n",
		filepath.Join(th, "summary.md"):   "# Theorem 1\n\nGenerated by `nadb theory` (full run); do not edit by hand.\n",
		filepath.Join(figs, "README.md"):  "# figures/\n",
		filepath.Join(figs, "unrelated"):  "",
		filepath.Join(dir, "placeholder"): "",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The committed manifest of Figure 1 marks figures/ as paper-scale.
	committed, err := os.ReadFile(filepath.Join("..", "..", "figures", "fig1-main.manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(figs, "fig1-main.manifest.json"), committed, 0o644); err != nil {
		t.Fatal(err)
	}
	var man sweep.Manifest
	if err := json.Unmarshal(committed, &man); err != nil || man.Seeds != sweep.Paper.Seeds {
		t.Fatalf("committed manifest: %v, %d seeds", err, man.Seeds)
	}
	for _, args := range [][]string{
		{"verify", "-scale", "reduced", "-out", claims},
		{"verify", "-scale", "reduced", "-out", filepath.Join(dir, "csv-only", "claims.md")},
		{"lockon", "-quick", "-out", lock},
		{"theory", "-quick", "-out", th},
		{"figures", "-quick", "-out", figs},
		{"figures", "-quick"}, // no default directory at another scale
	} {
		err := run(context.Background(), io.Discard, io.Discard, args)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "-out") {
			t.Errorf("%v: error %v, want a usage error naming -out", args, err)
		}
	}
	if b, _ := os.ReadFile(claims); string(b) != "# Claims of the paper, tested (paper scale)\n" {
		t.Errorf("claims table overwritten: %q", b)
	}
	if b, _ := os.ReadFile(csvOnly); string(b) != csvData {
		t.Errorf("claims CSV overwritten: %q", b)
	}

	// Without -out, a reduced-scale verify and a partial lock-on study print
	// their tables and write nothing.
	t.Chdir(t.TempDir())
	var stdout bytes.Buffer
	if err := run(context.Background(), &stdout, io.Discard, []string{"verify", "-only", "5b", "-cache", "c"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "(reduced scale)") || exists("figures") {
		t.Errorf("verify: table printed %v, figures/ created %v", strings.Contains(stdout.String(), "(reduced scale)"), exists("figures"))
	}
	stdout.Reset()
	if err := run(context.Background(), &stdout, io.Discard, []string{"lockon", "-quick", "-seeds", "2", "-algos", "neural-adb-ucb", "-parts", "main", "-cache", ""}); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(".")
	if !strings.Contains(stdout.String(), "neural-adb-ucb-randctx") || len(ents) > 1 || len(ents) == 1 && ents[0].Name() != "c" {
		t.Errorf("lockon: table printed %v, entries in the working directory %v (want at most the verify cache c)", strings.Contains(stdout.String(), "neural-adb-ucb-randctx"), ents)
	}
}

// TestLockonInvocationReparses: the command line recorded in the lock-on
// README parses back to the same study (a boolean flag is written -quick,
// never "-quick true", which the flag package reads as an argument).
func TestLockonInvocationReparses(t *testing.T) {
	for _, args := range [][]string{
		{"-quick"},
		{"-quick", "-seeds", "2", "-algos", "neural-adb-tsctx-ucb,neural-adb-tsctx-ts", "-parts", "main", "-out", "figures/lockon/seeds30", "-workers", "3"},
		{"-quick=false", "-seeds", "30", "-out", "my dir"},
	} {
		f := newLockonFlags(io.Discard)
		if err := parse(f.fs, args); err != nil {
			t.Fatal(err)
		}
		inv := f.invocation(false)
		if !strings.HasPrefix(inv, "nadb lockon") || strings.Contains(inv, "-quick true") || strings.Contains(inv, "workers") {
			t.Errorf("%v: invocation %q", args, inv)
		}
		words := shellSplit(t, strings.TrimPrefix(inv, "nadb lockon"))
		g := newLockonFlags(io.Discard)
		if err := parse(g.fs, words); err != nil {
			t.Errorf("%v: invocation %q does not parse: %v", args, inv, err)
			continue
		}
		if *g.quick != *f.quick || *g.seeds != *f.seeds || *g.algos != *f.algos || *g.parts != *f.parts || *g.out != *f.out {
			t.Errorf("%v: invocation %q parses to a different study", args, inv)
		}
	}
}

// shellSplit splits a command line into words, honouring single quotes.
func shellSplit(t *testing.T, s string) []string {
	t.Helper()
	var words []string
	var cur strings.Builder
	in, have := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			in, have = !in, true
		case r == ' ' && !in:
			if have {
				words = append(words, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if in {
		t.Fatalf("unbalanced quote in %q", s)
	}
	if have {
		words = append(words, cur.String())
	}
	return words
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}
