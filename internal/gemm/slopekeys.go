package gemm

import "math"

// SlopeKeys prepares the lines mu[a] + b[a]·z, a < len(b) ≤ 16, for a sort
// by slope: it sets keys[a] to b[a]'s order as an int64 (the bits of b[a]
// for b[a] ≥ +0, for b[a] < 0 the bits with all but the sign flipped) with
// its low 4 bits replaced by a, for the arms whose line passes the test
//
//	mu[best] − mu[a] < 8·|b[a] − b[best]|   or   a = best
//
// (each operation rounded on its own), and keys[a] = MaxInt64, above every
// other key, for the others and for a ≥ len(b). It returns the number of
// arms that pass. It panics if len(b) > 16, mu is shorter than b or best
// is not an arm.
func SlopeKeys(keys *[16]int64, mu, b []float64, best int) int {
	n := len(b)
	if n > 16 || len(mu) < n || best < 0 || best >= n {
		panic("gemm: SlopeKeys with more than 16 arms, short mu or best not an arm")
	}
	if active == AVX512 {
		return slopeKeysAVX512(keys, &mu[0], &b[0], n, best)
	}
	return slopeKeysGo(keys, mu[:n], b, best)
}

// slopeKeysGo is SlopeKeys' pure-Go path.
func slopeKeysGo(keys *[16]int64, mu, b []float64, best int) int {
	for a := len(b); a < len(keys); a++ {
		keys[a] = math.MaxInt64
	}
	mb, bb := mu[best], b[best]
	n := 0
	for a, ba := range b {
		pass := 0
		if mb-mu[a] < 8*math.Abs(ba-bb) || a == best {
			pass = 1
		}
		u := int64(math.Float64bits(ba))
		k := (u^int64(uint64(u>>63)>>1))&^15 | int64(a)
		drop := int64(pass) - 1 // 0 if the line passes, −1 if not
		keys[a&15] = k&^drop | math.MaxInt64&drop
		n += pass
	}
	return n
}
