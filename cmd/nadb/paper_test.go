package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/paper/report"
)

// TestPaperCommand: nadb paper writes what report.Generate makes of the
// repository's results where -out says, and a root without figures/ is a
// usage error naming -root.
func TestPaperCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "gen")
	if err := run(context.Background(), io.Discard, io.Discard, []string{"paper", "-root", root, "-out", out}); err != nil {
		t.Fatal(err)
	}
	files, err := report.Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(out, f.Name))
		if err != nil || !bytes.Equal(got, f.Data) {
			t.Errorf("%s: written %d bytes (%v), generated %d", f.Name, len(got), err, len(f.Data))
		}
	}
	err = run(context.Background(), io.Discard, io.Discard, []string{"paper", "-root", t.TempDir()})
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "-root") {
		t.Errorf("root without figures/: error %v, want a usage error naming -root", err)
	}
}
