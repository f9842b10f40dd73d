//go:build !amd64

package gemm

func scaleColsMarkAVX512(x, s, r, mu *float64, live *uint8, best, k, m int, c, f float64) {
	panic("gemm: no assembly kernels on this architecture")
}
