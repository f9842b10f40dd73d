package gemm

import (
	"fmt"
	"math"
)

// Adam holds the scalars of one step of the Adam optimiser (Kingma & Ba):
// the decay rates β1 and β2, their complements 1−β1 and 1−β2 (given, not
// computed, so that a caller can pass the exact constants it means), the
// bias corrections 1−β1^t and 1−β2^t of step t, the learning rate and ε.
type Adam struct {
	B1, OneMinusB1, B2, OneMinusB2 float64
	Correction1, Correction2       float64
	LearningRate, Eps              float64
}

// AdamStep applies one Adam step to every parameter θ_i with gradient g_i and
// moment estimates m_i and v_i (all four slices of one length), each
// operation correctly rounded and in this order:
//
//	m ← β1·m + (1−β1)·g
//	v ← β2·v + ((1−β2)·g)·g
//	θ ← θ − (lr·(m/(1−β1^t))) / (√(v/(1−β2^t)) + ε)
//
// Multiplication, addition, division and square root are correctly rounded
// in IEEE 754 arithmetic, so every path gives the same bits. It panics if the
// lengths differ.
func AdamStep(theta, m, v, g []float64, p Adam) {
	if len(m) != len(theta) || len(v) != len(theta) || len(g) != len(theta) {
		panic(fmt.Sprintf("gemm: AdamStep with lengths θ %d, m %d, v %d, g %d", len(theta), len(m), len(v), len(g)))
	}
	c := [8]float64{p.B1, p.OneMinusB1, p.B2, p.OneMinusB2, p.Correction1, p.Correction2, p.LearningRate, p.Eps}
	switch active {
	case AVX2, AVX512:
		k := adamAsm(active, theta, m, v, g, &c)
		theta, m, v, g = theta[k:], m[k:], v[k:], g[k:]
	}
	adamGo(theta, m, v, g, &c)
}

// AdamStepScale is AdamStep followed by g_i ← θ_i·s with the new θ (one
// rounded product each, the bits of ScaleTo(g, θ, s)), in the same pass over
// the parameters: the next step's gradient of the penalty λ‖θ‖² with
// s = 2λ. It panics if the lengths differ.
func AdamStepScale(theta, m, v, g []float64, p Adam, s float64) {
	if len(m) != len(theta) || len(v) != len(theta) || len(g) != len(theta) {
		panic(fmt.Sprintf("gemm: AdamStepScale with lengths θ %d, m %d, v %d, g %d", len(theta), len(m), len(v), len(g)))
	}
	c := [9]float64{p.B1, p.OneMinusB1, p.B2, p.OneMinusB2, p.Correction1, p.Correction2, p.LearningRate, p.Eps, s}
	switch active {
	case AVX2, AVX512:
		k := adamScaleAsm(active, theta, m, v, g, &c)
		theta, m, v, g = theta[k:], m[k:], v[k:], g[k:]
	}
	adamGo(theta, m, v, g, (*[8]float64)(c[:8]))
	for i, t := range theta {
		g[i] = t * s
	}
}

// adamGo is the portable twin of the Adam kernels. The explicit conversions
// forbid the compiler to fuse a product with the following addition (Go
// allows that fusion on arm64, ppc64le, s390x and riscv64).
func adamGo(theta, m, v, g []float64, c *[8]float64) {
	b1, omb1, b2, omb2, c1, c2, lr, eps := c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]
	for i, gi := range g {
		mi := float64(b1*m[i]) + float64(omb1*gi)
		vi := float64(b2*v[i]) + float64(float64(omb2*gi)*gi)
		m[i], v[i] = mi, vi
		theta[i] -= float64(lr*(mi/c1)) / (math.Sqrt(vi/c2) + eps)
	}
}
