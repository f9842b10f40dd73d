package gram

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/neural-adb/nadb/internal/mlp"
)

// Paper scale: d = 20, K = 10, width 50, depth 2 (p = 3,550).
var paperArch = mlp.Arch{In: 20, Width: 50, Depth: 2}

const paperArms = 10

// paperStream is a Stream after t rounds of the fresh-context protocol with one
// pair update per round (the committed context's rows in the update), over the
// gradient features at a mirrored θ0, and the kernel's θ0 network.
type paperStream struct {
	s      *Stream
	k      *mlp.StreamKernel
	net    *mlp.Net
	scale  float64
	rng    *rand.Rand
	commit *mlp.Features
}

func newPaperStream(b *testing.B, t int) *paperStream { return newPaperStreamT(b, t) }

func newPaperStreamT(b testing.TB, t int) *paperStream {
	rng := rand.New(rand.NewPCG(1, 1))
	net := mlp.NewNet(paperArch)
	if err := net.Initialize(mlp.InitMirrored, 1, rng); err != nil {
		b.Fatal(err)
	}
	scale := 1 / float64(paperArch.Width)
	committed := mlp.NewEmptyFeatures(paperArch, scale)
	committed.Append(net, uniformRows(rng, t*paperArms*paperArch.In))
	p := &paperStream{k: mlp.NewStreamKernel(committed, nil), net: net, scale: scale, rng: rng, commit: committed}
	p.s = NewStream(p.k, paperArms, 1)
	for c := range t {
		a := rng.IntN(paperArms)
		p.s.Add(c*paperArms+a, c*paperArms+(a+1+rng.IntN(paperArms-1))%paperArms)
	}
	return p
}

func uniformRows(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	return x
}

// fresh draws m new fresh contexts and starts a round with them.
func (p *paperStream) fresh(m int) []float64 {
	x := uniformRows(p.rng, m*paperArms*paperArch.In)
	p.k.SetFresh(p.net.NewFeatures(x, p.scale))
	p.s.SetFresh(m)
	return x
}

// cpuMS reports the processor time per iteration since start, in ms.
func cpuMS(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e6, "cpu-ms/op")
}

func heapMB() float64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc) / (1 << 20)
}

// BenchmarkStreamRound is the confidence work of one round at t = 1,000
// updates: every fresh block (all: SolveAll; each: asked for context by
// context, as the max-norm context rule does), and one context's block
// alone. retained-MB is the live heap of the whole state
// (committed features and gathered columns, L, r̃ of the fresh rows, blocks)
// after the round.
func BenchmarkStreamRound(b *testing.B) {
	const t = 1000
	before := heapMB()
	p := newPaperStream(b, t)
	for _, m := range []int{20, 300} {
		p.fresh(m)
		b.Run(fmt.Sprintf("t=%d/M=%d/all", t, m), func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				p.s.SetFresh(m)
				p.s.SolveAll()
			}
			cpuMS(b, start)
			b.ReportMetric(heapMB()-before, "retained-MB")
		})
		b.Run(fmt.Sprintf("t=%d/M=%d/each", t, m), func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				p.s.SetFresh(m)
				for c := range m {
					p.s.MaxPair(c)
				}
			}
			cpuMS(b, start)
		})
		b.Run(fmt.Sprintf("t=%d/M=%d/one", t, m), func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				p.s.SetFresh(m)
				p.s.Block(m / 2)
			}
			cpuMS(b, start)
		})
	}
	runtime.KeepAlive(p)
}

// BenchmarkStreamParts splits a round of M = 20 fresh contexts at t = 1,000
// into the kernel entries against the committed rows (CrossTo) and the
// forward substitution.
func BenchmarkStreamParts(b *testing.B) {
	const t, m = 1000, 20
	p := newPaperStream(b, t)
	p.fresh(m)
	rows, nr := m*paperArms, len(p.s.refs)
	kx := make([]float64, rows*nr)
	b.Run("cross", func(b *testing.B) {
		start := cpuTime()
		for b.Loop() {
			p.k.CrossTo(kx, 0, rows, p.s.refs)
		}
		cpuMS(b, start)
	})
	w := make([]float64, t*rows)
	b.Run("solve", func(b *testing.B) {
		start := cpuTime()
		for b.Loop() {
			for x := range rows {
				for s, u := range p.s.ups {
					w[s*rows+x] = u.psiOf(kx[x*nr : (x+1)*nr])
				}
			}
			forwardCols(w, t, rows, p.s.l, p.s.ld)
		}
		cpuMS(b, start)
	})
}

// BenchmarkStreamAdd is one update at t = 1,000 naming two new committed
// rows (the update is dropped again after each iteration, so every one is at
// t = 1,000), and a Refresh at t = 1,000.
func BenchmarkStreamAdd(b *testing.B) {
	const t = 1000
	p := newPaperStream(b, t)
	p.commit.Append(p.net, uniformRows(p.rng, paperArms*paperArch.In)) // the rows of the update
	b.Run("add", func(b *testing.B) {
		b.ReportAllocs()
		start := cpuTime()
		for b.Loop() {
			p.s.Add(t*paperArms, t*paperArms+1)
			p.s.ups = p.s.ups[:t]
		}
		cpuMS(b, start)
	})
	q := newPaperStream(b, t)
	b.Run("refresh", func(b *testing.B) {
		b.ReportAllocs()
		start := cpuTime()
		for b.Loop() {
			if err := q.s.Refresh(); err != nil {
				b.Fatal(err)
			}
		}
		cpuMS(b, start)
	})
}

// BenchmarkStreamRun plays T rounds of the protocol with M fresh contexts at
// paper scale: draw the fresh contexts (their θ0 features), solve every
// block, choose the context of largest pair norm (eq. 3), commit it, and add
// its max-norm pair. The fresh features are part of the timing.
func BenchmarkStreamRun(b *testing.B) {
	for _, tc := range []struct{ T, M int }{{1000, 20}} {
		b.Run(fmt.Sprintf("T=%d/M=%d", tc.T, tc.M), func(b *testing.B) {
			start := cpuTime()
			for b.Loop() {
				p := newPaperStream(b, 0)
				for range tc.T {
					x := p.fresh(tc.M)
					p.s.SolveAll()
					best, ba, bb, bv := 0, 0, 0, -1.0
					for c := range tc.M {
						if a, b, v := p.s.MaxPair(c); v > bv {
							best, ba, bb, bv = c, a, b, v
						}
					}
					n := p.k.Committed()
					p.commit.Append(p.net, x[best*paperArms*paperArch.In:(best+1)*paperArms*paperArch.In])
					p.s.Add(n+ba, n+bb)
				}
			}
			cpuMS(b, start)
		})
	}
}
