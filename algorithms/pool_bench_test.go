package algorithms

import (
	"math/rand/v2"
	"testing"
)

// benchPool32 returns a float32 pool of 1,024 contexts × 8 arms × 1,024
// features (32 MB), the shape of the embedding pools scaled down.
func benchPool32(b *testing.B) *Pool {
	const C, K, d = 1024, 8, 1024
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float32, C*K*d)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	p, err := NewPoolFloat32(C, K, d, x)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkPoolBlocks: converting a float32 pool to float64 block by block
// (what every whole-pool pass over a mapped pool pays); MB/s of float32
// storage read.
func BenchmarkPoolBlocks(b *testing.B) {
	p := benchPool32(b)
	b.SetBytes(int64(p.Rows() * p.Dim * 4))
	var buf []float64
	for b.Loop() {
		for _, x := range p.Blocks(0, p.Rows(), &buf) {
			_ = x
		}
	}
}

// BenchmarkPoolValidate: the finiteness check of every value (NewPool,
// algorithms.New).
func BenchmarkPoolValidate(b *testing.B) {
	p := benchPool32(b)
	b.SetBytes(int64(p.Rows() * p.Dim * 4))
	for b.Loop() {
		if err := p.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}
