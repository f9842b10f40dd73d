//go:build !amd64

package gemm

func axpyRowsAsm(p Path, y, x []float64, ld int, idx []int32, a []float64) {
	panic("gemm: no assembly kernels on this architecture")
}

func maxRowAsm(idx []int32) uint32 {
	panic("gemm: no assembly kernels on this architecture")
}
