package algorithms

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// TestPlusSyrRows: syrRows gives the bits of blas64.Syr called duel by duel
// (duels with a non-finite ψ left out), with zero, signed-zero and NaN
// factors k, zeros in ψ and sizes around the vector widths.
func TestPlusSyrRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, m := range []int{1, 7, 8, 9, 17, 70} {
		for _, n := range []int{0, 1, 5, 40} {
			ps := &plusPosterior{m: m}
			psis, ks := make([]float64, n*m), make([]float64, n)
			for s := range n {
				switch rng.IntN(10) {
				case 0:
					ks[s] = 0
				case 1:
					ks[s] = math.Copysign(0, -1)
				case 2:
					ks[s] = rng.Float64()
					if n == 5 { // (a NaN spreads to most entries)
						ks[s] = math.NaN()
					}
				default:
					ks[s] = rng.Float64()
				}
				for i := range m {
					switch rng.IntN(12) {
					case 0:
						psis[s*m+i] = 0
					case 1:
						psis[s*m+i] = math.Copysign(0, -1)
					case 2:
						psis[s*m+i] = 1e-300
					default:
						psis[s*m+i] = rng.NormFloat64()
					}
				}
				if rng.IntN(15) == 0 {
					psis[s*m+rng.IntN(m)] = math.Inf(1)
				}
			}
			got, want := make([]float64, m*m), make([]float64, m*m)
			for i := range m {
				got[i*m+i], want[i*m+i] = 1, 1
			}
			ps.syrRows(got, psis, ks)
			for s := range n {
				psi := psis[s*m : (s+1)*m]
				if allFinite(psi) {
					blas64.Syr(ks[s], blas64.Vector{N: m, Inc: 1, Data: psi}, blas64.Symmetric{Uplo: blas.Upper, N: m, Stride: m, Data: want})
				}
			}
			for k := range got {
				if math.Float64bits(got[k]) != math.Float64bits(want[k]) && !(math.IsNaN(got[k]) && math.IsNaN(want[k])) {
					t.Fatalf("m = %d, n = %d, entry %d: syrRows %v, blas64.Syr %v", m, n, k, got[k], want[k])
				}
			}
		}
	}
}
