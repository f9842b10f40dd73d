package gemm

import "math"

// ScaleColsRange multiplies column j of the k × m row-major matrix x by
// s[j], in place, and sets r[j] to (hi − lo)·f, hi and lo the largest and
// smallest value of the scaled column in the order of the int64 keys
// key(v) = bits(v) XOR (sign(v)·MaxInt64): the order of floats with −0
// below +0, NaNs with the sign bit clear above +∞ and set below −∞ (a NaN
// makes r[j] NaN). This is done for the columns j with bit j%4 of
// live[j/4] set (MarkAbove's mask); the other columns of x and entries of
// r are left unspecified (the AVX-512 path does every column). Every
// operation is rounded on its own; the live columns get the same bits on
// every path. It panics if k < 1 or x holds fewer than k·m values, s or r
// fewer than m, or live fewer than ⌈m/4⌉ bytes.
func ScaleColsRange(x, s, r []float64, live []uint8, k, m int, f float64) {
	if k < 1 || m < 0 || len(s) < m || len(r) < m || len(x)/k < m || len(live) < (m+3)/4 {
		panic("gemm: ScaleColsRange with k < 1 or x, s, r or live short")
	}
	if m == 0 {
		return
	}
	if active == AVX512 {
		scaleColsRangeAVX512(&x[0], &s[0], &r[0], k, m, f)
		return
	}
	x, s, r = x[:k*m], s[:m], r[:m]
	for j := range m {
		if live[j/4]>>(j%4)&1 == 0 {
			continue
		}
		sj := s[j]
		lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
		for a := j; a < len(x); a += m {
			v := x[a] * sj
			x[a] = v
			o := rangeKey(v)
			lo, hi = min(lo, o), max(hi, o)
		}
		r[j] = float64(rangeKey2F(hi)-rangeKey2F(lo)) * f
	}
}

// rangeKey is ScaleColsRange's key of v.
func rangeKey(v float64) int64 {
	u := int64(math.Float64bits(v))
	return u ^ (u>>63)&math.MaxInt64
}

// rangeKey2F is the value of a rangeKey.
func rangeKey2F(u int64) float64 {
	return math.Float64frombits(uint64(u ^ (u>>63)&math.MaxInt64))
}
