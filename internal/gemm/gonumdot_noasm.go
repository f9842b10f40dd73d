//go:build !amd64 || noasm || gccgo || safe

package gemm

// gonumDotAsm reports whether floats.Dot is gonum's amd64 assembly: not in
// this build, where DotUpper calls floats.Dot.
const gonumDotAsm = false
