package gemm

// ScaleColsMark is the knowledge gradient's per-context pass over its k × m
// block x in one: MarkAboveRows(live, x, s, y, mu, best, k, m, c), then
// ScaleColsRange(x, s, r, live, k, m, f). The bits are those of these
// calls; the AVX-512 path makes one pass over x for all of it (and y is
// then left unspecified), the others make the calls. y and r need m
// values, mu k. It panics where those calls would, or if best is not a
// row or mu is short.
func ScaleColsMark(x, s, y, r, mu []float64, live []uint8, best, k, m int, c, f float64) {
	if k < 1 || m < 0 || best < 0 || best >= k || len(mu) < k || len(s) < m || len(y) < m || len(r) < m || len(x)/k < m || len(live) < (m+3)/4 {
		panic("gemm: ScaleColsMark with best not a row, or x, s, y, r, mu or live short")
	}
	if m == 0 {
		return
	}
	if active == AVX512 {
		scaleColsMarkAVX512(&x[0], &s[0], &r[0], &mu[0], &live[0], best, k, m, c, f)
		return
	}
	MarkAboveRows(live, x, s, y, mu, best, k, m, c)
	ScaleColsRange(x, s, r, live, k, m, f)
}

// MarkAboveRows is the knowledge gradient's filter of a context's k × m
// block x: with y[j] = x[best][j]·s[j], it clears live (⌈m/4⌉ bytes) and
// calls MarkAbove(live, x[a], s, y, c, mu[best] − mu[a]) for every row
// a ≠ best, so that bit j%4 of live[j/4] is set where some row passes.
// x needs k·m values, s and y m, mu k and live ⌈m/4⌉ bytes, best < k.
func MarkAboveRows(live []uint8, x, s, y, mu []float64, best, k, m int, c float64) {
	xb := x[best*m : (best+1)*m]
	for j := range m {
		y[j] = xb[j] * s[j]
	}
	live = live[:(m+3)/4]
	clear(live)
	for a := range k {
		if a != best {
			MarkAbove(live, x[a*m:(a+1)*m], s, y, c, mu[best]-mu[a])
		}
	}
}
