//go:build !amd64

package gemm

const hasAVX2, hasAVX512 = false, false

func stridedAsm(p Path, m, n, k int, a []float64, ars, aks int, b []float64, bks int, c []float64, ldc int, acc bool, post int, h []float64) {
	panic("gemm: no assembly kernels on this architecture")
}

func reluAsm(p Path, x []float64) []float64 { return x }

func maskAsm(p Path, d, h []float64) (dt, ht []float64) { return d, h }

func adamAsm(p Path, theta, m, v, g []float64, c *[8]float64) int { return 0 }

func combineAsm(p Path, op int, x, y, z []float64, c *[3]float64) int { return 0 }

func peakAsm(p Path, n int) float64 { return 0 }

func markAboveAsm(mask []uint8, x, s, y []float64, c, g float64) int { return 0 }

func dotRowsAsm(p Path, m, k int, a []float64, lda int, x, y []float64) int { return 0 }

func transposeAsm(p Path, m, n int, src, dst []float64) int { return 0 }

func rowVecAsm(p Path, n, k int, x, b, y []float64) bool { return false }

func adamScaleAsm(p Path, theta, m, v, g []float64, c *[9]float64) int { return 0 }

func outerMaskAsm(p Path, m, n int, c, v, h, d, y []float64) bool { return false }
