//go:build !amd64 || noasm || gccgo || safe

package algorithms

// sparseDot returns floats.Dot(x, z) for the vector z of len(x) whose
// non-zero entries are val at the increasing indices idx, bit for bit: it
// adds the same products in the same (index) order as gonum's portable
// floats.Dot, skipping the zero products, which leave the sum unchanged.
func sparseDot(x []float64, idx []int32, val []float64) float64 {
	sum := 0.0
	for k, i := range idx {
		sum += val[k] * x[i]
	}
	return sum
}
