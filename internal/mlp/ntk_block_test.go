package mlp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/gemm"
)

// TestBlockKernelIsGramTo requires BlockKernel's entries to be GramTo's,
// bit for bit, on every gemm path, for blocks of rows and columns (in any
// order, repeated) larger than a tile, with and without biases and at a
// mirrored θ0 (where GramTo takes full inner products too).
func TestBlockKernelIsGramTo(t *testing.T) {
	forGramCases(t, 4, 7, func(t *testing.T, rng *rand.Rand, f *Features, want []float64, rows int) {
		cols := append(rng.Perm(rows)[:crossBlock+40], 3, 3)
		for _, p := range gemm.Available() {
			prev := gemm.Use(p)
			k := NewBlockKernel(f)
			for i, r := range [][2]int{{17, 20}, {0, rows}, {crossRows - 1, 2*crossRows + 5}} {
				cols := cols[:min(len(cols), 5+1000*i)] // few columns first, then more
				nr := r[1] - r[0]
				got := make([]float64, nr*len(cols))
				k.ColumnsTo(got, r[0], r[1], cols)
				for a := r[0]; a < r[1]; a++ {
					for b, c := range cols {
						if g, w := got[b*nr+a-r[0]], want[a*rows+c]; math.Float64bits(g) != math.Float64bits(w) {
							t.Fatalf("%v: K(%d, %d) = %v, GramTo %v", p, a, c, g, w)
						}
					}
				}
			}
			gemm.Use(prev)
		}
	})
}

// TestKeptToIsGramTo requires KeptTo's entries to be GramTo's, bit for bit,
// on every gemm path, for kept columns (repeated, kept in several calls
// across chunks of their storage) and ranges of rows and columns larger
// than a tile.
func TestKeptToIsGramTo(t *testing.T) {
	forGramCases(t, 5, 8, func(t *testing.T, rng *rand.Rand, f *Features, want []float64, rows int) {
		cols := append(rng.Perm(rows)[:crossBlock+40], 3, 3, 9)
		for _, p := range gemm.Available() {
			prev := gemm.Use(p)
			k := NewBlockKernel(f)
			for _, c := range cols {
				k.Keep(c)
			}
			if k.Kept() != len(cols) {
				t.Fatalf("Kept() = %d, want %d", k.Kept(), len(cols))
			}
			for _, r := range [][4]int{{17, 27, 0, 5}, {0, rows, 0, len(cols)}, {crossRows - 1, 2*crossRows + 5, 100, len(cols) - 1}, {690, 700, 3, 4}} {
				nr, nc := r[1]-r[0], r[3]-r[2]
				got := make([]float64, nr*nc)
				k.KeptTo(got, r[0], r[1], r[2], r[3])
				for a := r[0]; a < r[1]; a++ {
					for b, c := range cols[r[2]:r[3]] {
						if g, w := got[(a-r[0])*nc+b], want[a*rows+c]; math.Float64bits(g) != math.Float64bits(w) {
							t.Fatalf("%v: K(%d, %d) = %v, GramTo %v", p, a, c, g, w)
						}
					}
				}
			}
			gemm.Use(prev)
		}
	})
}

// forGramCases runs check, for three architectures (with and without
// biases, mirrored and He initialisations), on the features of 700 random
// rows at a network's θ0 drawn from PCG(s1, s2), with GramTo's matrix of
// them and the stream, which check may draw from further.
func forGramCases(t *testing.T, s1, s2 uint64, check func(t *testing.T, rng *rand.Rand, f *Features, want []float64, rows int)) {
	for _, tc := range []struct {
		a    Arch
		init Init
	}{
		{Arch{In: 5, Width: 8, Depth: 2}, InitMirrored},
		{Arch{In: 7, Width: 13, Depth: 2, Bias: true}, InitHe},
		{Arch{In: 3, Width: 6, Depth: 3}, InitMirrored},
	} {
		t.Run(fmt.Sprintf("%+v/%s", tc.a, tc.init), func(t *testing.T) {
			const rows = 700
			rng := rand.New(rand.NewPCG(s1, s2))
			net := NewNet(tc.a)
			if err := net.Initialize(tc.init, 1, rng); err != nil {
				t.Fatal(err)
			}
			f := net.NewFeatures(randRows(rng, rows, tc.a.In), 1/float64(tc.a.Width))
			check(t, rng, f, f.GramTo(nil), rows)
		})
	}
}
