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

// ScaleShift sets x[i] ← a·x[i] + b, the product rounded before the sum
// (no fused multiply–add), so that every path gives the same bits.
func ScaleShift(x []float64, a, b float64) {
	c := [3]float64{a, b}
	switch active {
	case AVX2, AVX512:
		x = x[combineAsm(active, 0, x, nil, nil, &c):]
	}
	for i, v := range x {
		x[i] = float64(a*v) + b
	}
}

// AddProduct sets acc[i] ← acc[i] + (a·d[i])·(b·h[i] + c), each operation
// rounded on its own: the terms of the closed-form kernel entries of
// package mlp. It panics if d or h is shorter than acc.
func AddProduct(acc, d, h []float64, a, b, c float64) {
	if len(d) < len(acc) || len(h) < len(acc) {
		panic("gemm: AddProduct with d or h shorter than acc")
	}
	k := [3]float64{a, b, c}
	var n int
	switch active {
	case AVX2, AVX512:
		n = combineAsm(active, 1, acc, d, h, &k)
	}
	for i := n; i < len(acc); i++ {
		acc[i] += float64(a*d[i]) * (float64(b*h[i]) + c)
	}
}

// ScaleTo sets dst[i] ← x[i]·s. It panics if x is shorter than dst.
func ScaleTo(dst, x []float64, s float64) {
	if len(x) < len(dst) {
		panic("gemm: ScaleTo with x shorter than dst")
	}
	c := [3]float64{s}
	var n int
	switch active {
	case AVX2, AVX512:
		n = combineAsm(active, 2, dst, x, nil, &c)
	}
	for i := n; i < len(dst); i++ {
		dst[i] = x[i] * s
	}
}

// Axpy sets y[i] ← y[i] + a·x[i], the product rounded before the sum (no
// fused multiply–add). It panics if x is shorter than y.
func Axpy(y, x []float64, a float64) {
	if len(x) < len(y) {
		panic("gemm: Axpy with x shorter than y")
	}
	c := [3]float64{a}
	var n int
	switch active {
	case AVX2, AVX512:
		n = combineAsm(active, 3, y, x, nil, &c)
	}
	for i := n; i < len(y); i++ {
		y[i] += float64(a * x[i])
	}
}

// MarkAbove sets bit j%4 of mask[j/4] where g < c·|x[j]·s[j] − y[j]|, each
// operation correctly rounded (a NaN never compares true), and leaves the
// other bits as they are: the filter of Neural-ADB+'s knowledge gradient
// over all candidates at once. mask needs ⌈len(x)/4⌉ bytes; s and y at least
// len(x) values.
func MarkAbove(mask []uint8, x, s, y []float64, c, g float64) {
	n := len(x)
	if len(s) < n || len(y) < n || len(mask) < (n+3)/4 {
		panic("gemm: MarkAbove with short operands")
	}
	k := 0
	if active == AVX2 || active == AVX512 {
		k = markAboveAsm(mask, x, s, y, c, g)
	}
	for j := k; j < n; j++ {
		if g < c*math.Abs(float64(x[j]*s[j])-y[j]) {
			mask[j/4] |= 1 << (j % 4)
		}
	}
}
