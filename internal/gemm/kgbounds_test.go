package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// chordTab is a table of ChordBounds' form: the normal loss at i/16,
// raised by a relative 1e-10, and the steps to the next point.
func chordTab() *[256][2]float64 {
	var t [256][2]float64
	psi := func(i int) float64 { return normalLoss1(float64(min(i, 128))/16) * (1 + 1e-10) }
	for i := range t {
		t[i] = [2]float64{psi(i), psi(i+1) - psi(i)}
	}
	return &t
}

// TestChordBounds: every path gives chordBound1's bits (NaN for NaN), for
// 0 to 40 sets (every tail), 1 to 16 arms, slope strides 1 and 3, best the
// first largest mean, ties, signed zeros, infinities and NaNs.
func TestChordBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	tab := chordTab()
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1e300, -1e300, 5e-324, -5e-324, 1e-300}
	pick := func(prev []float64) float64 {
		switch r := rng.IntN(40); {
		case r == 0:
			return special[rng.IntN(len(special))]
		case r < 6 && len(prev) > 0:
			return prev[rng.IntN(len(prev))]
		case r < 8:
			return rng.NormFloat64() * 1e-6
		default:
			return rng.NormFloat64()
		}
	}
	same := func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
	}
	for trial := range 3000 {
		n, k, bs := rng.IntN(41), 1+rng.IntN(16), 1+2*rng.IntN(2)
		sets := 1 + rng.IntN(50)
		h := make([]float64, sets*k)
		b := make([]float64, sets*k*bs+rng.IntN(3))
		for i := range h {
			h[i] = pick(h[:i])
		}
		for i := range b {
			b[i] = pick(b[:i])
		}
		mo, bo, bi := make([]int32, n), make([]int32, n), make([]int32, n)
		for i := range n {
			s := rng.IntN(sets)
			mo[i] = int32(s * k)
			bo[i] = int32(rng.IntN(len(b) - (k-1)*bs))
			best := 0
			for a, v := range h[s*k : (s+1)*k] {
				if v > h[s*k+best] {
					best = a
				}
			}
			bi[i] = int32(best)
		}
		want := make([]float64, n)
		for i := range n {
			want[i] = chordBound1(h[mo[i]:int(mo[i])+k], b[bo[i]:], bs, int(bi[i]), tab)
		}
		for _, p := range Available() {
			prev := Use(p)
			got := make([]float64, n+1)
			got[n] = float64(trial) // past dst: left alone
			ChordBounds(got[:n], h, b, mo, bo, bi, k, bs, tab)
			Use(prev)
			for i := range n {
				if !same(got[i], want[i]) {
					t.Fatalf("%v trial %d set %d (n %d k %d bs %d): %v, want %v", p, trial, i, n, k, bs, got[i], want[i])
				}
			}
			if got[n] != float64(trial) {
				t.Fatalf("%v: wrote past dst", p)
			}
		}
	}
}

// TestChordBoundsPanics: offsets outside h or b, a best not below k, short
// offsets.
func TestChordBoundsPanics(t *testing.T) {
	tab := chordTab()
	h, b := make([]float64, 10), make([]float64, 10)
	dst := make([]float64, 2)
	ok := []int32{0, 5}
	for _, c := range []struct {
		name       string
		mo, bo, bi []int32
		k, bs      int
	}{
		{"mo past h", []int32{0, 6}, ok, []int32{0, 0}, 5, 1},
		{"negative mo", []int32{0, -1}, ok, []int32{0, 0}, 5, 1},
		{"bo past b", ok, []int32{0, 6}, []int32{0, 0}, 5, 1},
		{"stride past b", ok, []int32{0, 0}, []int32{0, 0}, 5, 3},
		{"best", ok, ok, []int32{0, 5}, 5, 1},
		{"short", ok, ok, []int32{0}, 5, 1},
		{"k", ok, ok, []int32{0, 0}, 0, 1},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", c.name)
				}
			}()
			ChordBounds(dst, h, b, c.mo, c.bo, c.bi, c.k, c.bs, tab)
		}()
	}
	ChordBounds(dst, h, b, ok, ok, []int32{4, 4}, 5, 1, tab) // the largest valid offsets
}

// BenchmarkChordBounds: 32 line sets of 10 arms (knowledgeGradient's chunk
// on the paper's pool) on every path; ns per set.
func BenchmarkChordBounds(b *testing.B) {
	const n, k, sets = 32, 10, 300
	rng := rand.New(rand.NewPCG(3, 4))
	tab := chordTab()
	h, bv := make([]float64, sets*k), make([]float64, sets*k)
	for i := range h {
		h[i], bv[i] = rng.NormFloat64(), rng.NormFloat64()*0.1
	}
	mo, bo, bi := make([]int32, n), make([]int32, n), make([]int32, n)
	for i := range n {
		s := rng.IntN(sets)
		mo[i], bo[i] = int32(s*k), int32(rng.IntN(sets)*k)
		for a := range k {
			if h[s*k+a] > h[s*k+int(bi[i])] {
				bi[i] = int32(a)
			}
		}
	}
	dst := make([]float64, n)
	for _, p := range Available() {
		b.Run(fmt.Sprintf("path=%v", p), func(b *testing.B) {
			prev := Use(p)
			defer Use(prev)
			for b.Loop() {
				ChordBounds(dst, h, bv, mo, bo, bi, k, 1, tab)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/set")
		})
	}
}
