package gemm

import "math"

// ChordBounds sets dst[i], for each i < len(dst), to the bound of line set i
// that neural-adb-plus's knowledge-gradient pruning adds up (its kgChord):
// with k arms, means mu_a = h[mo[i]+a], slopes b_a = b[bo[i]+a·bs], best =
// bi[i], g_a = mu_best − mu_a, d_a = |b_a − b_best| + 1e-300 and
// x_a = min(16·g_a/d_a, 128), for each side s (arms of larger slope than
// best's, and the others) the smaller of Σ d_a·ψ(x_a) and
// max d_a·ψ(min x_a), the minimum over the arms of the side whose slope
// differs from best's (128 if none), summed: side ≤ slope first, then the
// other. ψ(x) = tab[i][0] + (x − i)·tab[i][1], i = uint8(int(x)), is the
// table's chord; every operation is rounded on its own, sums in increasing
// arm order. A NaN among a set's means or slopes gives a NaN (its payload
// may differ between paths). Where best has the largest mean (g_a ≥ 0 or
// NaN for every a, as for kgChord's best), it gives the same bits on every
// path. The AVX-512 path takes 8 sets at a time, gathering their values.
//
// It panics if mo, bo or bi is shorter than dst, k < 1, bs < 0, a best is
// not below k or an index is outside h or b.
func ChordBounds(dst, h, b []float64, mo, bo, bi []int32, k, bs int, tab *[256][2]float64) {
	n := len(dst)
	if len(mo) < n || len(bo) < n || len(bi) < n || k < 1 || bs < 0 {
		panic("gemm: ChordBounds with short offsets, k < 1 or bs < 0")
	}
	if n == 0 {
		return
	}
	mo, bo, bi = mo[:n], bo[:n], bi[:n]
	// Largest offsets as unsigned: a negative one becomes huge.
	var mm, mb, mx uint32
	for i := range n {
		mm, mb, mx = max(mm, uint32(mo[i])), max(mb, uint32(bo[i])), max(mx, uint32(bi[i]))
	}
	if int(mx) >= k || int64(mm)+int64(k) > int64(len(h)) || int64(mb)+int64(k-1)*int64(bs) >= int64(len(b)) {
		panic("gemm: ChordBounds with a best not below k or an offset outside h or b")
	}
	if active == AVX512 && int64(len(b)) <= math.MaxInt32 && int64(len(h)) <= math.MaxInt32 {
		chordBoundsAVX512(&dst[0], &h[0], &b[0], &mo[0], &bo[0], &bi[0], n, k, bs, tab)
		return
	}
	for i := range dst {
		dst[i] = chordBound1(h[mo[i]:int(mo[i])+k], b[bo[i]:], bs, int(bi[i]), tab)
	}
}

// chordBound1 is ChordBounds of one line set (slope a at b[a·bs]), without
// branches on the data (as algorithms' kgChord). The conversions keep
// products and sums apart (no fused multiply–add from GOAMD64=v3 up).
func chordBound1(mu, b []float64, bs, best int, tab *[256][2]float64) float64 {
	psi := func(x float64) float64 {
		i := uint8(int(x))
		p := &tab[i]
		return p[0] + float64((x-float64(i))*p[1])
	}
	mb, bb := mu[best], b[best*bs]
	var sum, dmax [2]float64
	xmin := [2]float64{128, 128}
	for a := range mu {
		ba := b[a*bs]
		g, d := mb-mu[a], math.Abs(ba-bb)+1e-300
		x := min(float64(g/d)*16, 128)
		side := 0
		if ba > bb {
			side = 1
		}
		sum[side] += float64(d * psi(x))
		dmax[side] = max(dmax[side], d)
		keep := uint64(0) // all ones unless best's slope
		if ba != bb {
			keep = math.MaxUint64
		}
		xs := math.Float64frombits(math.Float64bits(x)&keep | chordX128&^keep)
		xmin[side] = min(xmin[side], xs)
	}
	return min(sum[0], float64(dmax[0]*psi(xmin[0]))) + min(sum[1], float64(dmax[1]*psi(xmin[1])))
}

// chordX128 is the bits of 128.
var chordX128 = math.Float64bits(128)
