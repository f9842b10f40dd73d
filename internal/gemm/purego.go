package gemm

import "math"

// stridedGo is the portable twin of the micro-kernels: every output is one
// chain of math.FMA over t in increasing order, exactly as in the assembly.
// Tiles of 2 rows × 4 columns only give the processor independent chains;
// the blocking does not change any result.
func stridedGo(m, n, k int, a []float64, ars, aks int, b []float64, bks int, c []float64, ldc int, acc bool) {
	i := 0
	for ; i+2 <= m; i += 2 {
		c0 := c[i*ldc : i*ldc+n]
		c1 := c[(i+1)*ldc : (i+1)*ldc+n]
		j := 0
		for ; j+4 <= n; j += 4 {
			var s00, s01, s02, s03, s10, s11, s12, s13 float64
			if acc {
				s00, s01, s02, s03 = c0[j], c0[j+1], c0[j+2], c0[j+3]
				s10, s11, s12, s13 = c1[j], c1[j+1], c1[j+2], c1[j+3]
			}
			ia, ib := i*ars, j
			for range k {
				a0, a1 := a[ia], a[ia+ars]
				bt := b[ib : ib+4 : ib+4]
				s00 = math.FMA(a0, bt[0], s00)
				s01 = math.FMA(a0, bt[1], s01)
				s02 = math.FMA(a0, bt[2], s02)
				s03 = math.FMA(a0, bt[3], s03)
				s10 = math.FMA(a1, bt[0], s10)
				s11 = math.FMA(a1, bt[1], s11)
				s12 = math.FMA(a1, bt[2], s12)
				s13 = math.FMA(a1, bt[3], s13)
				ia += aks
				ib += bks
			}
			c0[j], c0[j+1], c0[j+2], c0[j+3] = s00, s01, s02, s03
			c1[j], c1[j+1], c1[j+2], c1[j+3] = s10, s11, s12, s13
		}
		for ; j < n; j++ {
			var s0, s1 float64
			if acc {
				s0, s1 = c0[j], c1[j]
			}
			ia, ib := i*ars, j
			for range k {
				s0 = math.FMA(a[ia], b[ib], s0)
				s1 = math.FMA(a[ia+ars], b[ib], s1)
				ia += aks
				ib += bks
			}
			c0[j], c1[j] = s0, s1
		}
	}
	if i < m {
		stridedGo1(n, k, a[i*ars:], aks, b, bks, c[i*ldc:i*ldc+n], acc)
	}
}

// stridedGo1 is stridedGo for one row.
func stridedGo1(n, k int, a []float64, aks int, b []float64, bks int, c []float64, acc bool) {
	j := 0
	for ; j+4 <= n; j += 4 {
		var s0, s1, s2, s3 float64
		if acc {
			s0, s1, s2, s3 = c[j], c[j+1], c[j+2], c[j+3]
		}
		ia, ib := 0, j
		for range k {
			at := a[ia]
			bt := b[ib : ib+4 : ib+4]
			s0 = math.FMA(at, bt[0], s0)
			s1 = math.FMA(at, bt[1], s1)
			s2 = math.FMA(at, bt[2], s2)
			s3 = math.FMA(at, bt[3], s3)
			ia += aks
			ib += bks
		}
		c[j], c[j+1], c[j+2], c[j+3] = s0, s1, s2, s3
	}
	for ; j < n; j++ {
		var s float64
		if acc {
			s = c[j]
		}
		ia, ib := 0, j
		for range k {
			s = math.FMA(a[ia], b[ib], s)
			ia += aks
			ib += bks
		}
		c[j] = s
	}
}
