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
	CPUSeconds   float64          `json:"cpu_s,omitempty"` // the run's thread (user + sys); 0: not measured
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
	f, ok, err := c.read(spec)
	if !ok || err != nil {
		return nil, 0, ok, err
	}
	cps, cols, err := experiments.ReadCSV(strings.NewReader(f.CSV))
	if err != nil {
		return nil, 0, false, fmt.Errorf("cache file %s: %w", c.path(f.Key), err)
	}
	return &experiments.Result{Spec: spec, Checkpoints: cps, Counts: f.Counts, ExtraColumns: cols}, f.WallSeconds, true, nil
}

// CPU returns the processor time in seconds that the cached run of spec
// took (its thread's user + sys time), or ok = false if the run is not
// cached or its time was not measured.
func (c *Cache) CPU(spec experiments.Spec) (sec float64, ok bool, err error) {
	f, ok, err := c.read(spec)
	if !ok || err != nil {
		return 0, false, err
	}
	return f.CPUSeconds, f.CPUSeconds > 0, nil
}

// read returns the cache file of spec, or ok = false if there is none.
func (c *Cache) read(spec experiments.Spec) (f cached, ok bool, err error) {
	key := spec.Key()
	data, err := os.ReadFile(c.path(key))
	if errors.Is(err, os.ErrNotExist) {
		return f, false, nil
	}
	if err != nil {
		return f, false, err
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return f, false, fmt.Errorf("cache file %s: %w (delete it to recompute)", c.path(key), err)
	}
	if f.Key != key {
		return f, false, fmt.Errorf("cache file %s holds key %s (delete it to recompute)", c.path(key), f.Key)
	}
	return f, true, nil
}

// Store writes res atomically, with the wall-clock seconds its run took.
func (c *Cache) Store(res *experiments.Result, wall float64) error { return c.StoreCPU(res, wall, 0) }

// StoreCPU is Store with the processor seconds the run took (0: not
// measured), which CPU returns and the cost table is made from.
func (c *Cache) StoreCPU(res *experiments.Result, wall, cpu float64) error {
	var buf bytes.Buffer
	if err := experiments.WriteCSV(&buf, res); err != nil {
		return err
	}
	key := res.Spec.Key()
	data, err := json.MarshalIndent(cached{Key: key, Spec: res.Spec, WallSeconds: wall, CPUSeconds: cpu, Counts: res.Counts, ExtraColumns: res.ExtraColumns, CSV: buf.String()}, "", " ")
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
