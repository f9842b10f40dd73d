package theory

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/neural-adb/nadb/experiments"
)

// TestRunCachedUsesCompleteCache checks that a complete cache folder is copied
// to the output without recomputing, and that an incomplete one (no
// summary.md, e.g. an interrupted run) is not taken for a result.
func TestRunCachedUsesCompleteCache(t *testing.T) {
	cache, out := t.TempDir(), t.TempDir()
	dir := filepath.Join(cache, fmt.Sprintf("quick-v%d-e%d", CacheVersion, experiments.CacheVersion))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"summary.md": "# cached\n", "kappa.csv": "problem\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // a recomputation would fail on the cancelled context
	paths, summary, err := RunCached(ctx, Options{Quick: true}, cache, out)
	if err != nil {
		t.Fatal(err)
	}
	if string(summary) != "# cached\n" || len(paths) != 2 {
		t.Fatalf("summary %q, paths %v", summary, paths)
	}
	if b, err := os.ReadFile(filepath.Join(out, "kappa.csv")); err != nil || string(b) != "problem\n" {
		t.Fatalf("kappa.csv not copied: %q %v", b, err)
	}
	os.Remove(filepath.Join(dir, "summary.md"))
	if _, _, err := RunCached(ctx, Options{Quick: true}, cache, t.TempDir()); err == nil {
		t.Fatal("incomplete cache folder was used as a result")
	}
}
