package gemm

// chordBoundsAVX512 is ChordBounds for n ≥ 1 line sets with AVX-512F, 8
// at a time (the last group masked), the offsets checked by the caller and
// below 2^31.
//
//go:noescape
func chordBoundsAVX512(dst, h, b *float64, mo, bo, bi *int32, n, k, bs int, tab *[256][2]float64)
