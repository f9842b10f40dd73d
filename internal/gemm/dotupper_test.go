package gemm

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/neural-adb/nadb/internal/cputime"
)

// dotGonumAMD64 is the order of gonum's amd64 DotUnitary written out:
// partial sums s_r over the terms t ≡ r (mod 4) of the whole blocks of four,
// the last terms into s_0, then (s_1 + s_3) + (s_0 + s_2); every product
// rounded before its sum.
func dotGonumAMD64(x, y []float64) float64 {
	var s [4]float64
	t := 0
	for ; t+4 <= len(x); t += 4 {
		for r := range s {
			s[r] += float64(x[t+r] * y[t+r])
		}
	}
	for ; t < len(x); t++ {
		s[0] += float64(x[t] * y[t])
	}
	return float64(s[1]+s[3]) + float64(s[0]+s[2])
}

// dotTestRows returns n rows of w values whose magnitudes span many
// binades (so that the order of the sums shows in the bits), with signed
// zeros, subnormals, infinities and NaNs of two payloads where special.
func dotTestRows(rng *rand.Rand, n, w int, special bool) []float64 {
	nan1, nan2 := math.Float64frombits(0x7ff8000000000001), math.Float64frombits(0xfff8000000000002)
	sp := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1e300, -1e300, math.Inf(1), math.Inf(-1), nan1, nan2}
	x := make([]float64, n*w)
	for i := range x {
		x[i] = rng.NormFloat64() * math.Ldexp(1, rng.IntN(60)-30)
		if special && rng.IntN(12) == 0 {
			x[i] = sp[rng.IntN(len(sp))]
		}
	}
	return x
}

// TestDotUpperBitIdentical requires, on every path of this machine, for
// row lengths 0 … 70 (every tail of a block of four) and 0 … 17 rows (the
// groups of four of a row and the short last group), the bits of
// floats.Dot for every entry of the upper triangle (NaN payloads too), and
// the lower triangle untouched; on amd64 it also checks that floats.Dot is
// the order the kernel reproduces (dotGonumAMD64; a NaN's payload there is
// the compiler's choice of operand order, not checked).
func TestDotUpperBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 14))
	const guard = 12345.678
	for _, p := range Available() {
		prev := Use(p)
		for w := 0; w <= 70; w++ {
			for _, n := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 17} {
				for _, special := range []bool{false, true} {
					x := dotTestRows(rng, n, w, special)
					dst := make([]float64, n*n+1)
					for i := range dst {
						dst[i] = guard
					}
					DotUpper(dst[:n*n], x, w, n)
					for i := range n {
						for j := range n {
							got := dst[i*n+j]
							if j < i {
								if got != guard {
									t.Fatalf("%v w=%d n=%d: entry (%d, %d) below the diagonal written", p, w, n, i, j)
								}
								continue
							}
							xi, xj := x[i*w:i*w+w], x[j*w:j*w+w]
							want := floats.Dot(xi, xj)
							if gonumDotAsm {
								if ref := dotGonumAMD64(xi, xj); math.Float64bits(ref) != math.Float64bits(want) && !(math.IsNaN(ref) && math.IsNaN(want)) {
									t.Fatalf("w=%d: floats.Dot = %v (%#x), the written-out order gives %v (%#x)", w, want, math.Float64bits(want), ref, math.Float64bits(ref))
								}
							}
							if math.Float64bits(got) != math.Float64bits(want) {
								t.Fatalf("%v w=%d n=%d special=%v: entry (%d, %d) = %v (%#x), want %v (%#x)", p, w, n, special, i, j, got, math.Float64bits(got), want, math.Float64bits(want))
							}
						}
					}
					if dst[n*n] != guard {
						t.Fatalf("%v w=%d n=%d: wrote past n·n", p, w, n)
					}
				}
			}
		}
		Use(prev)
	}
}

// TestDotUpperChecks requires a panic for short or negative operands.
func TestDotUpperChecks(t *testing.T) {
	for name, f := range map[string]func(){
		"short x":    func() { DotUpper(make([]float64, 9), make([]float64, 8), 3, 3) },
		"short dst":  func() { DotUpper(make([]float64, 8), make([]float64, 9), 3, 3) },
		"negative n": func() { DotUpper(nil, nil, 3, -1) },
		"negative w": func() { DotUpper(nil, nil, -1, 3) },
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

// BenchmarkDotUpper times the Gram upper triangles of a fresh context at
// paper scale (10 rows of 50 and of 20 values) on every path:
//
//	GOMAXPROCS=1 go test -run '^$' -bench DotUpper ./internal/gemm
func BenchmarkDotUpper(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range Available() {
		for _, w := range []int{20, 50} {
			const n = 10
			x := dotTestRows(rng, n, w, false)
			dst := make([]float64, n*n)
			b.Run(p.String()+"/w="+strconv.Itoa(w), func(b *testing.B) {
				prev := Use(p)
				defer Use(prev)
				cpu0 := cputime.Process()
				for b.Loop() {
					DotUpper(dst, x, w, n)
				}
				b.ReportMetric(float64(cputime.Since(cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
