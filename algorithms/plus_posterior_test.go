package algorithms

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/neural-adb/nadb/internal/gemm"
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

// TestPlusBlocks: every block entry (a, b) is plusDot((ZΣ)_a, z_b) (the
// upper triangle, mirrored) bit for bit, for K around the vector widths,
// with signed zeros and an infinity in the features.
func TestPlusBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, K := range []int{2, 7, 8, 9, 10, 17} {
		for _, m := range []int{1, 9, 70} {
			C := 3
			ps := &plusPosterior{pool: &Pool{Contexts: C, Arms: K}, m: m, z: make([]float64, C*K*m), cov: make([]float64, m*m), q: make([]float64, C*K*K)}
			for i := range ps.z {
				switch rng.IntN(10) {
				case 0:
					ps.z[i] = math.Copysign(0, -1)
				case 1:
					ps.z[i] = 0
				default:
					ps.z[i] = rng.NormFloat64()
				}
			}
			for i := range m {
				for j := i; j < m; j++ {
					v := rng.NormFloat64()
					ps.cov[i*m+j], ps.cov[j*m+i] = v, v
				}
			}
			if K == 9 {
				ps.z[K*m+3] = math.Inf(1)
			}
			ps.blocks(0, C)
			zs := make([]float64, C*K*m)
			gemm.MulTo(zs, ps.z, ps.cov, C*K, m, m)
			for c := range C {
				for a := range K {
					for b := a; b < K; b++ {
						want := plusDot(zs[(c*K+a)*m:(c*K+a+1)*m], ps.z[(c*K+b)*m:(c*K+b+1)*m])
						for _, got := range []float64{ps.q[c*K*K+a*K+b], ps.q[c*K*K+b*K+a]} {
							if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
								t.Fatalf("K %d, m %d, context %d, (%d, %d): block %v, plusDot %v", K, m, c, a, b, got, want)
							}
						}
					}
				}
			}
		}
	}
}
