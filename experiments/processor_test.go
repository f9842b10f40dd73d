package experiments_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	. "github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/internal/runtest"
)

// processorOut names, in the child process of TestProcessorIndependent,
// the file it writes its runs' CSVs to; processorDebug, in the parent, the
// GODEBUG settings of the child (default cpu.fma=off; make test-processor
// also turns off AVX2 and AVX-512, as on a processor without FMA, so that
// the matrix kernels' pure-Go twins run with math.FMA in software).
const (
	processorOut   = "NADB_TEST_PROCESSOR_OUT"
	processorDebug = "NADB_TEST_PROCESSOR_GODEBUG"
)

// TestProcessorIndependent checks that a run's bytes do not depend on the
// processor's instruction set. The same runs (every learner on CEMSChoice's
// replayed answers, with their log-loss and accuracy metrics, and on a small
// Square problem) run again in a child process with GODEBUG=cpu.fma=off, as
// on an amd64 processor without FMA: package math's Exp off its fused path,
// and the AVX2 matrix kernels and the fused element-wise kernels off. The
// CSVs must be the same bytes (package xmath is what makes them so).
// NADB_TEST_PROCESSOR_GODEBUG sets the child's GODEBUG instead.
func TestProcessorIndependent(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skipf("GODEBUG=cpu.fma=off is an amd64 switch; this is %s", runtime.GOARCH)
	}
	cfg := algorithms.Default()
	cfg.Width = 16
	var specs []Spec
	for _, name := range algorithms.Names() {
		specs = append(specs,
			Spec{Algorithm: name, Problem: ProblemSpec{Name: "cems"}, Config: cfg, T: 60, Every: 20, Seed: 5},
			Spec{Algorithm: name, Problem: ProblemSpec{Name: "square", Dim: 5, Arms: 4, Contexts: 20, Theta: "sphere"}, Config: cfg, T: 80, Every: 40, Seed: 5})
	}
	csvs := func() string {
		var b strings.Builder
		for _, s := range specs {
			b.WriteString("# " + s.Algorithm + " " + s.Problem.Name + "\n" + runtest.CSV(t, s))
		}
		return b.String()
	}
	if out := os.Getenv(processorOut); out != "" { // the child
		if err := os.WriteFile(out, []byte(csvs()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	out := filepath.Join(t.TempDir(), "child.csv")
	cmd := exec.Command(os.Args[0], "-test.run=^TestProcessorIndependent$", "-test.count=1")
	debug := "cpu.fma=off"
	if d := os.Getenv(processorDebug); d != "" {
		debug = d
	}
	if g := os.Getenv("GODEBUG"); g != "" {
		debug = g + "," + debug
	}
	cmd.Env = append(os.Environ(), "GODEBUG="+debug, processorOut+"="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child process with GODEBUG=%s: %v\n%s", debug, err, b)
	}
	child, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	here := csvs()
	if here == string(child) {
		return
	}
	a, b := strings.Split(here, "\n"), strings.Split(string(child), "\n")
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			head := ""
			for k := i; k >= 0; k-- {
				if strings.HasPrefix(a[k], "# ") {
					head = a[k]
					break
				}
			}
			t.Fatalf("with GODEBUG=%s the runs differ first in %q, line %d:\nhere:  %s\nchild: %s", debug, head, i+1, a[i], b[i])
		}
	}
	t.Fatalf("with GODEBUG=%s the runs differ in length: %d lines here, %d in the child", debug, len(a), len(b))
}
