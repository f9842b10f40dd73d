package verify

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/sweep"
)

// Claim 10d's decision rule (verify/prereg/target.json) on made-up numbers.

// timeReport is a report of GNU time -v as it writes one.
func timeReport(cmd string, user, sys float64, rssKiB int64) string {
	return fmt.Sprintf(`	Command being timed: "%s"
	User time (seconds): %.2f
	System time (seconds): %.2f
	Percent of CPU this job got: 97%%
	Elapsed (wall clock) time (h:mm:ss or m:ss): 0:40.12
	Average shared text size (kbytes): 0
	Maximum resident set size (kbytes): %d
	Major (requiring I/O) page faults: 0
	Minor (reclaiming a frame) page faults: 171234
	Voluntary context switches: 120
	File system inputs: 0
	Page size (bytes): 4096
	Exit status: 0
`, cmd, user, sys, rssKiB)
}

func poolCmd(algo, objective string, every int) string {
	s := "bin/nadb run -algo " + algo
	if objective != "" {
		s += " -objective " + objective
	}
	s += " -problem pool -pool /tmp/letter -T 1000"
	if every > 0 {
		s += fmt.Sprintf(" -every %d", every)
	}
	return s + " -seed 1 -q"
}

func TestReadTimeReport(t *testing.T) {
	p, err := ReadTimeReport(strings.NewReader(timeReport(poolCmd("neural-adb-target", "policy", 1000), 44.1, 1.5, 696000)))
	if err != nil {
		t.Fatal(err)
	}
	if p.Algorithm != "neural-adb-target" || p.Objective != "policy" || p.Every != 1000 || math.Abs(p.CPU()-45.6) > 1e-9 || p.RSS() != 696000*1024 || p.Exit != 0 {
		t.Errorf("read %+v", p)
	}
	p, err = ReadTimeReport(strings.NewReader(timeReport(poolCmd("neural-adb-target", "", 0), 1, 1, 1)))
	if err != nil || p.Objective != "predict" || p.Every != 0 {
		t.Errorf("without -objective and -every: %+v, %v (want objective predict, its zero value)", p, err)
	}
	for _, bad := range []string{
		"",
		"User time (seconds): 1\n",
		strings.Replace(timeReport(poolCmd("neural-adb-target", "", 50), 1, 1, 1), "System time (seconds): 1.00", "System time (seconds): x", 1),
		timeReport("bin/nadb run -problem pool", 1, 1, 1),
	} {
		if _, err := ReadTimeReport(strings.NewReader(bad)); err == nil {
			t.Errorf("no error for %q", bad)
		}
	}
}

// costsOf returns TargetCosts with every problem's median ratio r and the
// pool runs given.
func costsOf(r float64, pools ...PoolCost) TargetCosts {
	var tc TargetCosts
	for _, p := range sweep.ChoiceProblems {
		tc.Ratios = append(tc.Ratios, CostRatio{Problem: p.ID, Seeds: 30, Median: r, Target: r, Plus: 1})
	}
	tc.Pools = pools
	return tc
}

func pc(objective string, every int, cpu, gb float64) PoolCost {
	return PoolCost{Algorithm: "neural-adb-target", Objective: objective, Every: every, User: cpu, MaxRSSKiB: int64(gb * 1e9 / 1024)}
}

func TestTargetCostsVerdict(t *testing.T) {
	predict, policy := pc("predict", 1000, 36, 0.70), pc("policy", 1000, 46, 0.70)
	slow50 := pc("policy", 50, 120, 2.5) // -every 50 is shown, never deciding
	plus := PoolCost{Algorithm: "neural-adb-plus", Every: 1000, User: 634, MaxRSSKiB: 4.4e9 / 1024}
	withMissingSeed := costsOf(1.2, predict, policy)
	withMissingSeed.Ratios[3].Missing = 1
	withNaN := costsOf(1.2, predict, policy)
	withNaN.Ratios[0].Median = math.NaN()
	oneRatioHigh := costsOf(1.2, predict, policy)
	oneRatioHigh.Ratios[5].Median = 2.01
	noProblems := costsOf(1.2, predict, policy)
	noProblems.Ratios = noProblems.Ratios[:7]
	failed := pc("predict", 1000, 10, 0.1)
	failed.Exit = 2
	for _, tc := range []struct {
		name  string
		costs TargetCosts
		want  Verdict
	}{
		{"within every bound", costsOf(1.57, predict, policy, slow50, plus), Holds},
		{"ratio exactly 2", costsOf(2, predict, policy), Holds},
		{"at the bounds", costsOf(1, pc("predict", 1000, 60, 1.5), pc("policy", 1000, 60, 1.5)), Holds},
		{"one ratio above 2", oneRatioHigh, DoesNotHold},
		{"every ratio above 2", costsOf(2.5, predict, policy), DoesNotHold},
		{"predict over 60 s", costsOf(1, pc("predict", 1000, 61, 0.7), policy), DoesNotHold},
		{"policy over 1.5 GB", costsOf(1, predict, pc("policy", 1000, 40, 1.51)), DoesNotHold},
		{"no policy run", costsOf(1, predict, slow50), Undecided},
		{"two predict runs", costsOf(1, predict, predict, policy), Undecided},
		{"the predict run failed", costsOf(1, failed, policy), Undecided},
		{"a seed without a time", withMissingSeed, Undecided},
		{"a NaN ratio", withNaN, Undecided},
		{"a problem missing", noProblems, Undecided},
		{"missing, and one exceeds", costsOf(3, predict), DoesNotHold},
	} {
		if got := tc.costs.Verdict(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestTargetCostRatios reads made-up processor times from a cache: ratios
// 1, 2 and 4 on three seeds give a median of 2 on every problem; a seed
// without neural-adb-plus's time is counted as missing.
func TestTargetCostRatios(t *testing.T) {
	c := &sweep.Cache{Dir: t.TempDir()}
	sc := Reduced
	sc.Seeds = 3
	store := func(s experiments.Spec, cpu float64) {
		res := &experiments.Result{Spec: s, Checkpoints: []experiments.Checkpoint{{T: 0}}}
		if err := c.StoreCPU(res, 1, cpu); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range sweep.ChoiceProblems {
		own, plus := sc.SeedsOf(sweep.TargetSpec(sc, p)), sc.SeedsOf(sweep.ChoiceSpec(sc, plusAlgo, p))
		for i, r := range []float64{1, 2, 4} {
			store(own[i], 3*r)
			if p.ID != "cems" || i != 2 {
				store(plus[i], 3)
			}
		}
	}
	ratios, err := TargetCostRatios(c, sc)
	if err != nil {
		t.Fatal(err)
	}
	if len(ratios) != len(sweep.ChoiceProblems) {
		t.Fatalf("%d problems, want %d", len(ratios), len(sweep.ChoiceProblems))
	}
	for _, r := range ratios {
		want := CostRatio{Problem: r.Problem, Seeds: 3, Median: 2, Target: 6, Plus: 3}
		if r.Problem == "cems" {
			want = CostRatio{Problem: "cems", Seeds: 2, Missing: 1, Median: 1.5, Target: 4.5, Plus: 3}
		}
		if r != want {
			t.Errorf("%+v, want %+v", r, want)
		}
	}
	tc := TargetCosts{Ratios: ratios, Pools: []PoolCost{pc("predict", 1000, 36, 0.7), pc("policy", 1000, 46, 0.7)}}
	if v := tc.Verdict(); v != Undecided {
		t.Errorf("with a missing time: %q, want %q", v, Undecided)
	}
	var b bytes.Buffer
	if err := tc.WriteMarkdown(&b, sc); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"**Verdict: undecided.**", "| cems | 2 (1 without a recorded time) |", "| predict |", "within bounds"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, b.String())
		}
	}
}
