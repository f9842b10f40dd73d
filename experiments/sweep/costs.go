package sweep

import (
	"crypto/sha256"
	_ "embed"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/neural-adb/nadb/experiments"
)

// CostKey identifies a run's configuration in a cost table: a hash of its
// Spec without the seed (and without experiments.CacheVersion, so that a
// change of the numbers keeps the costs).
func CostKey(s experiments.Spec) string {
	s.Seed = 0
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // Spec has only plain fields
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// Cost is the measured processor time of one configuration's runs.
type Cost struct {
	Key        string
	Figure     string // the first figure that runs it (for the reader)
	Algorithm  string
	Problem    string
	Candidates int
	T          int
	Runs       int     // runs the mean is over
	CPU        float64 // mean processor seconds (user + sys) of one run
	// GFLOP is the mean of the floating-point operations (in 10⁹) of one
	// run's matrix products, over the runs whose operations were counted
	// (Cache.Flops); negative when none was: the run's arithmetic, which
	// divided by a core's peak rate is the floor under its processor time.
	GFLOP float64
}

// Costs is a table of measured run costs: Estimate gives the expected
// processor time of a run, for the progress display's ETA, the order in
// which a sweep starts its runs and nadb figures -list. The committed table
// (costs.csv, DefaultCosts) is measured by nadb figures -costs from the
// runs of a cold sweep.
type Costs struct {
	Note   string // the table's comment lines: where and how it was measured
	byKey  map[string]Cost
	byAlgo map[string][]float64 // algorithm → per-run costs of its configurations
	byKind map[string][]float64 // algorithm, problem, fresh or not → the same
	all    []float64
}

// GFLOP returns the counted arithmetic of a run of s in 10⁹ floating-point
// operations (Cost.GFLOP), and false if its configuration has no count.
func (c *Costs) GFLOP(s experiments.Spec) (float64, bool) {
	r, ok := c.byKey[CostKey(s)]
	if !ok || r.GFLOP < 0 {
		return 0, false
	}
	return r.GFLOP, true
}

//go:embed costs.csv
var costsCSV string

var defaultCosts = sync.OnceValue(func() *Costs {
	c, err := ReadCosts(strings.NewReader(costsCSV))
	if err != nil {
		panic(fmt.Sprintf("sweep: the committed costs.csv: %v", err))
	}
	return c
})

// DefaultCosts returns the committed cost table.
func DefaultCosts() *Costs { return defaultCosts() }

// costHeader is the header row of a cost table; tables written before the
// operation counts existed lack its last column (gflop; empty: not counted).
var costHeader = []string{"key", "figure", "algorithm", "problem", "candidates", "T", "runs", "cpu_s", "gflop"}

// ReadCosts reads a cost table: lines starting with # (kept as Note), then
// a CSV with the columns of costHeader (or all but its last).
func ReadCosts(r io.Reader) (*Costs, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var note, body strings.Builder
	for line := range strings.SplitAfterSeq(string(data), "\n") {
		if t, ok := strings.CutPrefix(line, "#"); ok {
			note.WriteString(strings.TrimPrefix(t, " "))
		} else {
			body.WriteString(line)
		}
	}
	recs, err := csv.NewReader(strings.NewReader(body.String())).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("cost table: %w", err)
	}
	if len(recs) == 0 || !slices.Equal(recs[0], costHeader) && !slices.Equal(recs[0], costHeader[:len(costHeader)-1]) {
		return nil, fmt.Errorf("cost table: header must be %s", strings.Join(costHeader, ","))
	}
	var rows []Cost
	for i, r := range recs[1:] {
		c := Cost{Key: r[0], Figure: r[1], Algorithm: r[2], Problem: r[3], GFLOP: -1}
		if len(r) == len(costHeader) && r[8] != "" {
			g, err := strconv.ParseFloat(r[8], 64)
			if err != nil || !(g >= 0) {
				return nil, fmt.Errorf("cost table line %d: gflop must be empty or a number ≥ 0", i+2)
			}
			c.GFLOP = g
		}
		var errs [4]error
		c.Candidates, errs[0] = strconv.Atoi(r[4])
		c.T, errs[1] = strconv.Atoi(r[5])
		c.Runs, errs[2] = strconv.Atoi(r[6])
		c.CPU, errs[3] = strconv.ParseFloat(r[7], 64)
		for _, e := range errs {
			if e != nil {
				return nil, fmt.Errorf("cost table line %d: %w", i+2, e)
			}
		}
		if !(c.CPU >= 0) || c.Runs < 1 {
			return nil, fmt.Errorf("cost table line %d: cpu_s must be ≥ 0 and runs ≥ 1", i+2)
		}
		rows = append(rows, c)
	}
	return NewCosts(strings.TrimRight(note.String(), "\n"), rows), nil
}

// NewCosts returns the table of the given rows.
func NewCosts(note string, rows []Cost) *Costs {
	c := &Costs{Note: note, byKey: map[string]Cost{}, byAlgo: map[string][]float64{}, byKind: map[string][]float64{}}
	for _, r := range rows {
		c.byKey[r.Key] = r
		c.byAlgo[r.Algorithm] = append(c.byAlgo[r.Algorithm], r.CPU)
		k := kindKey(r.Algorithm, r.Problem, r.Candidates)
		c.byKind[k] = append(c.byKind[k], r.CPU)
		c.all = append(c.all, r.CPU)
	}
	return c
}

// kindKey groups configurations for estimates of unmeasured ones.
func kindKey(algo, problem string, candidates int) string {
	return fmt.Sprintf("%s|%s|%t", algo, problem, candidates > 0)
}

// Estimate returns the expected processor seconds of the run s and whether
// its configuration was measured. An unmeasured configuration gets the
// median cost of the measured ones of the same algorithm, problem and
// reading (fixed pool or fresh contexts), else of the same algorithm, else
// of every measured one, scaled by its T against the paper's 1,000 rounds
// (the costs of most learners grow faster than T; a rough guess).
func (c *Costs) Estimate(s experiments.Spec) (sec float64, measured bool) {
	if r, ok := c.byKey[CostKey(s)]; ok {
		return r.CPU, true
	}
	vals := c.byKind[kindKey(s.Algorithm, s.Problem.Name, s.Problem.Candidates)]
	if len(vals) == 0 {
		vals = c.byAlgo[s.Algorithm]
	}
	if len(vals) == 0 {
		vals = c.all
	}
	if len(vals) == 0 {
		return 1, false
	}
	v := slices.Clone(vals)
	sort.Float64s(v)
	return v[len(v)/2] * float64(s.T) / 1000, false
}

// Len returns the number of measured configurations.
func (c *Costs) Len() int { return len(c.byKey) }

// WriteCosts writes a cost table: the note as comment lines, then the rows
// in the order given.
func WriteCosts(w io.Writer, note string, rows []Cost) error {
	for line := range strings.SplitSeq(note, "\n") {
		if _, err := fmt.Fprintf(w, "# %s\n", line); err != nil {
			return err
		}
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(costHeader); err != nil {
		return err
	}
	for _, r := range rows {
		g := ""
		if r.GFLOP >= 0 {
			g = strconv.FormatFloat(r.GFLOP, 'f', 3, 64)
		}
		if err := cw.Write([]string{r.Key, r.Figure, r.Algorithm, r.Problem, strconv.Itoa(r.Candidates), strconv.Itoa(r.T), strconv.Itoa(r.Runs), strconv.FormatFloat(r.CPU, 'f', 3, 64), g}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// MeasuredCosts returns the cost rows of the figures' configurations from
// the processor times recorded in the cache (the mean over the cached runs
// of each configuration), in figure order, and the number of runs without a
// recorded time.
func MeasuredCosts(figs []Figure, c *Cache) (rows []Cost, missing int, err error) {
	idx := map[string]int{}
	var flops []float64 // per row: summed counts of the runs that have one
	var counted []int
	seen := map[string]bool{}
	for _, f := range figs {
		for _, j := range f.Jobs() {
			if seen[j.Spec.Key()] {
				continue
			}
			seen[j.Spec.Key()] = true
			cpu, ok, err := c.CPU(j.Spec)
			if err != nil {
				return nil, 0, err
			}
			if !ok {
				missing++
				continue
			}
			k := CostKey(j.Spec)
			i, ok := idx[k]
			if !ok {
				i = len(rows)
				idx[k] = i
				rows = append(rows, Cost{Key: k, Figure: f.ID, Algorithm: j.Spec.Algorithm, Problem: j.Spec.Problem.Name,
					Candidates: j.Spec.Problem.Candidates, T: j.Spec.T})
				flops, counted = append(flops, 0), append(counted, 0)
			}
			rows[i].Runs++
			rows[i].CPU += cpu
			n, ok, err := c.Flops(j.Spec)
			if err != nil {
				return nil, 0, err
			}
			if ok {
				flops[i] += float64(n)
				counted[i]++
			}
		}
	}
	for i := range rows {
		rows[i].CPU /= float64(rows[i].Runs)
		rows[i].GFLOP = -1
		if counted[i] > 0 {
			rows[i].GFLOP = flops[i] / float64(counted[i]) / 1e9
		}
	}
	return rows, missing, nil
}

// CostSamples returns, for every configuration of the figures none of whose
// cached runs has a recorded processor time (or, with withFlops, a counted
// arithmetic: Cache.Flops), its first run (the lowest seed): running them
// makes MeasuredCosts cover every configuration at the cost of one run each.
func CostSamples(figs []Figure, c *Cache, withFlops bool) ([]Job, error) {
	timed := map[string]bool{}
	first := map[string]Job{}
	var order []string
	for _, f := range figs {
		for _, j := range f.Jobs() {
			k := CostKey(j.Spec)
			if _, ok := first[k]; !ok {
				first[k] = j
				order = append(order, k)
			}
			if j.Spec.Seed < first[k].Spec.Seed {
				first[k] = j
			}
			if timed[k] {
				continue
			}
			_, ok, err := c.CPU(j.Spec)
			if err != nil {
				return nil, err
			}
			if ok && withFlops {
				_, ok, err = c.Flops(j.Spec)
				if err != nil {
					return nil, err
				}
			}
			timed[k] = ok
		}
	}
	var out []Job
	for _, k := range order {
		if !timed[k] {
			out = append(out, first[k])
		}
	}
	return out, nil
}
