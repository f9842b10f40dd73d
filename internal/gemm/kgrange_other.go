//go:build !amd64

package gemm

func scaleColsRangeAVX512(x, s, r *float64, k, m int, f float64) {
	panic("gemm: no assembly kernels on this architecture")
}
