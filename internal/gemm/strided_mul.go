package gemm

import "fmt"

// MulStridedTo computes C = A·B for A (m×k), B (k×n) and C (m×n) whose rows
// start lda, ldb and ldc elements apart, with the rules of AddMulStridedTo,
// except that every element of C is a chain started from +0 (C is cleared
// when k = 0): the same bits as clearing C and calling AddMulStridedTo,
// without the pass over C.
func MulStridedTo(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, m, k, n int) {
	mulStrided("MulStridedTo", 0, c, ldc, a, lda, b, ldb, m, k, n)
}

// MulStridedReLUTo is MulStridedTo followed by ReLU of every row of C: the
// same bits, without the pass over C (the kernels apply ReLU to each tile
// before they store it).
func MulStridedReLUTo(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, m, k, n int) {
	mulStrided("MulStridedReLUTo", flagReLU, c, ldc, a, lda, b, ldb, m, k, n)
}

// mulStrided is MulStridedTo followed by the steps post (0 or flagReLU) of
// stridedPost; name is the caller's, for its panics. With k = 0 every
// element is +0, which ReLU leaves as it is.
func mulStrided(name string, post int, c []float64, ldc int, a []float64, lda int, b []float64, ldb int, m, k, n int) {
	checkStrided(name, m, k, n, c, ldc, a, lda, m, k, b, ldb)
	if m == 0 || n == 0 {
		return
	}
	if k == 0 {
		for i := range m {
			clear(c[i*ldc : i*ldc+n])
		}
		return
	}
	stridedPost(m, n, k, a, lda, 1, b, ldb, c, ldc, false, post, nil)
}

// MulMaskTo is MulTo followed by Mask(c, h) for h (m×n, row-major, at least
// m·n elements): C = (A·B) ∘ 1[h ≠ +0], the same bits, without the pass over
// C and h (the kernels mask each tile before they store it).
func MulMaskTo(c, a, b, h []float64, m, k, n int) {
	check("MulMaskTo", m, k, n, len(c), m*n, len(a), m*k, len(b), k*n)
	if len(h) < m*n {
		panic(fmt.Sprintf("gemm: MulMaskTo mask has %d elements, need %d", len(h), m*n))
	}
	if m == 0 || n == 0 {
		return
	}
	if k == 0 {
		clear(c[:m*n])
		return
	}
	stridedPost(m, n, k, a, k, 1, b, n, c, n, false, flagMask, h)
}
