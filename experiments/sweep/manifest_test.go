package sweep

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestManifestIndependentOfWallTime: rendering the same results twice, with
// different wall times in the cache, writes byte-identical manifests, so that
// "make figures" on unchanged results leaves the committed manifests alone.
func TestManifestIndependentOfWallTime(t *testing.T) {
	f := tinyFigure()
	f.Seeds = 1
	cache := &Cache{Dir: t.TempDir()}
	if err := (&Sweep{Cache: cache, Workers: 1}).Execute(context.Background(), f.Jobs()); err != nil {
		t.Fatal(err)
	}
	manifest := func(wall float64) []byte {
		t.Helper()
		for _, j := range f.Jobs() {
			res, _, ok, err := cache.Load(j.Spec)
			if err != nil || !ok {
				t.Fatalf("cache: %v %v", ok, err)
			}
			if err := cache.Store(res, wall); err != nil {
				t.Fatal(err)
			}
		}
		tab, err := f.Aggregate(CacheLoader(cache))
		if err != nil {
			t.Fatal(err)
		}
		out := t.TempDir()
		if _, err := tab.Render(out, cache); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(out, "tiny.manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	a, b := manifest(1.5), manifest(7.25)
	if !bytes.Equal(a, b) {
		t.Errorf("manifests differ with the wall time:\n%s\n---\n%s", a, b)
	}
	if bytes.Contains(a, []byte("wall")) {
		t.Errorf("manifest records a wall time:\n%s", a)
	}
}
