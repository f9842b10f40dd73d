//go:build !amd64

package gemm

func forwardSubAsm(w []float64, m int, l []float64, ld, n int) int {
	panic("gemm: no assembly kernels on this architecture")
}
