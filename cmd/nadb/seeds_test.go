package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSummariesHaveSeeds: every committed summary table
// (figures/**/ID-summary.csv) has the per-seed values it summarises beside
// it (ID-seeds.csv), so that its tests can be recomputed from the
// repository alone. Summaries made before the seeds files existed (their
// figure's manifest has an older cache version) are listed, not failed:
// the next make figures writes their seeds. figures/theory's
// theorem1_summary.csv is computed from theorem1.csv beside it (per T, the
// mean over sequences and the counts of violations), whose per-sequence
// values are in theorem1_seeds.csv (checked by TestTheorySeedsFile).
func TestSummariesHaveSeeds(t *testing.T) {
	dir := filepath.Join(root, "figures")
	stale := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "quick" {
			return filepath.SkipDir
		}
		id, ok := strings.CutSuffix(d.Name(), "-summary.csv")
		if d.IsDir() || !ok {
			return nil
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(path), id+"-seeds.csv")); err == nil {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		data, err := os.ReadFile(filepath.Join(filepath.Dir(path), id+".manifest.json"))
		var man struct {
			CacheVersion int `json:"cache_version"`
		}
		if err == nil && json.Unmarshal(data, &man) == nil && man.CacheVersion < 3 {
			t.Logf("%s: made with cache version %d, before seeds files; the next make figures writes %s-seeds.csv", rel, man.CacheVersion, id)
			stale++
			return nil
		}
		t.Errorf("%s has no %s-seeds.csv beside it (nadb figures writes both)", rel, id)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if stale > 0 {
		t.Logf("%d summaries predate their seeds files", stale)
	}
}

// TestTheorySeedsFile: the committed theory outputs include the per-sequence
// values (theorem1_seeds.csv), a row per sequence and checkpoint of
// theorem1.csv.
func TestTheorySeedsFile(t *testing.T) {
	dir := filepath.Join(root, "figures", "theory")
	seeds, err := os.ReadFile(filepath.Join(dir, "theorem1_seeds.csv"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "theorem1.csv"))
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	for _, line := range lines[1:] {
		f := strings.Split(line, ",")
		n, err := strconv.Atoi(f[3]) // the seeds column
		if err != nil {
			t.Fatalf("theorem1.csv: seeds column %q", f[3])
		}
		want += n
	}
	if got := strings.Count(string(seeds), "\n") - 1; got != want {
		t.Errorf("theorem1_seeds.csv has %d rows, theorem1.csv counts %d sequences × checkpoints", got, want)
	}
}
