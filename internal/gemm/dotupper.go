package gemm

import "gonum.org/v1/gonum/floats"

// DotUpper sets dst[i·n+j] = floats.Dot(x_i, x_j) for 0 ≤ i ≤ j < n, with
// x_i = x[i·w : i·w+w] the rows of x: the upper triangle of the rows' Gram
// matrix, each entry with floats.Dot's bits. The other entries of dst are
// left as they are. It panics if n or w is negative, x is shorter than n
// rows or dst than n·n.
//
// On the AVX2 and AVX512 paths, where gonum's DotUnitary is its amd64
// assembly, the kernels compute two rows against four (or one row against
// four or one) per call, each entry in that assembly's order: four partial
// sums s_r over the terms t ≡ r (mod 4) of the whole blocks of four, each
// product x_i[t]·x_j[t] rounded before its sum, the last 1–3 terms added
// to s_0 in turn, then (s_1 + s_3) + (s_0 + s_2), with the operands of
// every operation in the same places (which also decides the bits of a
// NaN); on the PureGo path, and where gonum is built without its assembly,
// it calls floats.Dot for every entry.
func DotUpper(dst, x []float64, w, n int) {
	if n < 0 || w < 0 || len(x) < n*w || len(dst) < n*n {
		panic("gemm: DotUpper with a negative size, fewer than n rows of x or fewer than n·n entries of dst")
	}
	if gonumDotAsm && w > 0 && (active == AVX2 || active == AVX512) {
		dotUpperAsm(dst, x, w, n)
		return
	}
	for i := range n {
		xi := x[i*w : i*w+w]
		d := dst[i*n : i*n+n]
		for j := i; j < n; j++ {
			d[j] = floats.Dot(xi, x[j*w:j*w+w])
		}
	}
}
