package gemm

import "fmt"

// OuterMaskTo sets d (m×n) to the outer product of c (m) and v (n) masked by
// h (m×n), and adds hᵀ·c to y (n): the bits of
//
//	MulMaskTo(d, c, v, h, m, 1, n)
//	AddTransMulVecTo(y, h, c, m, n)
//
// (d[r·n + j] = fma(c[r], v[j], +0), then +0 where h[r·n + j] is +0; y[j]
// continued by the chain of c[r]·h[r·n + j] over the rows in order): the
// output signal and the output-weight gradient of a block of a training
// step. On the AVX-512 path, for n up to 64, one kernel does both in one
// pass over h, y held in registers. d must not overlap the operands.
func OuterMaskTo(d, c, v, h []float64, m, n int, y []float64) {
	switch {
	case m < 0 || n < 0:
		panic(fmt.Sprintf("gemm: OuterMaskTo with negative dimension (m=%d, n=%d)", m, n))
	case len(d) < m*n || len(h) < m*n:
		panic(fmt.Sprintf("gemm: OuterMaskTo destination or mask shorter than %d×%d", m, n))
	case len(c) < m || len(v) < n || len(y) < n:
		panic(fmt.Sprintf("gemm: OuterMaskTo vectors shorter than m=%d, n=%d", m, n))
	}
	if m == 0 || n == 0 {
		return
	}
	if outerMaskAsm(active, m, n, c, v, h, d, y) {
		if countFlops {
			flopCount.Add(4 * int64(m) * int64(n))
		}
		return
	}
	MulMaskTo(d, c, v, h, m, 1, n)
	AddTransMulVecTo(y, h, c, m, n)
}
