package gemm

// scaleColsMarkAVX512 is ScaleColsMark for k ≥ 1, m ≥ 1 with AVX-512F: 8
// columns at a time, the last group masked, every column scaled.
//
//go:noescape
func scaleColsMarkAVX512(x, s, r, mu *float64, live *uint8, best, k, m int, c, f float64)
