package gemm

import "golang.org/x/sys/cpu"

var (
	hasAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	hasAVX512 = cpu.X86.HasAVX512F
)

// kernelFunc is the signature of the tile micro-kernels (see strided): an
// mr × nv-vector tile of c, the last vector limited by mask in the masked
// variants. acc holds flagAcc, flagReLU and flagMask; h, read only with
// flagMask, has the layout of c (the same ldc).
type kernelFunc[M any] func(k int, a *float64, ars, aks int, b *float64, bks int, c *float64, ldc int, h *float64, acc int, mask M)

// loopFunc is the signature of the looping micro-kernels: mt tiles of the
// largest mr for nv vectors, stacked in rows, each computed as kernelFunc
// computes one.
type loopFunc[M any] func(mt, k int, a *float64, ars, aks int, b *float64, bks int, c *float64, ldc int, h *float64, acc int, mask M)

// rowFunc is the signature of the one-row micro-kernels: kernelFunc's
// without h, acc only 0 or 1.
type rowFunc[M any] func(k int, a *float64, ars, aks int, b *float64, bks int, c *float64, ldc int, acc int, mask M)

// engine tiles a strided product into micro-kernel calls.
type engine[M any] struct {
	lanes int
	tiles [][][2]kernelFunc[M]       // [nv−1][mr−1][masked]
	loops [][2]loopFunc[M]           // [nv−1][masked]; nil: one call per tile
	rows  [][2]rowFunc[M]            // one-row kernels of len(tiles)+1… vectors [nv−len(tiles)−1][masked]; nil: none
	mask  func(valid int) M          // mask of the first valid lanes
	relu  func(x *float64, n int)    // n a multiple of 4·lanes
	zero  func(d, h *float64, n int) // Mask; n a multiple of 4·lanes
}

var (
	avx2Masks = [4][4]int64{{}, {-1}, {-1, -1}, {-1, -1, -1}}
	avx2      = engine[*[4]int64]{
		lanes: 4, tiles: avx2Kernels, loops: avx2Loops, rows: avx2Rows,
		mask: func(valid int) *[4]int64 { return &avx2Masks[valid] },
		relu: avx2ReLU, zero: avx2Mask,
	}
	avx512 = engine[uint64]{
		lanes: 8, tiles: avx512Kernels, loops: avx512Loops,
		mask: func(valid int) uint64 { return 1<<valid - 1 },
		relu: avx512ReLU, zero: avx512Mask,
	}
)

// stridedAsm is strided on path p, followed by ReLU of c if post has
// flagReLU and by Mask of c by h (the layout of c) if it has flagMask.
func stridedAsm(p Path, m, n, k int, a []float64, ars, aks int, b []float64, bks int, c []float64, ldc int, acc bool, post int, h []float64) {
	if p == AVX512 {
		avx512.run(m, n, k, a, ars, aks, b, bks, c, ldc, acc, post, h)
		return
	}
	avx2.run(m, n, k, a, ars, aks, b, bks, c, ldc, acc, post, h)
}

// reluAsm and maskAsm leave a tail of fewer than 4·lanes elements, which
// they return, to the pure-Go loops.
func reluAsm(p Path, x []float64) []float64 {
	e := avx2.lanes * 4
	f := avx2.relu
	if p == AVX512 {
		e, f = avx512.lanes*4, avx512.relu
	}
	n := len(x) / e * e
	if n > 0 {
		f(&x[0], n)
	}
	return x[n:]
}

func maskAsm(p Path, d, h []float64) (dt, ht []float64) {
	e := avx2.lanes * 4
	f := avx2.zero
	if p == AVX512 {
		e, f = avx512.lanes*4, avx512.zero
	}
	n := len(d) / e * e
	if n > 0 {
		f(&d[0], &h[0], n)
	}
	return d[n:], h[n:]
}

// adamAsm runs the Adam kernel of path p over the longest prefix that is a
// whole number of vectors and returns its length; the caller finishes the
// rest with adamGo.
func adamAsm(p Path, theta, m, v, g []float64, c *[8]float64) int {
	return adamLanes(p, avx2Adam, avx512Adam, theta, m, v, g, c)
}

// adamScaleAsm is adamAsm with the kernels that also set g ← θ·c[8].
func adamScaleAsm(p Path, theta, m, v, g []float64, c *[9]float64) int {
	return adamLanes(p, avx2AdamScale, avx512AdamScale, theta, m, v, g, c)
}

// adamLanes runs the AVX2 or the AVX-512 kernel (by p) over the longest
// prefix of g that is a whole number of vectors and returns its length.
func adamLanes[C any](p Path, avx2k, avx512k func(theta, m, v, g *float64, n int, c *C), theta, m, v, g []float64, c *C) int {
	f, lanes := avx2k, avx2.lanes
	if p == AVX512 {
		f, lanes = avx512k, avx512.lanes
	}
	n := len(g) / lanes * lanes
	if n > 0 {
		f(&theta[0], &m[0], &v[0], &g[0], n, c)
	}
	return n
}

// panel returns the width of panel p of panels spreading vecs vectors
// evenly (the first vecs%panels one vector wider): nv vectors, cols of the
// left columns, and the mask of a ragged last vector (masked = 1) if cols
// does not fill nv vectors.
func (e *engine[M]) panel(p, panels, vecs, left int) (nv, cols, masked int, mk M) {
	nv = vecs / panels
	if p < vecs%panels {
		nv++
	}
	cols = min(nv*e.lanes, left)
	if rag := cols % e.lanes; rag != 0 {
		masked, mk = 1, e.mask(rag)
	}
	return nv, cols, masked, mk
}

func (e *engine[M]) run(m, n, k int, a []float64, ars, aks int, b []float64, bks int, c []float64, ldc int, acc bool, post int, h []float64) {
	// Split the ⌈n/lanes⌉ vectors of a row into the fewest panels the
	// kernels allow, as evenly as possible (50 columns of 8 lanes: 4 + 3
	// vectors, not 3 + 3 + 1); only the last panel can be ragged.
	nvMax := len(e.tiles)
	vecs := (n + e.lanes - 1) / e.lanes
	if m <= 2 && vecs > nvMax && e.rows != nil {
		e.runRows(m, n, k, a, ars, aks, b, bks, c, ldc, acc)
		postRows(m, n, c, ldc, post, h)
		return
	}
	panels := (vecs + nvMax - 1) / nvMax
	// A product of one panel reads it in one pass: the rows of a, which
	// no other panel reads again, then stream through the cache from
	// start to end instead of kc terms at a time.
	pass := kc
	if panels == 1 {
		pass = k
	}
	for t0 := 0; t0 < k; t0 += pass {
		kk := min(pass, k-t0)
		flag := passFlags(acc, t0, kk, k, post)
		for r0 := 0; r0 < m; r0 += mb {
			r1 := min(r0+mb, m)
			j0 := 0
			for p := range panels {
				nv, cols, masked, mk := e.panel(p, panels, vecs, n-j0)
				tiles := e.tiles[nv-1]
				mrMax := len(tiles)
				i0 := r0
				if mt := (r1 - r0) / mrMax; e.loops != nil && mt > 0 {
					e.loops[nv-1][masked](mt, kk, &a[i0*ars+t0*aks], ars, aks, &b[t0*bks+j0], bks, &c[i0*ldc+j0], ldc, hp(h, i0*ldc+j0, flag), flag, mk)
					i0 += mt * mrMax
				}
				for ; i0 < r1; i0 += mrMax {
					mr := min(mrMax, r1-i0)
					f := tiles[mr-1][masked]
					f(kk, &a[i0*ars+t0*aks], ars, aks, &b[t0*bks+j0], bks, &c[i0*ldc+j0], ldc, hp(h, i0*ldc+j0, flag), flag, mk)
				}
				j0 += cols
			}
		}
	}
}

// pathLanes returns the float64 lanes of a vector of path p (AVX2 or
// AVX512).
func pathLanes(p Path) int {
	if p == AVX512 {
		return avx512.lanes
	}
	return avx2.lanes
}

// combineAsm runs element-wise step op (0: ScaleShift of x; 1: AddProduct
// into x from y and z; 2: ScaleTo x from y; 3: Axpy into x from y) of path p over the longest
// prefix of x that is a whole number of vectors and returns its length; the
// caller finishes the rest.
func combineAsm(p Path, op int, x, y, z []float64, c *[3]float64) int {
	lanes := pathLanes(p)
	n := len(x) / lanes * lanes
	if n == 0 {
		return 0
	}
	switch {
	case op == 0 && p == AVX512:
		avx512ScaleShift(&x[0], n, c)
	case op == 0:
		avx2ScaleShift(&x[0], n, c)
	case op == 1 && p == AVX512:
		avx512AddProduct(&x[0], &y[0], &z[0], n, c)
	case op == 1:
		avx2AddProduct(&x[0], &y[0], &z[0], n, c)
	case op == 2 && p == AVX512:
		avx512ScaleTo(&x[0], &y[0], n, c)
	case op == 2:
		avx2ScaleTo(&x[0], &y[0], n, c)
	case p == AVX512:
		avx512Axpy(&x[0], &y[0], n, c)
	default:
		avx2Axpy(&x[0], &y[0], n, c)
	}
	return n
}

// peakAsm runs n iterations of 12 fused multiply–adds on registers with the
// kernels of path p and returns the floating-point operations done (0 if p
// has no kernels).
func peakAsm(p Path, n int) float64 {
	switch p {
	case AVX512:
		avx512Peak(n)
		return float64(n) * 12 * 2 * float64(avx512.lanes)
	case AVX2:
		avx2Peak(n)
		return float64(n) * 12 * 2 * float64(avx2.lanes)
	}
	return 0
}

// runRows is run for one or two rows of c and more vectors than a register
// tile holds: each row in panels of up to len(tiles)+len(rows) vectors, as
// even as possible, by the one-row kernels (the chains as in run).
func (e *engine[M]) runRows(m, n, k int, a []float64, ars, aks int, b []float64, bks int, c []float64, ldc int, acc bool) {
	wide := len(e.tiles) + len(e.rows)
	vecs := (n + e.lanes - 1) / e.lanes
	panels := (vecs + wide - 1) / wide
	for t0 := 0; t0 < k; t0 += kc {
		kk := min(kc, k-t0)
		flag := 0
		if acc || t0 > 0 {
			flag = 1
		}
		for i := range m {
			j0 := 0
			for p := range panels {
				nv, cols, masked, mk := e.panel(p, panels, vecs, n-j0)
				ai, bj, ci := &a[i*ars+t0*aks], &b[t0*bks+j0], &c[i*ldc+j0]
				if nv > len(e.tiles) {
					e.rows[nv-len(e.tiles)-1][masked](kk, ai, ars, aks, bj, bks, ci, ldc, flag, mk)
				} else {
					e.tiles[nv-1][0][masked](kk, ai, ars, aks, bj, bks, ci, ldc, nil, flag, mk)
				}
				j0 += cols
			}
		}
	}
}

// markAboveAsm runs MarkAbove's AVX2 kernel (also on AVX-512 machines,
// which have AVX2) over the longest prefix that is a whole number of groups
// of 4 and returns its length.
func markAboveAsm(mask []uint8, x, s, y []float64, c, g float64) int {
	n := len(x) / 4 * 4
	if n > 0 && hasAVX2 {
		cc := [2]float64{c, g}
		avx2MarkAbove(&mask[0], &x[0], &s[0], &y[0], n, &cc)
		return n
	}
	return 0
}

// hp returns &h[off] when flag has flagMask, else nil.
func hp(h []float64, off, flag int) *float64 {
	if flag&flagMask != 0 {
		return &h[off]
	}
	return nil
}

// dotRowsAsm computes y[r] for the rows r < m/8·8 of a (k terms, lda apart)
// with the AVX-512 kernel that holds 8 rows in the lanes (the chains of
// strided with one column) and returns how many rows it did: 0 on other
// paths.
func dotRowsAsm(p Path, m, k int, a []float64, lda int, x, y []float64) int {
	g := m / 8
	if p != AVX512 || g == 0 || k == 0 {
		return 0
	}
	avx512DotRows(g, k, &a[0], lda, &x[0], &y[0], 1<<(k%8)-1)
	return 8 * g
}

// transposeAsm transposes the first m/8·8 rows of src (m×n) into dst (n×m)
// with the AVX-512 kernel and returns how many rows it did: 0 on other
// paths.
func transposeAsm(p Path, m, n int, src, dst []float64) int {
	g := m / 8
	if p != AVX512 || g == 0 {
		return 0
	}
	avx512Transpose(g, n, &src[0], n, &dst[0], m, 1<<(n%8)-1)
	return 8 * g
}

// rowVecAsm computes, for j < n, y[j] ← fma-chain over t < k of
// x[t]·b[t·n + j] from y[j] (the chains of strided with one row) with one
// call of an AVX-512 one-row kernel, all k terms in one pass, when n spans
// more vectors than a tile holds and at most as many as a one-row kernel
// holds: every vector's chain is then in flight at once instead of one
// panel's at a time. It reports whether it did; it does nothing on other
// paths.
func rowVecAsm(p Path, n, k int, x, b, y []float64) bool {
	vecs := (n + avx512.lanes - 1) / avx512.lanes
	nt := len(avx512.tiles)
	if p != AVX512 || vecs <= nt || vecs > nt+len(avx512Rows) {
		return false
	}
	masked, mk := 0, uint64(0)
	if rag := n % avx512.lanes; rag != 0 {
		masked, mk = 1, avx512.mask(rag)
	}
	avx512Rows[vecs-nt-1][masked](k, &x[0], 0, 1, &b[0], n, &y[0], n, flagAcc, mk)
	return true
}

// avx512OuterMask[nv−1]: the OuterMaskTo kernels for rows of nv vectors.
var avx512OuterMask = [...]func(m int, c, v, h *float64, ldh int, d *float64, ldd int, y *float64, mask uint64){
	avx512OuterMask1, avx512OuterMask2, avx512OuterMask3, avx512OuterMask4,
	avx512OuterMask5, avx512OuterMask6, avx512OuterMask7, avx512OuterMask8,
}

// outerMaskAsm runs OuterMaskTo's AVX-512 kernel for rows of up to 8
// vectors and reports whether it did (false on other paths).
func outerMaskAsm(p Path, m, n int, c, v, h, d, y []float64) bool {
	vecs := (n + avx512.lanes - 1) / avx512.lanes
	if p != AVX512 || vecs > len(avx512OuterMask) {
		return false
	}
	valid := n - (vecs-1)*avx512.lanes
	avx512OuterMask[vecs-1](m, &c[0], &v[0], &h[0], n, &d[0], n, &y[0], avx512.mask(valid))
	return true
}

// passFlags returns the acc argument of the kernels for the pass over the
// terms t0 ≤ t < t0+kk of k: flagAcc to continue the chains from c (after
// the first pass, or from the start when acc), and the steps of post on
// the last pass, which stores the finished chains (ReLU and Mask apply to
// them in registers).
func passFlags(acc bool, t0, kk, k, post int) int {
	flag := 0
	if acc || t0 > 0 {
		flag = flagAcc
	}
	if t0+kk == k {
		flag |= post
	}
	return flag
}
