package pool

import (
	"strings"
	"testing"

	"github.com/neural-adb/nadb/internal/memlimit"
)

// TestSynthSizes: sizes a pool file cannot hold, or whose generation would
// not fit in memory, are refused before anything is allocated, naming the
// flags that set them; overflowing products are caught.
func TestSynthSizes(t *testing.T) {
	dense := func(c, k, d int) Synth {
		return Synth{Contexts: c, Arms: k, Layout: "dense", Dim: d, Scale: 3, Seed: 1}
	}
	lim := memlimit.Limit{Bytes: 1e6, Source: "test"}
	for _, c := range []struct {
		s        Synth
		check    string // in Check's error ("" none)
		checkMem string // in CheckMemory's error at 1 MB ("" none)
	}{
		{s: dense(100, 5, 8)},
		{s: dense(1<<32, 1<<32, 1), check: "-contexts, -arms, -dim: 4294967296 contexts × 4294967296 arms"},
		{s: dense(1<<20, 1<<20, 1<<20), check: "more than the 1125899906842624 a pool file may hold"},
		{s: Synth{Contexts: 1, Arms: 1 << 62, Layout: "blocks", Block: 3, Scale: 3}, check: "-arms 4611686018427387904 × (-block 3 + 1) features"},
		{s: dense(1000, 200, 8), checkMem: "-contexts, -arms (the utility of every row): generating the pool would need about 1.61 MB"},
		{s: dense(10, 100000, 100000), checkMem: "-arms, -dim (one context's features): generating the pool would need about 80 GB"},
		{s: Synth{Contexts: 2, Arms: 100, Layout: "blocks", Block: 100, Scale: 3}, checkMem: "-arms, -block (one context's features)"},
	} {
		err := c.s.Check()
		if c.check != "" {
			if err == nil || !strings.Contains(err.Error(), c.check) {
				t.Errorf("%+v: Check %v, want %q", c.s, err, c.check)
			}
			continue
		}
		if err != nil {
			t.Errorf("%+v: Check %v", c.s, err)
		}
		err = c.s.CheckMemory(lim)
		if c.checkMem == "" && err != nil || c.checkMem != "" && (err == nil || !strings.Contains(err.Error(), c.checkMem)) {
			t.Errorf("%+v: CheckMemory %v, want %q", c.s, err, c.checkMem)
		}
		if err := c.s.CheckMemory(memlimit.Limit{}); err != nil {
			t.Errorf("%+v: CheckMemory without a limit: %v", c.s, err)
		}
	}
}
