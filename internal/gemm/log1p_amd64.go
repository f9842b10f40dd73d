//go:build amd64 && !amd64.v3

package gemm

// Built for amd64 below v3 only: from GOAMD64=v3 on, the compiler fuses
// math.Log1p's products and sums into fused multiply–adds, which the
// kernels (one rounding per operation) do not reproduce; Log1p is then
// math.Log1p throughout (log1p_other.go).

// log1pAsm runs Log1p's kernel of path p (AVX2 or AVX512) over the longest
// prefix of x that is a whole number of vectors and returns its length k
// and the index of the first vector there with an argument outside the
// kernel's range (k if none); the caller replaces those arguments.
func log1pAsm(p Path, dst, x []float64) (k, first int) {
	lanes := pathLanes(p)
	n := len(x) / lanes * lanes
	if n == 0 {
		return 0, 0
	}
	if p == AVX512 {
		first = avx512Log1p(&dst[0], &x[0], n, &log1pConsts)
	} else {
		first = avx2Log1p(&dst[0], &x[0], n, &log1pConsts)
	}
	return n, first
}
