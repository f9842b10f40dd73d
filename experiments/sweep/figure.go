package sweep

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/stats"
)

// Curve is one line of a figure: a run experiments.Spec (its Seed is replaced by
// 1..Figure.Seeds) and its legend label.
type Curve struct {
	Label string
	Spec  experiments.Spec
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
	// figure's folder after the figure; it returns the paths written. It
	// reads the runs from c (CacheLoader), where it may also keep what it
	// derives from them.
	Tables func(f Figure, c *Cache, dir string) ([]string, error)
	// ByFamily draws each row's curves in one row of panels per algorithm
	// family (Families), with shared y ranges per metric, for rows with too
	// many curves for one panel. The runs, CSV and tables are unchanged.
	ByFamily bool
	// References are horizontal reference levels per metric name, drawn in
	// every panel of that metric and listed in the legend.
	References map[string][]Reference
	// Scale is the name of the Scale the figure was built at (Figures sets
	// it); figures at any scale but Paper are marked as such.
	Scale string
	// LogX draws the duel axis on a log scale, from the first checkpoint
	// after t = 0 (the learning curves of figures/choice).
	LogX bool
	// Registered marks a figure whose rows have a curve for every
	// registered algorithm (the real-data benchmarks): a CSV written before
	// an algorithm was registered lacks its curve, and ReadCSV leaves such
	// a curve out instead of failing, so the committed figure still re-plots.
	Registered bool
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
type Loader func(experiments.Spec) (*experiments.Result, error)

// Aggregate summarises the figure's runs across seeds: at every checkpoint,
// the mean and a 95% Student-t interval of each metric.
func (f Figure) Aggregate(load Loader) (*Table, error) {
	tab := &Table{Figure: f, Points: make([][][][]Point, len(f.Rows))}
	for ri, r := range f.Rows {
		tab.Points[ri] = make([][][]Point, len(r.Curves))
		for ci, c := range r.Curves {
			var results []*experiments.Result
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
						v, err := experiments.Metric(res, res.Checkpoints[k], m)
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

// ErrNoPoints reports a CSV without the points of a curve of the figure
// (written before the curve was added).
var ErrNoPoints = errors.New("no points")

// ReadCSV reads the plotted numbers that WriteCSV wrote for figure f back
// into a Table, so that a figure re-plots from its CSV without its runs. Every
// (row, curve, metric) of f must be present; rows of the CSV that f does
// not have are an error.
func (f Figure) ReadCSV(r io.Reader) (*Table, error) {
	recs, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("sweep: %s.csv: %w", f.ID, err)
	}
	header := "row,curve,metric,t,mean,ci_low,ci_high,n"
	if len(recs) == 0 || strings.Join(recs[0], ",") != header {
		return nil, fmt.Errorf("sweep: %s.csv: header must be %s", f.ID, header)
	}
	type key struct{ row, curve, metric string }
	idx := map[key][3]int{}
	tab := &Table{Figure: f, Points: make([][][][]Point, len(f.Rows))}
	for ri, row := range f.Rows {
		tab.Points[ri] = make([][][]Point, len(row.Curves))
		for ci, c := range row.Curves {
			tab.Points[ri][ci] = make([][]Point, len(f.Metrics))
			for mi, m := range f.Metrics {
				idx[key{row.Title, c.Label, m}] = [3]int{ri, ci, mi}
			}
		}
	}
	for line, rec := range recs[1:] {
		at, ok := idx[key{rec[0], rec[1], rec[2]}]
		if !ok {
			return nil, fmt.Errorf("sweep: %s.csv line %d: figure has no row %q, curve %q, metric %q", f.ID, line+2, rec[0], rec[1], rec[2])
		}
		var p Point
		var errs [6]error
		p.T, errs[0] = strconv.Atoi(rec[3])
		p.Mean, errs[1] = strconv.ParseFloat(rec[4], 64)
		p.Lo, errs[2] = strconv.ParseFloat(rec[5], 64)
		p.Hi, errs[3] = strconv.ParseFloat(rec[6], 64)
		p.N, errs[4] = strconv.Atoi(rec[7])
		if err := errors.Join(errs[:]...); err != nil {
			return nil, fmt.Errorf("sweep: %s.csv line %d: %w", f.ID, line+2, err)
		}
		pts := &tab.Points[at[0]][at[1]][at[2]]
		*pts = append(*pts, p)
	}
	if f.Registered {
		tab.dropAbsentCurves()
	}
	for ri, row := range tab.Figure.Rows {
		for ci, c := range row.Curves {
			for mi, m := range f.Metrics {
				if len(tab.Points[ri][ci][mi]) == 0 {
					return nil, fmt.Errorf("sweep: %s.csv: %w for row %q, curve %q, metric %q", f.ID, ErrNoPoints, row.Title, c.Label, m)
				}
			}
		}
	}
	return tab, nil
}

// dropAbsentCurves removes from t the curves without a point in any
// metric (of an algorithm registered after the CSV was written), leaving
// the figure t was read for unchanged.
func (t *Table) dropAbsentCurves() {
	rows := slices.Clone(t.Figure.Rows)
	for ri := range rows {
		var curves []Curve
		var pts [][][]Point
		for ci, c := range rows[ri].Curves {
			if slices.ContainsFunc(t.Points[ri][ci], func(p []Point) bool { return len(p) > 0 }) {
				curves = append(curves, c)
				pts = append(pts, t.Points[ri][ci])
			}
		}
		rows[ri].Curves, t.Points[ri] = curves, pts
	}
	t.Figure.Rows = rows
}
