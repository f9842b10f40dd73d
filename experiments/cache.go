package experiments

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/neural-adb/nadb/internal/fsutil"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// CacheVersion is part of every cache key. Bump it whenever a change to the
// code changes the numbers a Spec produces (an algorithm, a problem, a metric),
// so that stale results are never reused; "make clean-cache" also clears them.
const CacheVersion = 1

// Key returns the cache key of a run: the SHA-256 of the cache version and the
// complete Spec in JSON (every config field, the problem, T, Every, Seed).
func (s Spec) Key() string {
	b, err := json.Marshal(struct {
		Version int  `json:"v"`
		Spec    Spec `json:"spec"`
	}{CacheVersion, s})
	if err != nil {
		panic(err) // Spec has only plain fields
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Cache stores finished runs on disk, one file per run under Dir, named by
// the run's Key. Files are written to a temporary name and renamed, so a run
// interrupted while writing leaves no file that could be taken for a result.
type Cache struct {
	Dir string
}

// cached is the on-disk form of a Result; the checkpoints are kept as the CSV
// that WriteCSV produces, which represents NaN and round-trips every float.
type cached struct {
	Key          string   `json:"key"`
	Spec         Spec     `json:"spec"`
	WallSeconds  float64  `json:"wall_s"`
	Counts       []int    `json:"counts"`
	ExtraColumns []string `json:"extra_columns,omitempty"`
	CSV          string   `json:"csv"`
}

func (c *Cache) path(key string) string {
	return filepath.Join(c.Dir, key[:2], key+".json")
}

// Load returns the cached result of spec, or ok = false if there is none.
// A file that exists but cannot be read back is reported as an error.
func (c *Cache) Load(spec Spec) (res *Result, wall float64, ok bool, err error) {
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
	cps, cols, err := ReadCSV(strings.NewReader(f.CSV))
	if err != nil {
		return nil, 0, false, fmt.Errorf("cache file %s: %w", c.path(key), err)
	}
	return &Result{Spec: spec, Checkpoints: cps, Counts: f.Counts, ExtraColumns: cols}, f.WallSeconds, true, nil
}

// Store writes res atomically.
func (c *Cache) Store(res *Result, wall float64) error {
	var buf bytes.Buffer
	if err := WriteCSV(&buf, res); err != nil {
		return err
	}
	key := res.Spec.Key()
	data, err := json.MarshalIndent(cached{Key: key, Spec: res.Spec, WallSeconds: wall, Counts: res.Counts, ExtraColumns: res.ExtraColumns, CSV: buf.String()}, "", " ")
	if err != nil {
		return err
	}
	return fsutil.WriteFile(c.path(key), data)
}

// ReadCSV parses the output of WriteCSV: the standard columns in order,
// then any extra columns, whose names it returns.
func ReadCSV(r io.Reader) ([]Checkpoint, []string, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("reading header: %w", err)
	}
	if len(header) < len(Columns) {
		return nil, nil, fmt.Errorf("header has %d columns, want at least %d (%s)", len(header), len(Columns), strings.Join(Columns, ","))
	}
	for i, c := range Columns {
		if header[i] != c {
			return nil, nil, fmt.Errorf("column %d is %q, want %q", i+1, header[i], c)
		}
	}
	var extra []string
	if len(header) > len(Columns) {
		extra = header[len(Columns):]
	}
	var cps []Checkpoint
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		num := func(col int) float64 {
			if err != nil {
				return math.NaN()
			}
			var v float64
			v, err = strconv.ParseFloat(rec[col], 64)
			if err != nil {
				err = fmt.Errorf("line %d, column %s: %q is not a number", line, header[col], rec[col])
			}
			return v
		}
		cp := Checkpoint{T: int(num(0)), WorstGap: num(1), MeanGap: num(2), QueriedGap: num(3), AvgRegret: num(4),
			Distinct: int(num(5)), Elapsed: num(6), TopShare: num(7)}
		for k := range extra {
			cp.Extra = append(cp.Extra, num(len(Columns)+k))
		}
		if err != nil {
			return nil, nil, err
		}
		cps = append(cps, cp)
	}
	return cps, extra, nil
}
