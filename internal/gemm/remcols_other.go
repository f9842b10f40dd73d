//go:build !amd64

package gemm

func remColsAsm(p Path, m, n, k int, a []float64, ars, aks int, b []float64, bks int, c []float64, ldc int, acc bool, post int, h []float64) bool {
	return false
}
