package algorithms

import (
	"errors"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/internal/memlimit"
)

// TestNewRefusesHugeSizes: sizes whose allocations would exceed the memory
// limit are refused by New with a *MemoryError naming the size to reduce,
// without panicking or allocating them; modest sizes are built.
func TestNewRefusesHugeSizes(t *testing.T) {
	t.Setenv(memlimit.Env, "8GB")
	wide := Default()
	wide.Width = 1_000_000
	for _, tc := range []struct {
		name           string
		contexts, arms int
		cfg            Config
		field          string
	}{
		{"neural-adb-ucb", 1, 100_000, Default(), "arms"},
		{"neural-adb-ucb-randctx", 2, 100_000, Default(), "arms"},
		{"ae-borda-nn", 1, 100_000, Default(), "arms"},
		{"neural-adb-ucb", 3, 4, wide, "width"},
		{"random-nn", 3, 4, wide, "width"},
		{"neural-adb-ucb", 80_000, 25, Default(), "contexts"}, // 2·10⁶ rows: fits
	} {
		p := smallPool(t, 1, tc.contexts, tc.arms, 1)
		l, err := New(tc.name, Env{Pool: p, Config: tc.cfg, Seed: 1})
		if tc.contexts == 80_000 {
			if err != nil || l == nil {
				t.Errorf("%s on %d × %d: %v", tc.name, tc.contexts, tc.arms, err)
			}
			continue
		}
		var me *MemoryError
		if !errors.As(err, &me) {
			t.Fatalf("%s on %d × %d, width %d: got %v, want a *MemoryError", tc.name, tc.contexts, tc.arms, tc.cfg.Width, err)
		}
		if me.Largest.Field != tc.field || !(me.Need > 8e9) || !strings.Contains(err.Error(), "algorithms: "+tc.field+":") || !strings.Contains(err.Error(), memlimit.Env) {
			t.Errorf("%s: %v (largest part %+v), want the field %s named", tc.name, err, me.Largest, tc.field)
		}
	}
	t.Setenv(memlimit.Env, "0") // no limit: the same huge learner is not refused by the check
	parts := EstimateMemory("neural-adb-ucb", Shape{Contexts: 1, Arms: 100_000, Dim: 1}, Default(), 0)
	if err := CheckMemory(parts, memlimit.Limit{}); err != nil {
		t.Errorf("no limit: %v", err)
	}
}

// TestEstimateMemoryGrows: the estimate grows with every size that makes
// the run larger (a check that each enters it), and the confidence state
// of a large pool does not grow as rows × T.
func TestEstimateMemoryGrows(t *testing.T) {
	base := Shape{Contexts: 300, Arms: 10, Dim: 20}
	total := func(name string, s Shape, cfg Config, T int) float64 {
		return MemoryTotal(EstimateMemory(name, s, cfg, T))
	}
	cfg := Default()
	wide := cfg
	wide.Width = 200
	deep := cfg
	deep.Depth = 4
	for _, name := range []string{"neural-adb-ucb", "neural-adb-ucb-randctx", "neural-adb-apo", "ae-borda-nn", "random-nn", "neural-adb-plus", "apo", "ae-borda", "random"} {
		t0 := total(name, base, cfg, 1000)
		more := map[string]float64{
			"contexts": total(name, Shape{Contexts: 600, Arms: 10, Dim: 20}, cfg, 1000),
			"arms":     total(name, Shape{Contexts: 300, Arms: 20, Dim: 20}, cfg, 1000),
			"T":        total(name, base, cfg, 4000),
		}
		if name != "random" && name != "ae-borda" && name != "apo" {
			more["width"] = total(name, base, wide, 1000)
			more["depth"] = total(name, base, deep, 1000)
			more["dim"] = total(name, Shape{Contexts: 300, Arms: 10, Dim: 200}, cfg, 1000)
		}
		for what, v := range more {
			if !(v > t0) {
				t.Errorf("%s: a larger %s gives %v, not more than %v", name, what, v, t0)
			}
		}
	}
	// A large pool: 10× the rows add little beyond the rows' own scores.
	big := Shape{Contexts: 10_000, Arms: 26, Dim: 50}
	bigger := Shape{Contexts: 100_000, Arms: 26, Dim: 50}
	d := total("neural-adb-ucb", bigger, cfg, 1000) - total("neural-adb-ucb", big, cfg, 1000)
	if perRow := d / (float64(bigger.Contexts-big.Contexts) * 26); perRow > 64 {
		t.Errorf("the lazy confidence state costs %v bytes per row", perRow)
	}
}
