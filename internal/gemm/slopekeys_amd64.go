package gemm

// slopeKeysAVX512 is SlopeKeys for 1 ≤ k ≤ 16 arms with AVX-512F: the 16
// lanes in two vectors, the lanes from k on masked (not read).
//
//go:noescape
func slopeKeysAVX512(keys *[16]int64, mu, b *float64, k, best int) int
