//go:build !amd64

package gemm

func slopeKeysAVX512(keys *[16]int64, mu, b *float64, k, best int) int {
	panic("gemm: no assembly kernels on this architecture")
}
