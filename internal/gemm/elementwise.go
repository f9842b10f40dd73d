package gemm

import "math"

// ReLU sets to +0 every element of x whose sign bit is set (negative
// numbers, −0 and NaNs with the sign bit), and leaves the others unchanged:
// max(x, 0) of the ReLU activation, decided on bits alone and so identical
// on every path.
func ReLU(x []float64) {
	switch active {
	case AVX2, AVX512:
		x = reluAsm(active, x)
	}
	for j, z := range x {
		bits := math.Float64bits(z)
		x[j] = math.Float64frombits(bits &^ uint64(int64(bits)>>63))
	}
}

// Mask sets d[j] to +0 where h[j] is +0 (all bits zero) and leaves it
// unchanged elsewhere: with h a ReLU output, d ∘ 1[h > 0]. It panics if h is
// shorter than d.
func Mask(d, h []float64) {
	if len(h) < len(d) {
		panic("gemm: Mask with h shorter than d")
	}
	h = h[:len(d)]
	switch active {
	case AVX2, AVX512:
		d, h = maskAsm(active, d, h)
	}
	for j, hj := range h {
		hb := math.Float64bits(hj)
		keep := -((hb | -hb) >> 63) // all ones iff hj ≠ +0
		d[j] = math.Float64frombits(math.Float64bits(d[j]) & keep)
	}
}
