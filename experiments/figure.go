package experiments

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"github.com/neural-adb/nadb/internal/fsutil"
	"math"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"

	"github.com/neural-adb/nadb/internal/plotfig"
	"github.com/neural-adb/nadb/internal/stats"
)

// Curve is one line of a figure: a run Spec (its Seed is replaced by
// 1..Figure.Seeds) and its legend label.
type Curve struct {
	Label string
	Spec  Spec
}

// Row is one row of panels: one panel per metric, the same curves in each.
type Row struct {
	Title  string
	Curves []Curve
}

// Figure declares one figure: which runs it needs and how they are drawn.
// Figures are data; Jobs, Aggregate and Render do the work.
type Figure struct {
	ID      string   // stable identifier, the file name stem
	Caption string   // what the figure shows
	Paper   string   // the paper's figure it reproduces, or "ours"
	Metrics []string // metric names (see Metric), one panel column each
	Rows    []Row
	Seeds   int // repetitions; seeds 1..Seeds
	// Sequential styles curves by their position in the row (ablation grids)
	// instead of by algorithm.
	Sequential bool
	// Dir is the subfolder of the output directory the figure goes to
	// ("" for the top level), so that a topic's figures and tables sit together.
	Dir string
	// Tables, if set, writes further outputs (summary tables) into the
	// figure's folder after the figure; it returns the paths written.
	Tables func(f Figure, load Loader, dir string) ([]string, error)
}

// Metric returns the value of a named metric at a checkpoint: one of the
// standard CSV columns or an extra column of the result.
func Metric(res *Result, cp Checkpoint, name string) (float64, error) {
	switch name {
	case "worst_gap":
		return cp.WorstGap, nil
	case "mean_gap":
		return cp.MeanGap, nil
	case "queried_gap":
		return cp.QueriedGap, nil
	case "avg_regret":
		return cp.AvgRegret, nil
	case "distinct_contexts":
		return float64(cp.Distinct), nil
	case "top_context_share":
		return cp.TopShare, nil
	}
	if i := slices.Index(res.ExtraColumns, name); i >= 0 {
		return cp.Extra[i], nil
	}
	return math.NaN(), fmt.Errorf("unknown metric %q", name)
}

// metricLabels are the panel titles and y-axis labels of the metrics (ASCII,
// so that the PDF renders).
var metricLabels = map[string][2]string{
	"worst_gap":         {"Worst sub-optimality gap", "gap (reward units)"},
	"mean_gap":          {"MAE (pool mean gap)", "gap (reward units)"},
	"queried_gap":       {"MAE (queried contexts)", "gap (reward units)"},
	"avg_regret":        {"Average regret", "regret (reward units)"},
	"distinct_contexts": {"Distinct contexts queried", "contexts"},
	"top_context_share": {"Share on top context", "fraction of duels"},
}

// MetricLabel returns the panel title and axis label of a metric.
func MetricLabel(name string) (title, axis string) {
	if l, ok := metricLabels[name]; ok {
		return l[0], l[1]
	}
	return name, name
}

// Jobs lists every run the figure needs.
func (f Figure) Jobs() []Job {
	var jobs []Job
	for _, r := range f.Rows {
		for _, c := range r.Curves {
			for seed := 1; seed <= f.Seeds; seed++ {
				s := c.Spec
				s.Seed = uint64(seed)
				jobs = append(jobs, Job{Spec: s, Group: f.ID})
			}
		}
	}
	return jobs
}

// Point is the across-seed summary of one metric at one checkpoint.
type Point struct {
	T            int
	Mean, Lo, Hi float64 // mean and its 95% t-interval
	N            int     // seeds with a finite value
}

// Table is a figure's plotted numbers: Points[row][curve][metric].
type Table struct {
	Figure Figure
	Points [][][][]Point
}

// Loader returns the finished result of a run.
type Loader func(Spec) (*Result, error)

// CacheLoader loads from a cache and reports runs that are missing.
func CacheLoader(c *Cache) Loader {
	return func(s Spec) (*Result, error) {
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

// Aggregate summarises the figure's runs across seeds: at every checkpoint,
// the mean and a 95% Student-t interval of each metric.
func (f Figure) Aggregate(load Loader) (*Table, error) {
	tab := &Table{Figure: f, Points: make([][][][]Point, len(f.Rows))}
	for ri, r := range f.Rows {
		tab.Points[ri] = make([][][]Point, len(r.Curves))
		for ci, c := range r.Curves {
			var results []*Result
			for seed := 1; seed <= f.Seeds; seed++ {
				s := c.Spec
				s.Seed = uint64(seed)
				res, err := load(s)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", f.ID, err)
				}
				if len(results) > 0 && len(res.Checkpoints) != len(results[0].Checkpoints) {
					return nil, fmt.Errorf("%s: seeds of %q have different checkpoints", f.ID, c.Label)
				}
				results = append(results, res)
			}
			tab.Points[ri][ci] = make([][]Point, len(f.Metrics))
			for mi, m := range f.Metrics {
				pts := make([]Point, len(results[0].Checkpoints))
				for k := range pts {
					var vals []float64
					for _, res := range results {
						v, err := Metric(res, res.Checkpoints[k], m)
						if err != nil {
							return nil, fmt.Errorf("%s: %w", f.ID, err)
						}
						if !math.IsNaN(v) {
							vals = append(vals, v)
						}
					}
					p := Point{T: results[0].Checkpoints[k].T, N: len(vals), Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
					if len(vals) > 0 {
						mean, half := stats.MeanCI(vals, 0.95)
						p.Mean = mean
						if !math.IsNaN(half) {
							p.Lo, p.Hi = mean-half, mean+half
						}
					}
					pts[k] = p
				}
				tab.Points[ri][ci][mi] = pts
			}
		}
	}
	return tab, nil
}

// WriteCSV writes the plotted numbers in long form:
// row,curve,metric,t,mean,ci_low,ci_high,n.
func (t *Table) WriteCSV(buf *bytes.Buffer) error {
	w := csv.NewWriter(buf)
	w.Write([]string{"row", "curve", "metric", "t", "mean", "ci_low", "ci_high", "n"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for ri, r := range t.Figure.Rows {
		for ci, c := range r.Curves {
			for mi, m := range t.Figure.Metrics {
				for _, p := range t.Points[ri][ci][mi] {
					w.Write([]string{r.Title, c.Label, m, strconv.Itoa(p.T), f(p.Mean), f(p.Lo), f(p.Hi), strconv.Itoa(p.N)})
				}
			}
		}
	}
	w.Flush()
	return w.Error()
}

// Plot lays the table out as in the paper: one row of panels per Row, one
// column per metric.
func (t *Table) Plot() *plotfig.Figure {
	f := t.Figure
	// Sequential figures have different curves per row: each row gets its own
	// legend in its first panel instead of one legend for the figure.
	pf := &plotfig.Figure{Rows: len(f.Rows), Cols: len(f.Metrics), NoLegend: f.Sequential}
	for ri, r := range f.Rows {
		for mi, m := range f.Metrics {
			title, axis := MetricLabel(m)
			panel := plotfig.Panel{Title: r.Title + "\n" + title, XLabel: "T (number of duels)", YLabel: axis, Legend: f.Sequential && mi == 0,
				XMin: 0, XMax: float64(maxT(t.Points[ri]))}
			for ci, c := range r.Curves {
				pts := t.Points[ri][ci][mi]
				s := plotfig.Series{Label: c.Label}
				if f.Sequential {
					s.Style = plotfig.Sequential(ci, len(r.Curves))
				} else {
					s.Style = plotfig.StyleFor(c.Spec.Algorithm)
				}
				for _, p := range pts {
					s.X = append(s.X, float64(p.T))
					s.Y = append(s.Y, p.Mean)
					s.Lo = append(s.Lo, p.Lo)
					s.Hi = append(s.Hi, p.Hi)
				}
				panel.Series = append(panel.Series, s)
			}
			pf.Panels = append(pf.Panels, panel)
		}
	}
	return pf
}

func maxT(curves [][][]Point) int {
	m := 0
	for _, c := range curves {
		for _, pts := range c {
			for _, p := range pts {
				m = max(m, p.T)
			}
		}
	}
	return m
}

// RunRecord is one run in a figure's manifest.
type RunRecord struct {
	Key         string  `json:"key"`
	Spec        Spec    `json:"spec"`
	WallSeconds float64 `json:"wall_s"`
}

// Manifest describes how a figure was made.
type Manifest struct {
	ID        string            `json:"id"`
	Caption   string            `json:"caption"`
	Paper     string            `json:"paper"`
	Seeds     int               `json:"seeds"`
	Go        string            `json:"go"`
	GOAMD64   string            `json:"goamd64"`
	Modules   map[string]string `json:"modules"`
	CacheVer  int               `json:"cache_version"`
	Runs      []RunRecord       `json:"runs"`
	TotalWall float64           `json:"total_wall_s"`
}

// Render writes dir/Dir/ID.{png,svg,pdf} (PDF when its labels are ASCII), the
// plotted numbers as ID.csv, the manifest ID.manifest.json and the figure's
// Tables beside them, and returns the paths written.
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
	man := Manifest{ID: f.ID, Caption: f.Caption, Paper: f.Paper, Seeds: f.Seeds, Go: runtime.Version(), GOAMD64: goamd64(), Modules: modules(), CacheVer: CacheVersion}
	for _, j := range f.Jobs() {
		rec := RunRecord{Key: j.Spec.Key(), Spec: j.Spec}
		if c != nil {
			if _, wall, ok, err := c.Load(j.Spec); err == nil && ok {
				rec.WallSeconds = wall
			}
		}
		man.TotalWall += rec.WallSeconds
		man.Runs = append(man.Runs, rec)
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
		more, err := f.Tables(f, CacheLoader(c), dir)
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
