package gram

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/gemm"
)

// TestForwardColsBits solves L y = b for random well-conditioned L and many
// right-hand sides, on every gemm path and with the columns solved in
// batches of several widths, and requires every column to be exactly −y of
// the documented chain (b_i, then fma(L_ik, −y_k, ·) for k = 0, 1, …, i−1,
// then division by L_ii) and close to the exact solution.
func TestForwardColsBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{1, 5, solveSub + 1, solveBlock, solveBlock + 1, 2*solveBlock + 13} {
		ld := n + 3
		l := make([]float64, ld*ld)
		for i := range n {
			for k := range i {
				l[i*ld+k] = rng.NormFloat64() / math.Sqrt(float64(n))
			}
			l[i*ld+i] = 1 + rng.Float64()
		}
		const cols = 37
		b := make([]float64, n*cols) // column x of b is b[x·n:]
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		want := make([]float64, n*cols) // −y, column x at want[x·n:]
		for x := range cols {
			y := want[x*n : (x+1)*n]
			for i := range n {
				s := b[x*n+i]
				for k := range i {
					s = math.FMA(l[i*ld+k], y[k], s) // y holds −y_k
				}
				y[i] = s / -l[i*ld+i]
			}
			for i := range n { // L(−y) + b ≈ 0
				r := b[x*n+i]
				for k := range i + 1 {
					r += l[i*ld+k] * y[k]
				}
				if math.Abs(r) > 1e-12 {
					t.Fatalf("n=%d column %d: residual %g in row %d", n, x, r, i)
				}
			}
		}
		for _, p := range gemm.Available() {
			prev := gemm.Use(p)
			for _, m := range []int{1, 3, 8, cols} {
				t.Run(fmt.Sprintf("%v/t=%d/m=%d", p, n, m), func(t *testing.T) {
					for x0 := 0; x0 < cols; x0 += m {
						x1 := min(x0+m, cols)
						w := make([]float64, n*(x1-x0))
						for x := x0; x < x1; x++ {
							for i := range n {
								w[i*(x1-x0)+x-x0] = b[x*n+i]
							}
						}
						forwardCols(w, n, x1-x0, l, ld)
						for x := x0; x < x1; x++ {
							for i := range n {
								if got, want := w[i*(x1-x0)+x-x0], want[x*n+i]; math.Float64bits(got) != math.Float64bits(want) {
									t.Fatalf("column %d, row %d: %v, want %v", x, i, got, want)
								}
							}
						}
					}
				})
			}
			gemm.Use(prev)
		}
	}
}
