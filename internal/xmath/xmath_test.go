package xmath

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.txt (on a processor where math takes its fused path)")

// fused reports whether math.Exp takes its fused path here (math's own
// test: AVX and FMA; GODEBUG=cpu.fma=off or cpu.avx=off turns it off for
// package math and for package cpu alike).
func fused() bool { return cpu.X86.HasAVX && cpu.X86.HasFMA }

// funcs are the functions under test, each beside math's.
var funcs = []struct {
	name       string
	got, want  func(x, y float64) float64
	inputs     func(rng *rand.Rand, n int) [][2]float64
	goldenSize int
}{
	{"Exp", func(x, _ float64) float64 { return Exp(x) }, func(x, _ float64) float64 { return math.Exp(x) }, expInputs, 4000},
	{"Erfc", func(x, _ float64) float64 { return Erfc(x) }, func(x, _ float64) float64 { return math.Erfc(x) }, erfcInputs, 4000},
	{"Pow", Pow, math.Pow, powInputs, 2000},
}

// special are the values every function is tried at.
var special = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2, math.Inf(1), math.Inf(-1), math.NaN(),
	math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64, 1e-300, 0x1p-1022,
	709.782712893384, 709.7827128933841, 709.78, -708.39, -708.4, -745.1332191019411, -745.1332191019412, -745.2, -746, -1e10, -3e9, 1e10,
	0.84375, 1.25, 1 / 0.35, 6, 28, -0.84375, -1.25, -6, -6.0000001, -28, 0.25, 1.0 / (1 << 56), 0x1p-57}

// ranged returns n values: the special ones, then uniform in [lo, hi],
// then arbitrary bit patterns.
func ranged(rng *rand.Rand, n int, lo, hi float64) []float64 {
	v := append([]float64(nil), special...)
	for len(v) < n*7/8 {
		v = append(v, lo+float64((hi-lo)*rng.Float64())) // no fused multiply–add: the same inputs everywhere
	}
	for len(v) < n {
		v = append(v, math.Float64frombits(rng.Uint64()))
	}
	return v[:n]
}

func pairs(xs []float64) [][2]float64 {
	p := make([][2]float64, len(xs))
	for i, x := range xs {
		p[i][0] = x
	}
	return p
}

func expInputs(rng *rand.Rand, n int) [][2]float64 { return pairs(ranged(rng, n, -750, 712)) }

func erfcInputs(rng *rand.Rand, n int) [][2]float64 { return pairs(ranged(rng, n, -8, 30)) }

// powInputs mixes the exponents the project uses (k/4 and k/2 of 2, a
// ratio to i/(D−1)) with arbitrary ones.
func powInputs(rng *rand.Rand, n int) [][2]float64 {
	p := make([][2]float64, 0, n)
	for k := -40; k <= 40; k++ {
		p = append(p, [2]float64{2, float64(k) / 4}, [2]float64{2, float64(k) / 2})
	}
	xs := ranged(rng, n, 0, 50)
	ys := ranged(rng, n, -60, 60)
	for i := 0; len(p) < n; i++ {
		p = append(p, [2]float64{xs[i], ys[(i*7)%n]})
	}
	return p
}

func same(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

// TestMatchesMath compares every function with package math's on a
// processor where math takes its fused path.
func TestMatchesMath(t *testing.T) {
	if !mathUnfused || !fused() {
		t.Skip("package math is not amd64's unfused Go code with math.Exp's fused path here; TestGolden checks the recorded bits")
	}
	n := 1 << 20
	if testing.Short() {
		n = 1 << 16
	}
	for _, f := range funcs {
		t.Run(f.name, func(t *testing.T) {
			bad := 0
			for _, in := range f.inputs(rand.New(rand.NewPCG(1, 2)), n) {
				if got, want := f.got(in[0], in[1]), f.want(in[0], in[1]); !same(got, want) {
					if bad++; bad <= 5 {
						t.Errorf("%s(%v, %v) = %v (%#x), math: %v (%#x)", f.name, in[0], in[1], got, math.Float64bits(got), want, math.Float64bits(want))
					}
				}
			}
			if bad > 5 {
				t.Errorf("%d differences in all", bad)
			}
		})
	}
}

// TestGolden compares every function with the bits recorded on a processor
// where math takes its fused path; it passes on any processor.
func TestGolden(t *testing.T) {
	path := filepath.Join("testdata", "golden.txt")
	var lines []string
	for _, f := range funcs {
		for _, in := range f.inputs(rand.New(rand.NewPCG(3, 4)), f.goldenSize) {
			lines = append(lines, fmt.Sprintf("%s %016x %016x %016x", f.name, math.Float64bits(in[0]), math.Float64bits(in[1]), math.Float64bits(f.got(in[0], in[1]))))
		}
	}
	if *update {
		if !mathUnfused || !fused() {
			t.Fatal("-update needs amd64 below GOAMD64=v3 and a processor where math takes its fused path (AVX and FMA)")
		}
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (go test ./internal/xmath -run Golden -update writes it)", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	i, bad := 0, 0
	for ; sc.Scan(); i++ {
		if i >= len(lines) {
			t.Fatalf("%s has more than the %d lines the test computes", path, len(lines))
		}
		if want := sc.Text(); want != lines[i] {
			if bad++; bad <= 5 {
				t.Errorf("line %d: got %q, recorded %q", i+1, lines[i], want)
			}
		}
	}
	if i != len(lines) {
		t.Errorf("%s has %d lines, the test computes %d", path, i, len(lines))
	}
	if bad > 5 {
		t.Errorf("%d lines differ in all", bad)
	}
}

// TestMathDiffers shows why the package exists: with the fused path off
// (GODEBUG=cpu.fma=off), math.Exp differs from Exp somewhere in a million
// arguments, while Exp still matches the recorded bits (TestGolden).
func TestMathDiffers(t *testing.T) {
	if !mathUnfused || fused() {
		t.Skip("math takes its fused path here (or is not amd64's unfused Go code); run with GODEBUG=cpu.fma=off")
	}
	for _, x := range ranged(rand.New(rand.NewPCG(5, 6)), 1<<20, -700, 700) {
		if !same(Exp(x), math.Exp(x)) {
			return
		}
	}
	t.Error("math.Exp off its fused path agrees with Exp on a million arguments: is the package still needed?")
}

func BenchmarkExp(b *testing.B) {
	xs := ranged(rand.New(rand.NewPCG(1, 2)), 1024, -30, 30)
	s := 0.0
	for b.Loop() {
		for _, x := range xs {
			s += Exp(x)
		}
	}
	sink = s
}

func BenchmarkMathExp(b *testing.B) {
	xs := ranged(rand.New(rand.NewPCG(1, 2)), 1024, -30, 30)
	s := 0.0
	for b.Loop() {
		for _, x := range xs {
			s += math.Exp(x)
		}
	}
	sink = s
}

var sink float64
