package xmath

import "math"

// The constants of math.Exp's amd64 assembly (math/exp_amd64.s): the
// reduction x − n·ln 2 in two parts, the argument bound above which it
// returns +Inf, and the Taylor coefficients 1/k! of its polynomial in
// x/16, from 1/8! down to 1/2! and 1/1!.
const (
	log2e    = 1.4426950408889634073599246810018920
	ln2Hi    = 0.69314718055966295651160180568695068359375
	ln2Lo    = 0.28235290563031577122588448175013436025525412068e-12
	overflow = 7.09782712893384e+02
)

var expTaylor = [...]float64{
	2.4801587301587301587e-5, // 1/8!
	1.9841269841269841270e-4,
	1.3888888888888888889e-3,
	8.3333333333333333333e-3,
	4.1666666666666666667e-2,
	1.6666666666666666667e-1,
	0.5,
	1.0, // 1/1!
}

// Exp returns e^x with the bits math.Exp has on an amd64 processor with
// AVX and FMA: the operations of its fused path in their order, each fused
// multiply–add by math.FMA (one rounding on every processor) and every
// other operation rounded on its own.
//
// The method (N. Shibata, "Efficient evaluation methods of elementary
// functions suitable for SIMD computation", ISC 2010): n = round(x·log₂e)
// to even, r = (x − n·ln 2)/16, e^r − 1 by its Taylor polynomial, squared
// back four times as u ← u·(u + 2), the last with + 1 fused, then scaled by
// 2ⁿ (in two steps where the result is subnormal).
func Exp(x float64) float64 {
	bits := math.Float64bits(x)
	switch {
	case bits&^(1<<63) >= 0x7ff0000000000000: // ±Inf or NaN
		if bits == 0xfff0000000000000 {
			return 0
		}
		return x
	case x > overflow:
		return math.Inf(1)
	}
	// The assembly converts x·log₂e to a 32-bit integer, to nearest even;
	// below the range that gives −2³¹ (and the result 0). Adding and
	// subtracting 1.5·2⁵² rounds to nearest even for |v| ≤ 2⁵¹.
	const round = 0x1.8p52
	v := float64(log2e * x)
	n := int32(math.MinInt32)
	if v >= -0x1p31 {
		n = int32(float64(v+round) - round)
	}
	fn := float64(n)
	u := math.FMA(-fn, ln2Hi, x)
	u = math.FMA(-fn, ln2Lo, u)
	u = float64(u * 0.0625)
	t := &expTaylor
	p := math.FMA(t[0], u, t[1])
	p = math.FMA(p, u, t[2])
	p = math.FMA(p, u, t[3])
	p = math.FMA(p, u, t[4])
	p = math.FMA(p, u, t[5])
	p = math.FMA(p, u, t[6])
	p = math.FMA(p, u, t[7])
	u = float64(u * p)
	for range 3 {
		u = float64(u * float64(u+2))
	}
	u = math.FMA(u, float64(u+2), 1)
	// u·2ⁿ, by the exponent field; a subnormal result takes two steps.
	e := n + 0x3ff
	switch {
	case e <= 0:
		if e < -52 {
			return 0
		}
		u = float64(u * math.Float64frombits(uint64(e+0x3fe)<<52))
		e = 1
	case e >= 0x7ff:
		return math.Inf(1)
	}
	return u * math.Float64frombits(uint64(e)<<52)
}
