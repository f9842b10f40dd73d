//go:build !amd64

package gemm

func dotUpperAsm(dst, x []float64, w, n int) {
	panic("gemm: no assembly kernels on this architecture")
}
