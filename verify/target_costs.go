package verify

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments/sweep"
)

// Claim 10d (verify/prereg/target.json) is a measurement, not a test, so it
// is not in the claims table (a recorded verdict on processor times would
// be a guard on the machine's load): TargetCosts decides it and writes
// figures/target/target-costs.md from
//
//   - (i) per problem of figures/choice, the median over the evaluation seeds
//     of the ratio of the processor time (user + sys) the run cache recorded
//     for neural-adb-target's run and for neural-adb-plus's with the same
//     seed (TargetCostRatios);
//   - (ii) the reports of GNU time (/usr/bin/time -v) of nadb run on the
//     Letter-like pool (ReadTimeReport): neural-adb-target with both
//     objectives at -every 1000 (deciding) and -every 50 (shown), and
//     neural-adb-plus where it was run.
//
// It holds if every median ratio is at most TargetMaxRatio and both
// objectives' -every 1000 runs take at most TargetMaxCPU seconds and
// TargetMaxRSS bytes of maximum resident set; it does not hold if one
// exceeds a bound; it is undecided when a number is missing or NaN.
// "nadb verify -target-costs DIR" (make target-costs) writes it.

// The bounds of claim 10d.
const (
	TargetMaxRatio = 2.0
	TargetMaxCPU   = 60.0  // seconds, user + sys
	TargetMaxRSS   = 1.5e9 // bytes (GNU time reports kilobytes of 1024 bytes)
	// TargetCostEvery is the checkpoint period of the deciding pool runs.
	TargetCostEvery = 1000
)

// TargetCostPool is the shape of claim 10d's pool: `nadb data synth
// -contexts 10000 -arms 26 -layout blocks -block 16 -float32` (a float32
// pool directory, so the learners read converted rows).
var TargetCostPool = algorithms.Shape{Contexts: 10000, Arms: 26, Dim: 442, Converted: true}

// CostRatio is part (i) of claim 10d on one problem.
type CostRatio struct {
	Problem string // sweep.ChoiceProblem ID
	Seeds   int    // seeds with both processor times recorded
	Missing int    // seeds without
	// Median is the median over the seeds of neural-adb-target's processor
	// time divided by neural-adb-plus's (same seed); Target and Plus are the
	// medians of each (seconds).
	Median, Target, Plus float64
}

// TargetCostRatios reads part (i) of claim 10d from the processor times
// cached with the runs: neural-adb-target's run (sweep.TargetSpec) and
// neural-adb-plus's (sweep.ChoiceSpec) on every problem of
// sweep.ChoiceProblems, seeds of sc.
func TargetCostRatios(c *sweep.Cache, sc Scale) ([]CostRatio, error) {
	var out []CostRatio
	for _, p := range sweep.ChoiceProblems {
		r := CostRatio{Problem: p.ID}
		var ratios, ours, plus []float64
		own, rival := sc.SeedsOf(sweep.TargetSpec(sc, p)), sc.SeedsOf(sweep.ChoiceSpec(sc, plusAlgo, p))
		for i := range own {
			a, okA, err := c.CPU(own[i])
			if err != nil {
				return nil, err
			}
			b, okB, err := c.CPU(rival[i])
			if err != nil {
				return nil, err
			}
			if !okA || !okB {
				r.Missing++
				continue
			}
			ratios, ours, plus = append(ratios, a/b), append(ours, a), append(plus, b)
		}
		r.Seeds = len(ratios)
		r.Median, r.Target, r.Plus = median(ratios), median(ours), median(plus)
		out = append(out, r)
	}
	return out, nil
}

// median returns the median of x (NaN if empty).
func median(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// PoolCost is one nadb run on claim 10d's pool as GNU time reported it.
type PoolCost struct {
	Command   string // the command timed
	Algorithm string // its -algo
	Objective string // its -objective ("" if not given)
	Every     int    // its -every (0 if not given: nadb run's default)
	User, Sys float64
	MaxRSSKiB int64 // maximum resident set size, kilobytes of 1024 bytes
	Exit      int   // the command's exit status
}

// CPU is the run's processor time, user + sys seconds.
func (p PoolCost) CPU() float64 { return p.User + p.Sys }

// RSS is the maximum resident set in bytes.
func (p PoolCost) RSS() float64 { return float64(p.MaxRSSKiB) * 1024 }

// ReadTimeReport reads the report of GNU time -v (written with -o FILE): the
// command, user and system seconds, maximum resident set and exit status,
// and the command's -algo, -objective and -every flags.
func ReadTimeReport(r io.Reader) (PoolCost, error) {
	var p PoolCost
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		key, val, ok := strings.Cut(strings.TrimSpace(sc.Text()), ": ")
		if !ok {
			continue
		}
		var err error
		switch key {
		case "Command being timed":
			p.Command = strings.Trim(val, `"`)
		case "User time (seconds)":
			p.User, err = strconv.ParseFloat(val, 64)
		case "System time (seconds)":
			p.Sys, err = strconv.ParseFloat(val, 64)
		case "Maximum resident set size (kbytes)":
			p.MaxRSSKiB, err = strconv.ParseInt(val, 10, 64)
		case "Exit status":
			p.Exit, err = strconv.Atoi(val)
		default:
			continue
		}
		if err != nil {
			return p, fmt.Errorf("%s: %w", key, err)
		}
		seen[key] = true
	}
	if err := sc.Err(); err != nil {
		return p, err
	}
	for _, k := range []string{"Command being timed", "User time (seconds)", "System time (seconds)", "Maximum resident set size (kbytes)", "Exit status"} {
		if !seen[k] {
			return p, fmt.Errorf("not a report of GNU time -v: no %q line", k)
		}
	}
	args := strings.Fields(p.Command)
	for i := 0; i+1 < len(args); i++ {
		var err error
		switch strings.TrimLeft(args[i], "-") {
		case "algo":
			p.Algorithm = args[i+1]
		case "objective":
			p.Objective = args[i+1]
		case "every":
			p.Every, err = strconv.Atoi(args[i+1])
		}
		if err != nil {
			return p, fmt.Errorf("the command's -every: %w", err)
		}
	}
	if p.Algorithm == "" {
		return p, fmt.Errorf("the command %q names no -algo", p.Command)
	}
	if p.Algorithm == targetAlgo && p.Objective == "" {
		p.Objective = string(algorithms.ObjectivePredict) // the zero value
	}
	return p, nil
}

// ReadTimeReports reads every DIR/*.time report of GNU time, in name order.
func ReadTimeReports(dir string) ([]PoolCost, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.time"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s holds no report of GNU time (*.time): run make target-costs", dir)
	}
	var out []PoolCost
	for _, n := range names {
		f, err := os.Open(n)
		if err != nil {
			return nil, err
		}
		p, err := ReadTimeReport(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// TargetCosts are the measurements of claim 10d.
type TargetCosts struct {
	Ratios []CostRatio
	Pools  []PoolCost
}

// deciding returns the -every TargetCostEvery pool run of neural-adb-target
// with objective o, if exactly one was measured.
func (tc TargetCosts) deciding(o string) (PoolCost, bool) {
	var found []PoolCost
	for _, p := range tc.Pools {
		if p.Algorithm == targetAlgo && p.Objective == o && p.Every == TargetCostEvery && p.Exit == 0 {
			found = append(found, p)
		}
	}
	if len(found) != 1 {
		return PoolCost{}, false
	}
	return found[0], true
}

// targetObjectives are the objectives of claim 10d's pool runs.
var targetObjectives = []string{string(algorithms.ObjectivePredict), string(algorithms.ObjectivePolicy)}

// Verdict decides claim 10d: Holds if every problem's median ratio is at
// most TargetMaxRatio and both objectives' deciding pool runs are within
// TargetMaxCPU and TargetMaxRSS; DoesNotHold if a measured number exceeds
// its bound; Undecided if a number is missing (a problem without a ratio, a
// seed without a time, an objective without exactly one deciding run) or
// NaN and nothing exceeds.
func (tc TargetCosts) Verdict() Verdict {
	exceeds, missing := false, len(tc.Ratios) != len(sweep.ChoiceProblems)
	for _, r := range tc.Ratios {
		switch {
		case math.IsNaN(r.Median) || r.Missing > 0 || r.Seeds == 0:
			missing = true
		case r.Median > TargetMaxRatio:
			exceeds = true
		}
	}
	for _, o := range targetObjectives {
		p, ok := tc.deciding(o)
		switch {
		case !ok || math.IsNaN(p.CPU()):
			missing = true
		case p.CPU() > TargetMaxCPU || p.RSS() > TargetMaxRSS:
			exceeds = true
		}
	}
	switch {
	case exceeds:
		return DoesNotHold
	case missing:
		return Undecided
	}
	return Holds
}

// WriteMarkdown writes claim 10d's results file: the verdict, both parts'
// numbers against their bounds, every pool run measured, and the learner's
// own memory estimate for the pool.
func (tc TargetCosts) WriteMarkdown(w io.Writer, sc Scale) error {
	var b strings.Builder
	b.WriteString("# neural-adb-target: cost (claim 10d)\n\n")
	fmt.Fprintf(&b, "Pre-registered in `verify/prereg/target.json`: neural-adb-target costs at most %g× neural-adb-plus's processor time per paper-scale run (median over seeds, per problem), and runs a %d-context × %d-arm × %d-feature pool at T = 1000 in at most %g s of processor time and %.1f GB of maximum resident set (`-every %d`; the `-every 50` runs are shown beside). Written by `make target-costs` (`nadb verify -target-costs DIR`).\n\n",
		TargetMaxRatio, TargetCostPool.Contexts, TargetCostPool.Arms, TargetCostPool.Dim, TargetMaxCPU, TargetMaxRSS/1e9, TargetCostEvery)
	fmt.Fprintf(&b, "**Verdict: %s.**\n\n", tc.Verdict())
	fmt.Fprintf(&b, "## (i) Per paper-scale run, against neural-adb-plus\n\nProcessor time (user + sys of the run's thread) as the run cache recorded it when each run was computed (`nadb figures -only target-main,target-fresh,target-real-cems,target-real-shuttle`, two runs at a time on a shared two-core machine; neural-adb-plus's runs are shared with figures/choice and were computed by that sweep). Ratio: neural-adb-target's time over neural-adb-plus's with the same seed, median over %d seeds.\n\n", sc.Seeds)
	b.WriteString("| problem | seeds | neural-adb-target, median s | neural-adb-plus, median s | median ratio | at most 2× |\n|---|---|---|---|---|---|\n")
	for _, r := range tc.Ratios {
		ok := "yes"
		switch {
		case math.IsNaN(r.Median) || r.Missing > 0:
			ok = "n/a"
		case r.Median > TargetMaxRatio:
			ok = "**no**"
		}
		seeds := strconv.Itoa(r.Seeds)
		if r.Missing > 0 {
			seeds += fmt.Sprintf(" (%d without a recorded time)", r.Missing)
		}
		fmt.Fprintf(&b, "| %s | %s | %.2f | %.2f | %.2f | %s |\n", r.Problem, seeds, r.Target, r.Plus, r.Median, ok)
	}
	b.WriteString("\n## (ii) The Letter-like pool\n\n")
	fmt.Fprintf(&b, "`nadb data synth -out DIR -contexts %d -arms %d -layout blocks -block 16 -float32` (a float32 pool directory, features memory-mapped), then each command below under `GOMAXPROCS=1 /usr/bin/time -v` (one core; the resident set includes the pages of the mapped features the run touched). GB = 10⁹ bytes.\n\n", TargetCostPool.Contexts, TargetCostPool.Arms)
	b.WriteString("| command | user + sys s | maximum resident set GB | within bounds |\n|---|---|---|---|\n")
	for _, p := range tc.Pools {
		within := "shown"
		if p.Algorithm == targetAlgo && p.Every == TargetCostEvery {
			within = "yes"
			if p.CPU() > TargetMaxCPU || p.RSS() > TargetMaxRSS {
				within = "**no**"
			}
		}
		if p.Exit != 0 {
			within = fmt.Sprintf("exit status %d", p.Exit)
		}
		fmt.Fprintf(&b, "| `%s` | %.1f + %.1f = %.1f | %.2f | %s |\n", p.Command, p.User, p.Sys, p.CPU(), p.RSS()/1e9, within)
	}
	b.WriteString("\nThe learner's own memory estimate for this pool (`algorithms.EstimateMemory`, T = 1000; the features themselves are the mapped file's):\n\n| objective | estimate GB |\n|---|---|\n")
	for _, o := range targetObjectives {
		cfg := algorithms.Default()
		cfg.Objective = algorithms.Objective(o)
		total := 0.0
		for _, part := range algorithms.EstimateMemory(targetAlgo, TargetCostPool, cfg, 1000) {
			total += part.Bytes
		}
		fmt.Fprintf(&b, "| %s | %.2f |\n", o, total/1e9)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
