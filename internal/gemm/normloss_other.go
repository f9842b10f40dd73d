//go:build !amd64 || amd64.v3

package gemm

const normalLossAsmOK = false

func normalLossAVX512(dst, c *float64, n int) {
	panic("gemm: no NormalLoss kernel in this build")
}
