package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyFromCommitted: nadb verify -from figures/claims.csv prints the
// committed paper-scale table without running anything: its Markdown is
// byte for byte figures/claims.md (written beside it by the same make verify
// or verify-merge), and -brief -only prints the claims asked for, in the
// table's order, and no other.
func TestVerifyFromCommitted(t *testing.T) {
	csvPath := filepath.Join(root, "figures", "claims.csv")
	md, err := os.ReadFile(filepath.Join(root, "figures", "claims.md"))
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"verify", "-from", csvPath}); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if stdout.String() != string(md) {
		t.Errorf("nadb verify -from %s differs from figures/claims.md: make verify writes both; write them again", csvPath)
	}
	if !strings.Contains(stderr.String(), "nothing was run") {
		t.Errorf("stderr %q does not say that nothing was run", stderr.String())
	}

	stdout.Reset()
	if err := run(context.Background(), &stdout, &stderr, []string{"verify", "-from", csvPath, "-brief", "-only", "5b,1a"}); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	var ids []string
	lines := strings.Split(stdout.String(), "\n")
	for _, l := range lines[min(3, len(lines)):] { // after the title, its note and a blank line
		if f := strings.Fields(l); len(f) > 0 && !strings.HasPrefix(l, " ") {
			ids = append(ids, f[0]) // a claim's first line; its continuations are indented
		}
	}
	if strings.Join(ids, ",") != "1a,5b" {
		t.Errorf("-brief -only 5b,1a printed claims %v, want 1a and 5b in the table's order:\n%s", ids, stdout.String())
	}
	if !strings.HasPrefix(stdout.String(), "Claims of the paper, tested at paper scale\n") {
		t.Errorf("-brief output does not start with the scale's title:\n%s", stdout.String())
	}
}

// TestVerifyHelpNamesFrom: nadb help verify documents -from.
func TestVerifyHelpNamesFrom(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), &out, &errb, []string{"help", "verify"}); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("nadb help verify: %v", err)
	}
	if !strings.Contains(errb.String(), "nadb verify -from figures/claims.csv") || !strings.Contains(errb.String(), "  -from string") {
		t.Errorf("nadb help verify does not document -from:\n%s", errb.String())
	}
}
