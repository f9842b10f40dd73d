//go:build amd64 && !noasm && !gccgo && !safe

package gemm

// gonumDotAsm reports whether floats.Dot is gonum's amd64 assembly (the
// build constraints of gonum's internal/asm/f64 stubs_amd64.go), whose
// order of operations DotUpper's kernel reproduces.
const gonumDotAsm = true
