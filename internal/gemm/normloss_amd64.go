//go:build amd64 && !amd64.v3

package gemm

import "golang.org/x/sys/cpu"

// normalLossAsmOK: the AVX-512 kernel repeats math.Exp's fused path, which
// math takes when the processor has AVX and FMA. (Built for amd64.v3 or
// above, the compiler may fuse math.Erfc's own products and sums; the kernel
// is then left out.)
var normalLossAsmOK = hasAVX512 && cpu.X86.HasAVX && cpu.X86.HasFMA

// normalLossAVX512 sets dst[i] = normalLoss1(c[i]) for i < n, n > 0 a
// multiple of 8; values of c outside [0, 37) give unspecified results.
//
//go:noescape
func normalLossAVX512(dst, c *float64, n int)
