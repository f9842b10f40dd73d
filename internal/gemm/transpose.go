package gemm

import "fmt"

// Transpose writes the transpose of src (m×n, row-major) into dst (n×m):
// dst[j·m + i] = src[i·n + j]. It only moves values (their bits, NaN
// payloads included); on the AVX-512 path the rows of src go 8 at a time
// through blocks of 8 × 8 transposed in registers. It panics if a slice is
// shorter than its shape or a dimension is negative.
func Transpose(dst, src []float64, m, n int) {
	switch {
	case m < 0 || n < 0:
		panic(fmt.Sprintf("gemm: Transpose with negative dimension (m=%d, n=%d)", m, n))
	case len(src) < m*n:
		panic(fmt.Sprintf("gemm: Transpose source has %d elements, need %d", len(src), m*n))
	case len(dst) < m*n:
		panic(fmt.Sprintf("gemm: Transpose destination has %d elements, need %d", len(dst), m*n))
	}
	if m == 0 || n == 0 {
		return
	}
	r0 := transposeAsm(active, m, n, src, dst)
	for i := r0; i < m; i++ {
		for j, x := range src[i*n : (i+1)*n] {
			dst[j*m+i] = x
		}
	}
}
