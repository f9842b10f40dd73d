package theory

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/fsutil"
)

// CacheVersion names the cached outputs of RunCached, together with
// experiments.CacheVersion (the theory runs Neural-ADB through package
// experiments). Bump it whenever a change to this package changes the
// numbers Run produces.
const CacheVersion = 5

// RunCached is Run followed by Results.Write(out), with the written files also
// kept under cacheDir (one folder per size and CacheVersion). When that folder
// is complete, RunCached copies it to out instead of recomputing and draws
// the figures again from its tables (Redraw), so that regenerating the
// outputs of an unchanged package takes seconds and a change to how the
// figures look shows without a re-run. It returns the paths written and the
// Markdown summary.
func RunCached(ctx context.Context, opts Options, cacheDir, out string) ([]string, []byte, error) {
	size := "full"
	if opts.Quick {
		size = "quick"
	}
	cached := filepath.Join(cacheDir, fmt.Sprintf("%s-v%d-e%d", size, CacheVersion, experiments.CacheVersion))
	if _, err := os.Stat(filepath.Join(cached, "summary.md")); err == nil {
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, "theory: outputs from the cache %s, figures redrawn\n", cached)
		}
		paths, summary, err := copyDir(cached, out)
		if err != nil {
			return paths, summary, err
		}
		// The figures are drawn again from the cached tables, so that a
		// change to how they look needs no re-run (and no CacheVersion).
		drawn, err := Redraw(out)
		for _, p := range drawn {
			if !slices.Contains(paths, p) {
				paths = append(paths, p)
			}
		}
		return paths, summary, err
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, nil, err
	}
	r, err := Run(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return nil, nil, err
	}
	tmp, err := os.MkdirTemp(cacheDir, ".tmp-*")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	if _, err := r.Write(tmp); err != nil {
		return nil, nil, err
	}
	os.RemoveAll(cached)
	if err := os.Rename(tmp, cached); err != nil {
		return nil, nil, err
	}
	return copyDir(cached, out)
}

// copyDir copies the regular files of src into dst and returns their paths
// and the contents of summary.md.
func copyDir(src, dst string) ([]string, []byte, error) {
	entries, err := os.ReadDir(src)
	if err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return nil, nil, err
	}
	var paths []string
	var summary []byte
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return nil, nil, err
		}
		if e.Name() == "summary.md" {
			summary = data
		}
		p := filepath.Join(dst, e.Name())
		if err := fsutil.WriteFile(p, data); err != nil {
			return nil, nil, err
		}
		paths = append(paths, p)
	}
	return paths, summary, nil
}
