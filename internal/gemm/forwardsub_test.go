package gemm

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/neural-adb/nadb/internal/cputime"
)

// forwardSubRef is ForwardSub written out: one chain of math.FMA per
// element over the earlier rows in increasing order, then the division.
func forwardSubRef(w []float64, m int, l []float64, ld, n int) {
	for i := range n {
		for x := range m {
			v := w[i*m+x]
			for k := range i {
				v = math.FMA(l[i*ld+k], w[k*m+x], v)
			}
			w[i*m+x] = v / -l[i*ld+i]
		}
	}
}

// TestForwardSubBitIdentical requires, on every path of this machine, the
// reference's bits for 0 … 8 rows (the unrolled rows and the general one)
// and 0 … 41 columns (whole vectors, pairs of vectors and the columns left
// over), strides longer than a row, values of many binades with signed
// zeros, subnormals and infinities (a NaN's payload is not compared), and
// nothing written past the rows.
func TestForwardSubBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	sp := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1e300, -1e300, math.Inf(1), math.Inf(-1)}
	val := func(special bool) float64 {
		if special && rng.IntN(10) == 0 {
			return sp[rng.IntN(len(sp))]
		}
		return rng.NormFloat64() * math.Ldexp(1, rng.IntN(40)-20)
	}
	const guard = -777.25
	for _, p := range Available() {
		prev := Use(p)
		for n := 0; n <= 8; n++ {
			for m := 0; m <= 41; m++ {
				for _, special := range []bool{false, true} {
					ld := n + rng.IntN(4)
					l := make([]float64, max(0, (n-1)*ld+n))
					for i := range l {
						l[i] = val(special)
					}
					w := make([]float64, n*m+3)
					for i := range w {
						w[i] = val(special)
					}
					w[n*m], w[n*m+1], w[n*m+2] = guard, guard, guard
					want := append([]float64(nil), w...)
					forwardSubRef(want, m, l, ld, n)
					ForwardSub(w[:n*m], m, l, ld, n)
					for i := range w {
						if math.Float64bits(w[i]) != math.Float64bits(want[i]) && !(math.IsNaN(w[i]) && math.IsNaN(want[i])) {
							t.Fatalf("%v n=%d m=%d ld=%d special=%v: element %d = %v, want %v", p, n, m, ld, special, i, w[i], want[i])
						}
					}
				}
			}
		}
		Use(prev)
	}
}

// TestForwardSubChecks requires a panic for short or negative operands.
func TestForwardSubChecks(t *testing.T) {
	for name, f := range map[string]func(){
		"short w":         func() { ForwardSub(make([]float64, 5), 3, make([]float64, 9), 3, 2) },
		"short l":         func() { ForwardSub(make([]float64, 6), 3, make([]float64, 4), 3, 2) },
		"negative n":      func() { ForwardSub(nil, 3, nil, 3, -1) },
		"negative m":      func() { ForwardSub(nil, -1, nil, 3, 1) },
		"negative stride": func() { ForwardSub(make([]float64, 3), 3, make([]float64, 1), -1, 1) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// BenchmarkForwardSub times the 6 rows of a sub-block of package gram's
// solve on 300 columns on every path:
//
//	GOMAXPROCS=1 go test -run '^$' -bench ForwardSub ./internal/gemm
func BenchmarkForwardSub(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 3))
	const n, ld = 6, 64
	for _, p := range Available() {
		for _, m := range []int{30, 300} {
			l := randSlice(rng, n*ld)
			for i := range n {
				l[i*ld+i] = 1 + rng.Float64()
			}
			w0 := randSlice(rng, n*m)
			w := make([]float64, n*m)
			b.Run(p.String()+"/m="+strconv.Itoa(m), func(b *testing.B) {
				prev := Use(p)
				defer Use(prev)
				cpu0 := cputime.Process()
				for b.Loop() {
					copy(w, w0)
					ForwardSub(w, m, l, ld, n)
				}
				b.ReportMetric(float64(cputime.Since(cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
