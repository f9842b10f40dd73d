//go:build !amd64

package gemm

func chordBoundsAVX512(dst, h, b *float64, mo, bo, bi *int32, n, k, bs int, tab *[256][2]float64) {
	panic("gemm: no assembly kernels on this architecture")
}
