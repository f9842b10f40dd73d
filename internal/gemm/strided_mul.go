package gemm

// MulStridedTo computes C = A·B for A (m×k), B (k×n) and C (m×n) whose rows
// start lda, ldb and ldc elements apart, with the rules of AddMulStridedTo,
// except that every element of C is a chain started from +0 (C is cleared
// when k = 0): the same bits as clearing C and calling AddMulStridedTo,
// without the pass over C.
func MulStridedTo(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, m, k, n int) {
	checkStrided("MulStridedTo", m, k, n, c, ldc, a, lda, m, k, b, ldb)
	if m == 0 || n == 0 {
		return
	}
	if k == 0 {
		for i := range m {
			clear(c[i*ldc : i*ldc+n])
		}
		return
	}
	strided(m, n, k, a, lda, 1, b, ldb, c, ldc, false)
}
