//go:build amd64 && !noasm && !gccgo && !safe

package algorithms

// sparseDot returns floats.Dot(x, z) for the vector z of len(x) whose
// non-zero entries are val at the increasing indices idx, bit for bit: it
// adds the same products in gonum's amd64 summation order (four running
// sums, of the indices ≡ 0, 1, 2, 3 mod 4 below the last multiple of four,
// the remaining indices added to the first; the result (s1 + s3) + (s0 +
// s2)), skipping the zero products, which leave every sum unchanged.
func sparseDot(x []float64, idx []int32, val []float64) float64 {
	var s [4]float64
	main := int32(len(x) &^ 3)
	for k, i := range idx {
		lane := 0
		if i < main {
			lane = int(i & 3)
		}
		s[lane] += float64(x[i] * val[k]) // rounded: never fused into an FMA, as MULPD, ADDPD are not
	}
	return (s[1] + s[3]) + (s[0] + s[2])
}
