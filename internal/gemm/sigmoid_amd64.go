package gemm

import "golang.org/x/sys/cpu"

// sigmoidAsmOK: the AVX-512 kernel repeats math.Exp's fused path, which
// math takes when the processor has AVX and FMA.
var sigmoidAsmOK = hasAVX512 && cpu.X86.HasAVX && cpu.X86.HasFMA

// sigmoidAVX512 sets dst[i] = sigmoid1(x[i]) for i < n, n > 0 a multiple of
// 8; values with |x| > 700 or NaN give unspecified results.
//
//go:noescape
func sigmoidAVX512(dst, x *float64, n int)
