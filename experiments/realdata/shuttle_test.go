package realdata

import (
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/internal/runtest"
	"github.com/neural-adb/nadb/experiments/pool"
	"github.com/neural-adb/nadb/experiments/realdata/data"
)

// TestShuttleData checks the parsed shipped data against its README.
func TestShuttleData(t *testing.T) {
	d, err := shippedShuttle()
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]int, len(ShuttleClasses))
	for _, y := range d.Label {
		counts[y]++
	}
	// UCI order: Rad.Flow, Fpv.Close, Fpv.Open, High, Bypass, Bpv.Close, Bpv.Open.
	want := []int{45586, 50, 171, 8903, 3267, 10, 13}
	if !slices.Equal(counts, want) || len(d.X) != 58000*9 {
		t.Errorf("class counts %v, %d values; want %v, %d", counts, len(d.X), want, 58000*9)
	}
}

// TestShuttleProblem checks the encoding, the standardisation, the utilities
// and the held-out set.
func TestShuttleProblem(t *testing.T) {
	prob, err := Shuttle{}.New(1)
	if err != nil {
		t.Fatal(err)
	}
	p := prob.Pool
	if p.Contexts != 300 || p.Arms != 7 || p.Dim != 70 {
		t.Fatalf("pool %d×%d×%d, want 300×7×70", p.Contexts, p.Arms, p.Dim)
	}
	// Disjoint encoding: arm a's row is zero outside block a, and every arm of
	// a context carries the same sample followed by a constant 1.
	for c := range p.Contexts {
		x0 := p.Feature(c, 0)[:10]
		if x0[9] != 1 {
			t.Fatalf("context %d: constant feature %v", c, x0[9])
		}
		for a := range p.Arms {
			x := p.Feature(c, a)
			for k, v := range x {
				if k/10 != a && v != 0 {
					t.Fatalf("context %d arm %d: feature %d (block %d) = %v, want 0", c, a, k, k/10, v)
				}
			}
			if !slices.Equal(x[a*10:(a+1)*10], x0) {
				t.Fatalf("context %d: arm %d holds a different sample", c, a)
			}
		}
	}
	// Standardised over the pool: mean 0 and sd 1 per feature (none is
	// constant in a pool of 300).
	for k := range 9 {
		var s, s2 float64
		for c := range p.Contexts {
			v := p.Feature(c, 0)[k]
			s += v
			s2 += v * v
		}
		mean := s / 300
		sd := math.Sqrt((s2 - 300*mean*mean) / 299)
		if math.Abs(mean) > 1e-12 || math.Abs(sd-1) > 1e-12 {
			t.Errorf("feature %d: pool mean %v, sd %v; want 0, 1", k, mean, sd)
		}
	}
	// One true class per context, utility 2.
	setup, _ := pool.SetupOf(prob)
	F := setup.Train.Utility
	for c := range p.Contexts {
		f := F[c*7 : (c+1)*7]
		if slices.Max(f) != 2 || slices.Min(f) != 0 || len(slices.DeleteFunc(slices.Clone(f), func(v float64) bool { return v != 2 })) != 1 {
			t.Fatalf("context %d utilities %v, want one 2 and six 0", c, f)
		}
	}
	if setup.Test.Pool.Contexts != 2000 || setup.Test.Pool.Rows()*setup.Test.Pool.Dim != 2000*7*70 || len(setup.Test.Utility) != 2000*7 {
		t.Errorf("held-out set: %d samples, %d values", setup.Test.Pool.Contexts, setup.Test.Pool.Rows()*setup.Test.Pool.Dim)
	}
	// The pool and held-out samples are the seed's split, in the data's order.
	perm := slicesPerm(1, 58000)
	test, train := slices.Sorted(slices.Values(perm[:2000])), slices.Sorted(slices.Values(perm[2000:2300]))
	d, _ := shippedShuttle()
	for _, part := range []struct {
		f   []float64
		idx []int
	}{{F, train}, {setup.Test.Utility, test}} {
		for c, i := range part.idx {
			if part.f[c*7+int(d.Label[i])] != 2 {
				t.Fatalf("context %d is not sample %d", c, i)
			}
		}
	}

	other, err := Shuttle{Contexts: 50, Holdout: 100, Scale: 3}.New(2)
	if err != nil {
		t.Fatal(err)
	}
	os2, _ := pool.SetupOf(other)
	if other.Pool.Contexts != 50 || os2.Test.Pool.Contexts != 100 || slices.Max(os2.Train.Utility) != 3 {
		t.Errorf("Contexts 50, Holdout 100, Scale 3: pool %d, held out %d, max utility %v", other.Pool.Contexts, os2.Test.Pool.Contexts, slices.Max(os2.Train.Utility))
	}
	_, err = Shuttle{Contexts: 57000, Holdout: 2000}.New(1)
	if fe := (*experiments.FieldError)(nil); !errors.As(err, &fe) || fe.Field != "contexts" || !strings.Contains(fe.Msg, "exceed the 58000") {
		t.Errorf("oversized split: error %v", err)
	}
}

func TestClassAccuracy(t *testing.T) {
	// Three samples, K = 3: a hit, a three-way tie (⅓), a miss.
	h := []float64{0, 5, 1, 2, 2, 2, 9, 0, 0}
	acc, bal := classAccuracy(h, []int8{1, 0, 1}, 3)
	if math.Abs(acc-(1+1.0/3)/3) > 1e-15 || math.Abs(bal-(1.0/3+0.5)/2) > 1e-15 {
		t.Errorf("classAccuracy = %v, %v; want %v, %v", acc, bal, (1+1.0/3)/3, (1.0/3+0.5)/2)
	}
	if acc, bal := classAccuracy([]float64{math.NaN(), 1}, []int8{0}, 2); acc != 0 || bal != 0 {
		t.Errorf("NaN scores: %v, %v; want a miss", acc, bal)
	}
}

// TestShuttleLearns: at reduced scale a learner fed Bradley–Terry duels
// classifies held-out samples better than the majority class (78.6%), and its
// policy on the pool beats the majority class's mean gap (about 0.43).
func TestShuttleLearns(t *testing.T) {
	spec := experiments.Spec{Algorithm: "ae-borda", Problem: experiments.ProblemSpec{Name: "shuttle", Contexts: 200, Holdout: 1000}, Config: algorithms.Default(), T: 400, Every: 400, Seed: 1}
	res, err := experiments.Run(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	first, last := res.Checkpoints[0], res.Checkpoints[len(res.Checkpoints)-1]
	v := func(cp experiments.Checkpoint, name string) float64 {
		return column(t, res.ExtraColumns, cp.Extra, name)
	}
	t.Logf("test accuracy %.3f → %.3f, balanced %.3f → %.3f, pool mean gap %.3f → %.3f",
		v(first, "test_accuracy"), v(last, "test_accuracy"), v(first, "test_balanced_accuracy"), v(last, "test_balanced_accuracy"), first.MeanGap, last.MeanGap)
	if acc := v(last, "test_accuracy"); !(acc > 0.8) || !(last.MeanGap < 0.3) {
		t.Errorf("after 400 duels: test accuracy %v (want > 0.8), pool mean gap %v (want < 0.3)", acc, last.MeanGap)
	}
	// The shared gap column is the error rate times the utility of the true class.
	if g, acc := v(last, "test_mean_gap"), v(last, "test_accuracy"); math.Abs(g-2*(1-acc)) > 1e-12 {
		t.Errorf("test_mean_gap %v, want 2 × (1 − test_accuracy %v)", g, acc)
	}
}

func TestShuttleDataErrors(t *testing.T) {
	head := `"V1","V2","V3","V4","V5","V6","V7","V8","V9","Class"` + "\n"
	for _, tc := range []struct{ in, want string }{
		{head + "1,2,3,4,5,6,7,8,9,\"Rad.Flow\"\n1,2,3,4,5,6,7,8,x,\"High\"\n", `shuttle/shuttle.csv line 3, column 9 (V9): "x" is not a number`},
		{head + "1,2,3,4,5,6,7,8,9,\"Rad.Flow\"\n1,2,3,4,5,6,7,8,9,\"Low\"\n", `shuttle/shuttle.csv line 3, column 10 (Class): unknown class "Low"`},
		{strings.Replace(head, `"V4",`, "", 1), `shuttle/shuttle.csv line 1: missing column "V4"`},
		{strings.Replace(head, `"Class"`, `"Class","Extra"`, 1), `shuttle/shuttle.csv line 1: 11 columns`},
		{head + "1,2,3,4,5,6,7,8,9,\"Rad.Flow\"\n", "shuttle/shuttle.csv: fewer than 2 samples"},
	} {
		_, err := Shuttle{Contexts: 1, Holdout: 1, FS: fstest.MapFS{"shuttle/shuttle.csv": {Data: []byte(tc.in)}}}.New(1)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("error = %v\nwant prefix %q", err, tc.want)
		}
	}
}

// BenchmarkShuttleNew measures building one benchmark instance from the
// parsed data (sampling, standardising, encoding 300 + 2,000 samples).
func BenchmarkShuttleNew(b *testing.B) {
	if _, err := shippedShuttle(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := (Shuttle{}).New(1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadShuttle measures parsing the 58,000-row file.
func BenchmarkReadShuttle(b *testing.B) {
	for b.Loop() {
		if _, err := readShuttle(data.Shipped()); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRealDataDeterminism: the real-data problems give the same bytes for the
// same seed whatever GOMAXPROCS, and different splits or pools for different
// seeds.
func TestRealDataDeterminism(t *testing.T) {
	cfg := algorithms.Default()
	cfg.Width = 10
	for _, p := range []experiments.ProblemSpec{{Name: "cems", Contexts: 60, Holdout: 30}, {Name: "shuttle", Contexts: 60, Holdout: 200}} {
		spec := experiments.Spec{Algorithm: "neural-adb-ts", Problem: p, Config: cfg, T: 60, Every: 20, Seed: 3}
		prev := runtime.GOMAXPROCS(1)
		one := runtest.CSV(t, spec)
		runtime.GOMAXPROCS(2)
		two := runtest.CSV(t, spec)
		runtime.GOMAXPROCS(prev)
		if one != two {
			t.Errorf("%s: GOMAXPROCS=1 and 2 differ:\n%s\nvs\n%s", p.Name, one, two)
		}
		spec.Seed = 4
		if runtest.CSV(t, spec) == one {
			t.Errorf("%s: seeds 3 and 4 gave identical runs", p.Name)
		}
	}
}
