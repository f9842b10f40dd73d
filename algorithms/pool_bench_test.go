package algorithms

import (
	"math/rand/v2"
	"runtime"
	"testing"
)

// benchPool32 returns a float32 pool of 1,024 contexts × 8 arms × 1,024
// features (32 MB), the shape of the README's 100,000-prompt embedding pool scaled down.
func benchPool32(b *testing.B) *Pool {
	return randomPool32(b, 1024, 8, 1024, rand.New(rand.NewPCG(1, 1)))
}

// randomPool32 returns a float32 pool of C contexts × K arms × d standard
// normal features drawn from rng.
func randomPool32(b *testing.B, C, K, d int, rng *rand.Rand) *Pool {
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

// BenchmarkPoolValidate: the finiteness check of every value
// (NewPoolFloat32; Validate of a checked pool does not read the values
// again), and with the column maxima found in the same pass
// (PoolOptions.ColumnMax: what opening a pool directory does).
func BenchmarkPoolValidate(b *testing.B) {
	p := benchPool32(b)
	x := p.f32
	for _, scan := range []bool{false, true} {
		name := "finite"
		if scan {
			name = "finite+column-max"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(x) * 4))
			for b.Loop() {
				var o PoolOptions
				if scan {
					o.ColumnMax = make([]float64, p.Dim)
				}
				if _, err := NewPoolFloat32With(p.Contexts, p.Arms, p.Dim, x, o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTargetReplay: neural-adb-target replaying 2,000 recorded
// answers (what nadb suggest does before its first query) on a float32
// pool of 1,024 contexts × 8 arms × 256 features. live-MB is the heap the
// replayed learner holds (after a collection): its training rows and duel
// differences, 8 bytes a value for dense rows.
func BenchmarkTargetReplay(b *testing.B) {
	const C, K, d, answers = 1024, 8, 256, 2000
	rng := rand.New(rand.NewPCG(2, 2))
	p := randomPool32(b, C, K, d, rng)
	qs := make([]Query, answers)
	for i := range qs {
		a := rng.IntN(K)
		qs[i] = Query{Context: rng.IntN(C), Arm1: a, Arm2: (a + 1 + rng.IntN(K-1)) % K}
	}
	var live float64
	for b.Loop() {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		before := ms.HeapAlloc
		l, err := New("neural-adb-target", Env{Pool: p, Config: Default(), Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		BeginReplay(l)
		for i, q := range qs {
			l.Observe(q, Feedback(i%2))
		}
		EndReplay(l)
		runtime.GC()
		runtime.ReadMemStats(&ms)
		live = float64(ms.HeapAlloc-before) / 1e6
		runtime.KeepAlive(l)
	}
	b.ReportMetric(live, "live-MB")
}
