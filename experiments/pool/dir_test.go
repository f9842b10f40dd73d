package pool

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/internal/runtest"
	"github.com/neural-adb/nadb/internal/poolfile"
)

// TestPoolDirMatchesCSV: the same pool as a CSV file (float64) and as a pool
// directory written by Go (features.npy float64) gives the same runs, byte
// for byte, with recorded answers and held-out contexts (a view of the
// mapped features) and with simulated answers from the utilities. The pool's
// values are float32 numbers, so the float32 directory gives the same runs
// too (the conversion is exact).
func TestPoolDirMatchesCSV(t *testing.T) {
	const C, K, d = 60, 4, 3
	rng := rand.New(rand.NewPCG(9, 1))
	x := make([]float64, C*K*d)
	for i := range x {
		x[i] = float64(float32(2*rng.Float64() - 1))
	}
	p, err := algorithms.NewPool(C, K, d, x)
	if err != nil {
		t.Fatal(err)
	}
	pf := &poolfile.PoolFile{Pool: p, Features: []string{"x0", "x1", "x2"}, Utility: make([]float64, C*K)}
	var ans bytes.Buffer
	ans.WriteString("context,arm1,arm2,y\n")
	for c := range C {
		pf.Contexts = append(pf.Contexts, fmt.Sprintf("prompt %d", c))
		for a := range K {
			pf.Arms = append(pf.Arms, fmt.Sprintf("r%d", a+1))
			pf.Utility[c*K+a] = 2*x[(c*K+a)*d] - x[(c*K+a)*d+1]
		}
		for range 3 {
			a, b := rng.IntN(K), rng.IntN(K-1)
			if b >= a {
				b++
			}
			fmt.Fprintf(&ans, "prompt %d,r%d,r%d,%d\n", c, a+1, b+1, rng.IntN(2))
		}
	}
	var csvPool bytes.Buffer
	if err := poolfile.WritePool(&csvPool, pf); err != nil {
		t.Fatal(err)
	}
	csvPath := writeTemp(t, "pool.csv", csvPool.String())
	ansPath := writeTemp(t, "answers.csv", ans.String())
	dirs := map[string]string{"float64": filepath.Join(t.TempDir(), "pool64"), "float32": filepath.Join(t.TempDir(), "pool32")}
	for kind, dir := range dirs {
		if err := poolfile.WriteDir(dir, pf, kind == "float32"); err != nil {
			t.Fatal(err)
		}
	}
	cfg := algorithms.Default()
	cfg.Width, cfg.RetrainEvery = 8, 10
	for _, algo := range []string{"random", "neural-adb-ts", "neural-adb-tsctx-ucb", "neural-adb-plus"} {
		for _, answers := range []string{"", ansPath} {
			spec := experiments.Spec{Algorithm: algo, Config: cfg, T: 40, Every: 20, Seed: 3,
				Problem: experiments.ProblemSpec{Name: "pool", Pool: csvPath, Answers: answers, Holdout: 0.25}}
			want := runtest.CSV(t, spec)
			for kind, dir := range dirs {
				spec.Problem.Pool = dir
				if got := runtest.CSV(t, spec); got != want {
					t.Errorf("%s, answers %q: the %s pool directory's run differs from the CSV's:\n%s\nvs\n%s", algo, answers, kind, got, want)
				}
			}
		}
	}
}
