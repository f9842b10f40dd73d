//go:build !amd64

package gemm

const sigmoidAsmOK = false

func sigmoidAVX512(dst, x *float64, n int) { panic("gemm: no assembly kernels on this architecture") }
