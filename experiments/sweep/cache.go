package sweep

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/fsutil"
)

// Cache stores finished runs on disk, one file per run under Dir, named by
// the run's Key. Files are written to a temporary name and renamed, so a run
// interrupted while writing leaves no file that could be taken for a result.
//
// Every entry carries the sha256 of its payload (the key, the counts, the
// extra columns, the checkpoints' CSV and the run's times) and is re-verified
// when it is read: against its checksum, against the key it is filed under
// (the key of its own spec, too), and by parsing its CSV. A bad entry (an
// edited number, a truncated file) is reported by path through Warn, moved
// aside to PATH.bad and treated as missing, so the sweep recomputes it.
// Entries written before the checksum existed are verified against their
// key and CSV only ("make clean-cache" recomputes them).
type Cache struct {
	Dir string
	// Warn receives the report of a bad entry; slog's default logger
	// (standard error) when nil.
	Warn func(msg string)
}

// cached is the on-disk form of an experiments.Result; the checkpoints are kept as the CSV
// that WriteCSV produces, which represents NaN and round-trips every float.
type cached struct {
	Key          string           `json:"key"`
	Spec         experiments.Spec `json:"spec"`
	WallSeconds  float64          `json:"wall_s"`
	CPUSeconds   *float64         `json:"cpu_s,omitempty"` // the run's thread (user + sys); absent: not measured
	Flops        *int64           `json:"flops,omitempty"` // floating-point operations of its matrix products (internal/gemm); absent: not counted
	Counts       []int            `json:"counts"`
	ExtraColumns []string         `json:"extra_columns,omitempty"`
	CSV          string           `json:"csv"`
	SHA256       string           `json:"sha256,omitempty"` // payloadSum; absent in entries written before it existed
}

// cpu returns the recorded processor seconds, 0 if none.
func (f *cached) cpu() float64 {
	if f.CPUSeconds == nil {
		return 0
	}
	return *f.CPUSeconds
}

// flops returns the recorded operation count, 0 if none.
func (f *cached) flops() int64 {
	if f.Flops == nil {
		return 0
	}
	return *f.Flops
}

// payloadSum returns the hexadecimal sha256 of f's payload: everything but
// the spec (which the key hashes) and the checksum itself.
func (f *cached) payloadSum() string {
	b, err := json.Marshal(struct {
		Key          string   `json:"key"`
		WallSeconds  float64  `json:"wall_s"`
		CPUSeconds   float64  `json:"cpu_s"`
		Flops        int64    `json:"flops,omitempty"` // omitted when absent: older entries keep their sums
		Counts       []int    `json:"counts"`
		ExtraColumns []string `json:"extra_columns"`
		CSV          string   `json:"csv"`
	}{f.Key, f.WallSeconds, f.cpu(), f.flops(), f.Counts, f.ExtraColumns, f.CSV})
	if err != nil {
		panic(err) // only strings, ints and finite floats
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// bad reports the bad entry at path, moves it aside and returns the
// result of a missing entry.
func (c *Cache) bad(path, reason string) (*experiments.Result, float64, bool, error) {
	aside := path + ".bad"
	msg := fmt.Sprintf("cache entry %s is bad (%s): recomputing the run", path, reason)
	if err := os.Rename(path, aside); err != nil {
		return nil, 0, false, fmt.Errorf("%s; moving it aside failed (%v): delete it to recompute", msg, err)
	}
	msg += "; the bad entry is kept as " + aside
	if c.Warn != nil {
		c.Warn(msg)
	} else {
		slog.Warn(msg)
	}
	return nil, 0, false, nil
}

func (c *Cache) path(key string) string {
	return filepath.Join(c.Dir, key[:2], key+".json")
}

// Load returns the cached result of spec, or ok = false if there is none or
// the entry is bad (reported, moved aside; see Cache). An error is a file
// that cannot be read or moved.
func (c *Cache) Load(spec experiments.Spec) (res *experiments.Result, wall float64, ok bool, err error) {
	f, cps, cols, ok, err := c.read(spec)
	if !ok || err != nil {
		return nil, 0, ok, err
	}
	return &experiments.Result{Spec: spec, Checkpoints: cps, Counts: f.Counts, ExtraColumns: cols}, f.WallSeconds, true, nil
}

// CPU returns the processor time in seconds that the cached run of spec
// took (its thread's user + sys time), or ok = false if the run is not
// cached (or its entry is bad) or its time was not measured.
func (c *Cache) CPU(spec experiments.Spec) (sec float64, ok bool, err error) {
	f, _, _, ok, err := c.read(spec)
	if !ok || err != nil {
		return 0, false, err
	}
	if f.CPUSeconds == nil {
		return 0, false, nil
	}
	return *f.CPUSeconds, true, nil
}

// Flops returns the floating-point operations of the matrix products that
// the cached run of spec did (counted by package internal/gemm under
// gemm.FlopsEnv, recorded by a sweep with one worker), or ok = false if the
// run is not cached (or its entry is bad) or its operations were not counted.
func (c *Cache) Flops(spec experiments.Spec) (n int64, ok bool, err error) {
	f, _, _, ok, err := c.read(spec)
	if !ok || err != nil {
		return 0, false, err
	}
	if f.Flops == nil {
		return 0, false, nil
	}
	return *f.Flops, true, nil
}

// read returns the verified cache entry of spec with its checkpoints, or ok
// = false if there is none or it is bad (reported and moved aside).
func (c *Cache) read(spec experiments.Spec) (f cached, cps []experiments.Checkpoint, cols []string, ok bool, err error) {
	key := spec.Key()
	path := c.path(key)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return f, nil, nil, false, nil
	}
	if err != nil {
		return f, nil, nil, false, err
	}
	bad := func(reason string) (cached, []experiments.Checkpoint, []string, bool, error) {
		_, _, _, err := c.bad(path, reason)
		return cached{}, nil, nil, false, err
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return bad(err.Error())
	}
	switch {
	case f.Key != key:
		return bad("it holds key " + f.Key)
	case f.Spec.Key() != key:
		return bad("its spec has key " + f.Spec.Key())
	case f.SHA256 != "" && f.SHA256 != f.payloadSum():
		return bad("its content does not match its sha256: it was edited or damaged")
	}
	cps, cols, err = experiments.ReadCSV(strings.NewReader(f.CSV))
	if err != nil {
		return bad(err.Error())
	}
	if !slices.Equal(cols, f.ExtraColumns) && !(len(cols) == 0 && len(f.ExtraColumns) == 0) {
		return bad(fmt.Sprintf("its CSV has the extra columns %v, its record %v", cols, f.ExtraColumns))
	}
	return f, cps, cols, true, nil
}

// Store writes res atomically, with the wall-clock seconds its run took.
func (c *Cache) Store(res *experiments.Result, wall float64) error { return c.StoreCPU(res, wall, -1) }

// StoreCPU is Store with the processor seconds the run took (negative: not
// measured), which CPU returns and the cost table is made from.
func (c *Cache) StoreCPU(res *experiments.Result, wall, cpu float64) error {
	return c.StoreCost(res, wall, cpu, -1)
}

// StoreCost is StoreCPU with the floating-point operations of the run's
// matrix products (negative: not counted), which Flops returns.
func (c *Cache) StoreCost(res *experiments.Result, wall, cpu float64, flops int64) error {
	var cpuField *float64
	if cpu >= 0 {
		cpuField = &cpu
	}
	var flopsField *int64
	if flops >= 0 {
		flopsField = &flops
	}
	var buf bytes.Buffer
	if err := experiments.WriteCSV(&buf, res); err != nil {
		return err
	}
	key := res.Spec.Key()
	f := cached{Key: key, Spec: res.Spec, WallSeconds: wall, CPUSeconds: cpuField, Flops: flopsField, Counts: res.Counts, ExtraColumns: res.ExtraColumns, CSV: buf.String()}
	f.SHA256 = f.payloadSum()
	data, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return err
	}
	return fsutil.WriteFile(c.path(key), data)
}

// thin stores the run coarse, read off the cached run fine
// (experiments.Thin), with fine's times and operation count.
func (c *Cache) thin(fine, coarse experiments.Spec) error {
	f, cps, cols, ok, err := c.read(fine)
	if err == nil && !ok {
		err = fmt.Errorf("sweep: the cached run %s is gone", fine.Key())
	}
	if err != nil {
		return err
	}
	res, err := experiments.Thin(&experiments.Result{Spec: fine, Checkpoints: cps, Counts: f.Counts, ExtraColumns: cols}, coarse)
	if err != nil {
		return err
	}
	cpu, flops := -1.0, int64(-1)
	if f.CPUSeconds != nil {
		cpu = *f.CPUSeconds
	}
	if f.Flops != nil {
		flops = *f.Flops
	}
	return c.StoreCost(res, f.WallSeconds, cpu, flops)
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
		head, md, _ := strings.Cut(string(data), "\n")
		if head == refsHeader(md) {
			return md, nil
		}
		if _, _, _, err := c.bad(path, "its content does not match its sha256: it was edited or damaged"); err != nil {
			return "", err
		}
	}
	md, err := referencesMarkdown(f)
	if err != nil {
		return "", err
	}
	return md, fsutil.WriteFile(path, []byte(refsHeader(md)+"\n"+md))
}

// refsHeader is the first line of a cached references file: the sha256 of
// the Markdown that follows it.
func refsHeader(md string) string {
	sum := sha256.Sum256([]byte(md))
	return "nadb-cache sha256=" + hex.EncodeToString(sum[:])
}
