// Package xmath holds the functions of package math whose bits depend on
// the processor, computed with the same bits on every processor.
//
// On amd64, math.Exp runs assembly with two paths: one with fused
// multiply–adds, taken where the processor has AVX and FMA (every amd64
// processor since about 2013, and the project's machines), and one without,
// taken elsewhere (older processors, some Atom-class parts, virtual machines
// that hide the features, GODEBUG=cpu.fma=off). The two differ in the last
// bits of some results, and so does everything computed through math.Exp:
// math.Erfc, and math.Pow with an exponent that is not an integer. A run of
// a learner or a simulator that called them would therefore give other
// bytes on such a processor.
//
// Exp, Erfc and Pow here give the bits math's functions give on the fused
// path, on every processor: Exp performs that path's operations in order
// (math.FMA is one rounding everywhere, an instruction where the processor
// has one and exact software elsewhere), and Erfc and Pow are math's
// algorithms with Exp in place of math.Exp. Every operation that is not a
// fused multiply–add is rounded on its own, so that a compiler that fuses
// a·b + c (GOAMD64=v3, arm64) does not change them either.
//
// The tests check every function against package math where math takes the
// fused path, and against recorded bits (testdata/golden.txt, rewritten by
// go test -update on such a processor) everywhere, so that
//
//	GODEBUG=cpu.fma=off go test ./internal/xmath
//
// checks them on the other path. Code whose results reach a run's output
// calls these functions instead of math's.
package xmath
