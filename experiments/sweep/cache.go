package sweep

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/fsutil"
)

// Cache stores finished runs on disk, one file per run under Dir, named by
// the run's Key. Files are written to a temporary name and renamed, so a run
// interrupted while writing leaves no file that could be taken for a result.
type Cache struct {
	Dir string
}

// cached is the on-disk form of an experiments.Result; the checkpoints are kept as the CSV
// that WriteCSV produces, which represents NaN and round-trips every float.
type cached struct {
	Key          string           `json:"key"`
	Spec         experiments.Spec `json:"spec"`
	WallSeconds  float64          `json:"wall_s"`
	Counts       []int            `json:"counts"`
	ExtraColumns []string         `json:"extra_columns,omitempty"`
	CSV          string           `json:"csv"`
}

func (c *Cache) path(key string) string {
	return filepath.Join(c.Dir, key[:2], key+".json")
}

// Load returns the cached result of spec, or ok = false if there is none.
// A file that exists but cannot be read back is reported as an error.
func (c *Cache) Load(spec experiments.Spec) (res *experiments.Result, wall float64, ok bool, err error) {
	key := spec.Key()
	data, err := os.ReadFile(c.path(key))
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, err
	}
	var f cached
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, 0, false, fmt.Errorf("cache file %s: %w (delete it to recompute)", c.path(key), err)
	}
	if f.Key != key {
		return nil, 0, false, fmt.Errorf("cache file %s holds key %s (delete it to recompute)", c.path(key), f.Key)
	}
	cps, cols, err := experiments.ReadCSV(strings.NewReader(f.CSV))
	if err != nil {
		return nil, 0, false, fmt.Errorf("cache file %s: %w", c.path(key), err)
	}
	return &experiments.Result{Spec: spec, Checkpoints: cps, Counts: f.Counts, ExtraColumns: cols}, f.WallSeconds, true, nil
}

// Store writes res atomically.
func (c *Cache) Store(res *experiments.Result, wall float64) error {
	var buf bytes.Buffer
	if err := experiments.WriteCSV(&buf, res); err != nil {
		return err
	}
	key := res.Spec.Key()
	data, err := json.MarshalIndent(cached{Key: key, Spec: res.Spec, WallSeconds: wall, Counts: res.Counts, ExtraColumns: res.ExtraColumns, CSV: buf.String()}, "", " ")
	if err != nil {
		return err
	}
	return fsutil.WriteFile(c.path(key), data)
}

// CacheLoader loads from a cache and reports runs that are missing.
func CacheLoader(c *Cache) Loader {
	return func(s experiments.Spec) (*experiments.Result, error) {
		res, _, ok, err := c.Load(s)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("run not in the cache: %s on %s, seed %d", s.Algorithm, s.Problem.Name, s.Seed)
		}
		return res, nil
	}
}

// cachedReferences returns referencesMarkdown(f), kept in c beside the runs
// (under refs/, keyed like a run by experiments.CacheVersion, the problem
// and the number of seeds): the reference fits are deterministic, and
// refitting them made up most of a warm "nadb figures".
func cachedReferences(f Figure, c *Cache) (string, error) {
	if c == nil || c.Dir == "" {
		return referencesMarkdown(f)
	}
	b, err := json.Marshal(struct {
		Version int                     `json:"v"`
		Kind    string                  `json:"kind"`
		Problem experiments.ProblemSpec `json:"problem"`
		Seeds   int                     `json:"seeds"`
	}{experiments.CacheVersion, "references", f.Rows[0].Curves[0].Spec.Problem, f.Seeds})
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	key := hex.EncodeToString(sum[:])
	path := filepath.Join(c.Dir, "refs", key[:2], key+".md")
	if data, err := os.ReadFile(path); err == nil {
		return string(data), nil
	}
	md, err := referencesMarkdown(f)
	if err != nil {
		return "", err
	}
	return md, fsutil.WriteFile(path, []byte(md))
}
