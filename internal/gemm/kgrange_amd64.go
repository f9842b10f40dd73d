package gemm

// scaleColsRangeAVX512 is ScaleColsRange for k ≥ 1, m ≥ 1 with AVX-512F:
// 8 columns at a time, the last group masked, every column.
//
//go:noescape
func scaleColsRangeAVX512(x, s, r *float64, k, m int, f float64)
