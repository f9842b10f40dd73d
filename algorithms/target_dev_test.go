package algorithms_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/pool"
	_ "github.com/neural-adb/nadb/experiments/realdata"
)

// TestTargetDev is neural-adb-target's development harness (its runs are
// logged in algorithms/target_devlog.md). It runs only when
// NADB_TARGET_DEV is set, on development seeds (≥ 101: it refuses others):
//
//	NADB_TARGET_DEV=1 PROBLEMS=square,cems SEEDS=101-110 \
//	  VARIANTS='target.policy@own,target.policy@passive' \
//	  go test ./algorithms -run TargetDev -v -timeout 0
//
// A variant is an algorithm ("target" for neural-adb-target, else a
// registered name), modifiers after dots (target: policy, predict,
// plusnoise, pairs1, explore0, targets64) and the collection rule after @.
// It prints, per problem, the mean over seeds of the problem's metrics on
// the learning-curve grid and, for each variant against the first, the
// paired one-sided p-value of being worse.
func TestTargetDev(t *testing.T) {
	if os.Getenv("NADB_TARGET_DEV") == "" {
		t.Skip("development harness: set NADB_TARGET_DEV")
	}
	seeds := devSeeds(t, envOr("SEEDS", "101-105"))
	problems := strings.Split(envOr("PROBLEMS", "square"), ",")
	variants := strings.Split(envOr("VARIANTS", "target.policy@own,target.policy@passive"), ",")
	T, _ := strconv.Atoi(envOr("T", "1000"))
	workers, _ := strconv.Atoi(envOr("WORKERS", "2"))
	grid := []int{25, 50, 100, 200, 400, 700, 1000}
	for _, prob := range problems {
		metrics := devMetrics(prob)
		// vals[variant][metric][grid][seed]
		vals := make([][][][]float64, len(variants))
		type job struct{ v, s int }
		jobs := make(chan job)
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for j := range jobs {
					got, err := devRun(prob, variants[j.v], seeds[j.s], T, grid, metrics)
					if err != nil {
						t.Error(err)
						continue
					}
					mu.Lock()
					for m := range metrics {
						for g := range grid {
							vals[j.v][m][g][j.s] = got[m][g]
						}
					}
					mu.Unlock()
				}
			})
		}
		for v := range variants {
			vals[v] = make([][][]float64, len(metrics))
			for m := range metrics {
				vals[v][m] = make([][]float64, len(grid))
				for g := range grid {
					vals[v][m][g] = make([]float64, len(seeds))
				}
			}
		}
		for v := range variants {
			for s := range seeds {
				jobs <- job{v, s}
			}
		}
		close(jobs)
		wg.Wait()
		for m, metric := range metrics {
			fmt.Printf("\n%s, %s (mean over seeds %v; p: one-sided paired t, row worse than the first row)\n", prob, metric.name, seeds)
			fmt.Printf("%-34s", "variant")
			for _, g := range grid {
				if g <= T {
					fmt.Printf(" %15d", g)
				}
			}
			fmt.Println()
			for v, name := range variants {
				fmt.Printf("%-34s", name)
				for g, gt := range grid {
					if gt > T {
						continue
					}
					x := vals[v][m][g]
					cell := fmt.Sprintf("%.4g", stat.Mean(x, nil))
					if v > 0 {
						cell += fmt.Sprintf(" p%.2f", pWorse(x, vals[0][m][g], metric.lower))
					}
					fmt.Printf(" %15s", cell)
				}
				fmt.Println()
			}
		}
	}
}

type devMetric struct {
	name  string
	col   string // extra column, "" for mean_gap
	lower bool   // lower is better
}

func devMetrics(prob string) []devMetric {
	switch strings.TrimSuffix(prob, "-fresh") {
	case "cems":
		return []devMetric{{"test_logloss", "test_logloss", true}, {"test_accuracy", "test_accuracy", false}, {"mean_gap", "", true}}
	case "shuttle":
		return []devMetric{{"test_accuracy", "test_accuracy", false}, {"mean_gap", "", true}}
	case "letterlike":
		return []devMetric{{"mean_gap", "", true}}
	default:
		return []devMetric{{"mean_gap", "", true}, {"worst_gap", "worst", true}}
	}
}

// pWorse is the one-sided paired t-test p-value that x is worse than ref.
func pWorse(x, ref []float64, lower bool) float64 {
	n := len(x)
	d := make([]float64, n)
	for i := range x {
		d[i] = x[i] - ref[i]
		if !lower {
			d[i] = -d[i]
		}
	}
	m, sd := stat.MeanStdDev(d, nil)
	if sd == 0 {
		if m > 0 {
			return 0
		}
		return 1
	}
	tt := m / (sd / math.Sqrt(float64(n)))
	return 1 - distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.CDF(tt)
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func devSeeds(t *testing.T, s string) []uint64 {
	var out []uint64
	for part := range strings.SplitSeq(s, ",") {
		lo, hi, ok := strings.Cut(part, "-")
		a, _ := strconv.ParseUint(lo, 10, 64)
		b := a
		if ok {
			b, _ = strconv.ParseUint(hi, 10, 64)
		}
		for x := a; x <= b; x++ {
			if x < 101 {
				t.Fatalf("seed %d: development runs use seeds ≥ 101 only", x)
			}
			out = append(out, x)
		}
	}
	return out
}

// devRun runs one variant on one seed and returns metrics × grid values.
func devRun(prob, variant string, seed uint64, T int, grid []int, metrics []devMetric) ([][]float64, error) {
	name, collect, _ := strings.Cut(variant, "@")
	parts := strings.Split(name, ".")
	every, _ := strconv.Atoi(envOr("EVERY", "25"))
	spec := experiments.Spec{Config: algorithms.Default(), T: T, Every: every, Seed: seed}
	base := strings.TrimSuffix(prob, "-fresh")
	switch base {
	case "square", "sine", "cosine":
		spec.Problem = experiments.DefaultProblem()
		spec.Problem.Name = base
		if strings.HasSuffix(prob, "-fresh") {
			spec.Problem.Candidates = 20
		}
	case "letterlike":
		// Built below.
	default:
		spec.Problem = experiments.ProblemSpec{Name: base}
	}
	if collect != "" {
		if err := spec.Config.Collect.UnmarshalText([]byte(collect)); err != nil {
			return nil, err
		}
	}
	var p *experiments.Problem
	var err error
	if base == "letterlike" {
		p, err = letterLike(10000, seed)
	} else {
		p, err = spec.Problem.Build(seed)
	}
	if err != nil {
		return nil, err
	}
	env := algorithms.Env{Pool: p.Pool, Config: spec.Config, Seed: seed}
	var l algorithms.Learner
	if parts[0] == "target" {
		opt := algorithms.DefaultTargetOptions()
		for _, m := range parts[1:] {
			switch m {
			case "policy":
				env.Config.Objective = algorithms.ObjectivePolicy
			case "predict":
				env.Config.Objective = algorithms.ObjectivePredict
			case "plusnoise":
				opt.PlusNoise = true
			case "pairs1":
				opt.PairsPerContext = 1
			case "explore0":
				opt.Explore = 0
			case "explore1":
				opt.Explore = 1
			case "unical":
				opt.UniformCalibration = true
			case "owncontext":
				opt.OwnContext = true
			case "flatnoise":
				opt.FlatNoise = true
			case "peakednoise":
				opt.FlatNoise = false
			case "nowarmup":
				opt.Warmup = ""
			case "decay", "burn-in", "burn-decay":
				opt.Warmup = m
			case "targets64":
				opt.TargetContexts = 64
			default:
				return nil, fmt.Errorf("unknown modifier %q", m)
			}
		}
		l, err = algorithms.NewNeuralADBTarget(env, opt)
	} else {
		l, err = algorithms.New(parts[0], env)
	}
	if err != nil {
		return nil, err
	}
	res, err := experiments.RunLearner(context.Background(), spec, p, l, nil)
	if err != nil {
		return nil, err
	}
	out := make([][]float64, len(metrics))
	for m, mt := range metrics {
		out[m] = make([]float64, len(grid))
		for g, gt := range grid {
			out[m][g] = math.NaN()
			for _, cp := range res.Checkpoints {
				if cp.T != gt {
					continue
				}
				switch mt.col {
				case "":
					out[m][g] = cp.MeanGap
				case "worst":
					out[m][g] = cp.WorstGap
				default:
					for k, c := range res.ExtraColumns {
						if c == mt.col {
							out[m][g] = cp.Extra[k]
						}
					}
				}
			}
		}
	}
	return out, nil
}

// letterLike builds a pool shaped like Letter as a dueling bandit: n
// contexts of 16 integer features 0…15 (standardised), 26 classes (the
// nearest of 26 random centroids), utility 2·1[arm = class], and the
// disjoint encoding of the features with a constant (26 × 17 = 442 values
// per row, 17 of them non-zero); answers are Bradley–Terry draws.
func letterLike(n int, seed uint64) (*experiments.Problem, error) {
	const K, f = 26, 16
	d := K * (f + 1)
	rng := rand.New(rand.NewPCG(seed, 7001))
	cent := make([]float64, K*f)
	for i := range cent {
		cent[i] = float64(rng.IntN(16))
	}
	x := make([]float64, n*K*d)
	util := make([]float64, n*K)
	feat := make([]float64, f)
	for c := range n {
		for j := range feat {
			feat[j] = float64(rng.IntN(16))
		}
		best, bestD := 0, math.Inf(1)
		for k := range K {
			dist := 0.0
			for j := range feat {
				t := feat[j] - cent[k*f+j]
				dist += t * t
			}
			if dist < bestD {
				best, bestD = k, dist
			}
		}
		for a := range K {
			row := x[(c*K+a)*d : (c*K+a+1)*d]
			for j := range feat {
				row[a*(f+1)+j] = (feat[j] - 7.5) / 4.6
			}
			row[a*(f+1)+f] = 1
		}
		util[c*K+best] = 2
	}
	pl, err := algorithms.NewPool(n, K, d, x)
	if err != nil {
		return nil, err
	}
	return pool.NewProblem(pool.Setup{Name: "letterlike", Train: pool.Part{Pool: pl, Utility: util}, Seed: seed})
}
