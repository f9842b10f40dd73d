package sweep

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/fsutil"
)

// RunRecord is one run in a figure's manifest.
type RunRecord struct {
	Key  string           `json:"key"`
	Spec experiments.Spec `json:"spec"`
}

// Manifest describes how a figure was made: what was run and with which
// toolchain, nothing that changes from one run to the next. Wall times stay
// in the cache (Cache.Load), so that re-rendering identical results rewrites
// identical manifests.
type Manifest struct {
	ID       string            `json:"id"`
	Caption  string            `json:"caption"`
	Paper    string            `json:"paper"`
	Seeds    int               `json:"seeds"`
	Go       string            `json:"go"`
	GOAMD64  string            `json:"goamd64"`
	Modules  map[string]string `json:"modules"`
	CacheVer int               `json:"cache_version"`
	Runs     []RunRecord       `json:"runs"`
}

// Render writes dir/Dir/ID.{png,svg,pdf}, the plotted numbers as ID.csv,
// the manifest ID.manifest.json and the figure's Tables beside them, and
// returns the paths written.
func (t *Table) Render(dir string, c *Cache) ([]string, error) {
	f := t.Figure
	dir = filepath.Join(dir, f.Dir)
	base := filepath.Join(dir, f.ID)
	paths, err := t.Plot().Save(base)
	if err != nil {
		return paths, err
	}
	var buf bytes.Buffer
	if err := t.WriteCSV(&buf); err != nil {
		return paths, err
	}
	if err := fsutil.WriteFile(base+".csv", buf.Bytes()); err != nil {
		return paths, err
	}
	paths = append(paths, base+".csv")
	man := Manifest{ID: f.ID, Caption: f.Caption, Paper: f.Paper, Seeds: f.Seeds, Go: runtime.Version(), GOAMD64: goamd64(), Modules: modules(), CacheVer: experiments.CacheVersion}
	for _, j := range f.Jobs() {
		man.Runs = append(man.Runs, RunRecord{Key: j.Spec.Key(), Spec: j.Spec})
	}
	data, err := json.MarshalIndent(man, "", " ")
	if err != nil {
		return paths, err
	}
	if err := fsutil.WriteFile(base+".manifest.json", append(data, '\n')); err != nil {
		return paths, err
	}
	paths = append(paths, base+".manifest.json")
	if f.Tables != nil && c != nil {
		more, err := f.Tables(f, c, dir)
		paths = append(paths, more...)
		if err != nil {
			return paths, fmt.Errorf("%s: tables: %w", f.ID, err)
		}
	}
	return paths, nil
}

func modules() map[string]string {
	m := map[string]string{}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			m[d.Path] = d.Version
		}
	}
	return m
}

func goamd64() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "GOAMD64" {
				return s.Value
			}
		}
	}
	return "unknown"
}
