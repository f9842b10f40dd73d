//go:build amd64 && !amd64.v3

package xmath

// mathUnfused reports whether package math's Go code was compiled without
// fused multiply–adds (amd64 below GOAMD64=v3), so that math.Erfc and
// math.Pow are math.Exp's callers and nothing else differs.
const mathUnfused = true
