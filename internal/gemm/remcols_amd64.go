package gemm

// remKernel is a looping kernel of remLoop (see _asm): mt tiles of mr rows
// × (8·nv + cols columns), the last cols columns of several rows in one
// vector.
type remKernel func(mt, k int, a *float64, ars, aks int, b *float64, bks int, c *float64, ldc int, h *float64, acc int)

// remKernels lists the remLoop kernels by the columns of c they compute,
// [mr−1] for tiles of mr rows (the largest used for all whole tiles, the
// others for the rows left over): the network's width (50 = 6·8 + 2) and
// input (20 = 2·8 + 4).
var remKernels = [...]struct {
	n int
	f []remKernel
}{
	{50, []remKernel{avx512Loop1x6R2, avx512Loop2x6R2, avx512Loop3x6R2}},
	{20, []remKernel{avx512Loop1x2R4, avx512Loop2x2R4, avx512Loop3x2R4, avx512Loop4x2R4, avx512Loop5x2R4, avx512Loop6x2R4}},
}

// remColsAsm computes stridedPost (the chains of strided, then the steps
// of post) with the remLoop kernels when p is AVX512 and c has the columns
// of one, and reports whether it did. The tile kernels split 50 columns
// into 4 + 3 vectors, 50 useful lanes of 56, and 20 into 3 vectors, 20 of
// 24; the remLoop kernels compute the columns past the last whole vector
// of several rows in one vector: 150 of 152 lanes for 3 rows of 50, 120 of
// 120 for 6 rows of 20. Inner dimensions up to kcRem·5/4 go in one pass
// (the rows of a 65-row block), longer ones in passes of kcRem terms.
func remColsAsm(p Path, m, n, k int, a []float64, ars, aks int, b []float64, bks int, c []float64, ldc int, acc bool, post int, h []float64) bool {
	if p != AVX512 || k == 0 || m == 0 {
		return false
	}
	for _, rk := range remKernels {
		if rk.n != n {
			continue
		}
		mr := len(rk.f)
		mt, left := m/mr, m%mr
		pass := kcRem
		if k <= kcRem+kcRem/4 {
			pass = k
		}
		for t0 := 0; t0 < k; t0 += pass {
			kk := min(pass, k-t0)
			flag := passFlags(acc, t0, kk, k, post)
			if mt > 0 {
				rk.f[mr-1](mt, kk, &a[t0*aks], ars, aks, &b[t0*bks], bks, &c[0], ldc, hp(h, 0, flag), flag)
			}
			if left > 0 {
				i := mt * mr
				rk.f[left-1](1, kk, &a[i*ars+t0*aks], ars, aks, &b[t0*bks], bks, &c[i*ldc], ldc, hp(h, i*ldc, flag), flag)
			}
		}
		return true
	}
	return false
}

// kcRem is remColsAsm's pass (kc of the tile kernels): 32 and 48 were slower
// for the weight gradient of 128 rows, 128 in one pass much slower.
const kcRem = 64
