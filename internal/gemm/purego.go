package gemm

import "math"

// stridedGo is the portable twin of the micro-kernels: every output is one
// chain of math.FMA over t in increasing order, exactly as in the assembly.
// Four columns are computed together only to give the processor independent
// chains; the blocking does not change any result.
func stridedGo(m, n, k int, a []float64, ars, aks int, b []float64, bks int, c []float64, ldc int, acc bool) {
	for i := range m {
		ai := a[i*ars:]
		ci := c[i*ldc : i*ldc+n]
		j := 0
		for ; j+4 <= n; j += 4 {
			var s0, s1, s2, s3 float64
			if acc {
				s0, s1, s2, s3 = ci[j], ci[j+1], ci[j+2], ci[j+3]
			}
			for t := range k {
				at := ai[t*aks]
				bt := b[t*bks+j : t*bks+j+4]
				s0 = math.FMA(at, bt[0], s0)
				s1 = math.FMA(at, bt[1], s1)
				s2 = math.FMA(at, bt[2], s2)
				s3 = math.FMA(at, bt[3], s3)
			}
			ci[j], ci[j+1], ci[j+2], ci[j+3] = s0, s1, s2, s3
		}
		for ; j < n; j++ {
			var s float64
			if acc {
				s = ci[j]
			}
			for t := range k {
				s = math.FMA(ai[t*aks], b[t*bks+j], s)
			}
			ci[j] = s
		}
	}
}
