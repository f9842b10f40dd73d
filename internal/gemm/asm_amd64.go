package gemm

import "golang.org/x/sys/cpu"

var (
	hasAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	hasAVX512 = cpu.X86.HasAVX512F
)

// kernelFunc is the signature of every micro-kernel (see strided): an
// mr × nv-vector tile of c, the last vector limited by mask in the masked
// variants.
type kernelFunc[M any] func(k int, a *float64, ars, aks int, b *float64, bks int, c *float64, ldc int, acc int, mask M)

// engine tiles a strided product into micro-kernel calls.
type engine[M any] struct {
	lanes, mrMax, nvMax int
	tiles               [][][2]kernelFunc[M] // [mr−1][nv−1][masked]
	mask                func(valid int) M    // mask of the first valid lanes
}

var (
	avx2Masks = [4][4]int64{{}, {-1}, {-1, -1}, {-1, -1, -1}}
	avx2      = engine[*[4]int64]{
		lanes: 4, mrMax: 4, nvMax: 3, tiles: avx2Kernels,
		mask: func(valid int) *[4]int64 { return &avx2Masks[valid] },
	}
	avx512 = engine[uint64]{
		lanes: 8, mrMax: 8, nvMax: 3, tiles: avx512Kernels,
		mask: func(valid int) uint64 { return 1<<valid - 1 },
	}
)

func stridedAsm(p Path, m, n, k int, a []float64, ars, aks int, b []float64, bks int, c []float64, ldc int, acc bool) {
	if p == AVX512 {
		avx512.run(m, n, k, a, ars, aks, b, bks, c, ldc, acc)
		return
	}
	avx2.run(m, n, k, a, ars, aks, b, bks, c, ldc, acc)
}

// kc is the number of terms t one pass over a tile takes before the tile
// is stored and the next pass reloads it: a long inner dimension (the rows
// of a batch in AddTransMulTo) then streams through the cache in blocks.
// Storing and reloading an accumulator does not change its value.
const kc = 256

func (e *engine[M]) run(m, n, k int, a []float64, ars, aks int, b []float64, bks int, c []float64, ldc int, acc bool) {
	panel := e.nvMax * e.lanes
	for t0 := 0; t0 < k; t0 += kc {
		kk := min(kc, k-t0)
		flag := 0
		if acc || t0 > 0 {
			flag = 1
		}
		for j0 := 0; j0 < n; j0 += panel {
			cols := min(panel, n-j0)
			nv := (cols + e.lanes - 1) / e.lanes
			rag := cols % e.lanes
			masked := 0
			var mk M
			if rag != 0 {
				masked = 1
				mk = e.mask(rag)
			}
			for i0 := 0; i0 < m; i0 += e.mrMax {
				mr := min(e.mrMax, m-i0)
				f := e.tiles[mr-1][nv-1][masked]
				f(kk, &a[i0*ars+t0*aks], ars, aks, &b[t0*bks+j0], bks, &c[i0*ldc+j0], ldc, flag, mk)
			}
		}
	}
}
