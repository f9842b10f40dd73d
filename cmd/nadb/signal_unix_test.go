//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// nadbBinary builds the command into a temporary folder of the test.
func nadbBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "nadb")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// startUntil starts the command and waits until a line of its stdout
// starts with prefix.
func startUntil(t *testing.T, cmd *exec.Cmd, prefix string) *bytes.Buffer {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	seen := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		ok := false
		for sc.Scan() {
			if !ok && strings.HasPrefix(strings.TrimSpace(sc.Text()), prefix) {
				ok = true
				seen <- true
			}
		}
		if !ok {
			seen <- false
		}
	}()
	select {
	case ok := <-seen:
		if !ok {
			t.Fatalf("%v ended before printing %q:\n%s", cmd.Args, prefix, stderr.String())
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("%v did not print %q in 2 minutes", cmd.Args, prefix)
	}
	return &stderr
}

// TestSIGTERM: SIGTERM stops a command as SIGINT does: "nadb run -out"
// keeps the checkpoints it finished and exits with status 143, and "nadb
// serve" shuts down cleanly with every acknowledged answer in its log.
func TestSIGTERM(t *testing.T) {
	bin := nadbBinary(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "run.csv")
	cmd := exec.Command(bin, "run", "-d", "3", "-K", "3", "-contexts", "10", "-T", "20000", "-every", "20", "-width", "8", "-out", out)
	stderr := startUntil(t, cmd, "60 ")
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitTerminated {
		t.Fatalf("nadb run after SIGTERM: %v, want exit status %d\n%s", err, exitTerminated, stderr)
	}
	if !strings.Contains(stderr.String(), "stopped by terminated") || !strings.Contains(stderr.String(), out) {
		t.Errorf("stderr does not say that SIGTERM stopped the run and where the checkpoints are:\n%s", stderr)
	}
	data, err := os.ReadFile(out)
	if lines := strings.Split(strings.TrimSpace(string(data)), "\n"); err != nil || len(lines) < 5 || !strings.HasPrefix(lines[0], "t,worst_gap") {
		t.Errorf("checkpoints kept after SIGTERM (%v):\n%s", err, data)
	}

	cems := cemsDir(t, 20)
	cmd = exec.Command(bin, "serve", "-pool", filepath.Join(cems, "pool.csv"), "-log", filepath.Join(dir, "session"),
		"-algo", "random", "-addr", "127.0.0.1:0")
	stderr = startUntil(t, cmd, "labelling page:")
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("nadb serve after SIGTERM: %v\n%s", err, stderr)
	}
	if !strings.Contains(stderr.String(), "stopped; every acknowledged answer is in") {
		t.Errorf("serve did not stop cleanly:\n%s", stderr)
	}
}
