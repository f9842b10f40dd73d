package gemm

import "fmt"

// AddMulStridedTo computes C += A·B for A (m×k), B (k×n) and C (m×n) whose
// rows start lda, ldb and ldc elements apart (lda ≥ k, ldb ≥ n, ldc ≥ n):
// blocks of larger row-major matrices, such as the panels of a blocked
// triangular solve or Cholesky factorisation. C must not share elements with
// A or B; the gaps between rows are neither read nor written. Every element
// of C continues its own chain of fused multiply–adds over t = 0, …, k−1.
func AddMulStridedTo(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, m, k, n int) {
	checkStrided("AddMulStridedTo", m, k, n, c, ldc, a, lda, m, k, b, ldb)
	if m == 0 || n == 0 || k == 0 {
		return
	}
	strided(m, n, k, a, lda, 1, b, ldb, c, ldc, true)
}

// AddTransMulStridedTo computes C += Aᵀ·B for A (k×m), B (k×n) and C (m×n)
// whose rows start lda, ldb and ldc elements apart (lda ≥ m, ldb ≥ n,
// ldc ≥ n), with the rules of AddMulStridedTo.
func AddTransMulStridedTo(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, m, k, n int) {
	checkStrided("AddTransMulStridedTo", m, k, n, c, ldc, a, lda, k, m, b, ldb)
	if m == 0 || n == 0 || k == 0 {
		return
	}
	strided(m, n, k, a, 1, lda, b, ldb, c, ldc, true)
}

// checkStrided panics unless the dimensions are non-negative, every stride
// covers its row and every slice reaches the last element of its operand:
// C is m rows of n at stride ldc, A is ar rows of aw at stride lda and B is k
// rows of n at stride ldb.
func checkStrided(op string, m, k, n int, c []float64, ldc int, a []float64, lda, ar, aw int, b []float64, ldb int) {
	need := func(rows, stride, width int) int {
		if rows == 0 || width == 0 {
			return 0
		}
		return (rows-1)*stride + width
	}
	switch {
	case m < 0 || k < 0 || n < 0:
		panic(fmt.Sprintf("gemm: %s with negative dimension (m=%d, k=%d, n=%d)", op, m, k, n))
	case ldc < n || lda < aw || ldb < n:
		panic(fmt.Sprintf("gemm: %s with a stride shorter than its row (ldc=%d, lda=%d, ldb=%d for m=%d, k=%d, n=%d)", op, ldc, lda, ldb, m, k, n))
	case len(c) < need(m, ldc, n):
		panic(fmt.Sprintf("gemm: %s destination has %d elements, need %d", op, len(c), need(m, ldc, n)))
	case len(a) < need(ar, lda, aw):
		panic(fmt.Sprintf("gemm: %s first operand has %d elements, need %d", op, len(a), need(ar, lda, aw)))
	case len(b) < need(k, ldb, n):
		panic(fmt.Sprintf("gemm: %s second operand has %d elements, need %d", op, len(b), need(k, ldb, n)))
	}
}
