package mlp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/gemm"
)

// crossReference is K(row i of f, row j of g) with every inner product one
// math.FMA chain in increasing index (over the first half of the hidden
// signals, doubled, when both sets have mirrored halves) and the layer terms
// combined as documented for StreamKernel.rowsTo: the bits that rowsTo must
// give.
func crossReference(f *Features, i int, g *Features, j int) float64 {
	a := f.Arch
	halves := f.halves && g.halves
	dot := func(m int) float64 {
		x, w := f.signal(m)
		y, _ := g.signal(m)
		n, two := w, 1.0
		if halves && m > 0 {
			n, two = w/2, 2
		}
		var s float64
		for p := range n {
			s = math.FMA(x[i*w+p], y[j*w+p], s)
		}
		return two * s
	}
	bias := 0.0
	if a.Bias {
		bias = 1
	}
	s := dot(2*a.Depth) + bias
	for l := range a.Depth {
		s += dot(2*l+1) * (dot(2*l) + bias)
	}
	return s * f.Scale
}

// TestMirroredHalves checks that the signals of a network at a mirrored θ0
// are recognised as mirrored (so the kernel takes the half products) and
// those of other initialisations or of a trained network are not.
func TestMirroredHalves(t *testing.T) {
	for _, tc := range growArchs {
		g := newGrowCase(t, tc.a, tc.init, 20, 7)
		want := tc.init == InitMirrored
		if g.committed.halves != want || g.fresh.halves != want {
			t.Errorf("%+v/%s: halves = %v (appended), %v (fresh), want %v", tc.a, tc.init, g.committed.halves, g.fresh.halves, want)
		}
	}
	a := Arch{In: 4, Width: 8, Depth: 2}
	net := NewNet(a)
	rng := rand.New(rand.NewPCG(1, 2))
	if err := net.Initialize(InitMirrored, 1, rng); err != nil {
		t.Fatal(err)
	}
	x := randRows(rng, 6, a.In)
	theta := append([]float64(nil), net.Theta...)
	theta[a.In*a.Width-1] += 0.5 // one weight of the second half of W_1
	moved := net.Clone()
	moved.SetTheta(theta)
	f := NewEmptyFeatures(a, 1)
	f.Append(net, x)
	if !f.halves {
		t.Fatal("features at the mirrored θ0 not recognised")
	}
	f.Append(moved, x)
	if f.halves {
		t.Fatal("rows of a network off its mirrored θ0 appended, features still marked mirrored")
	}
}

// TestStreamKernelBits requires CrossTo, CrossRowsTo, CrossRangeTo and CommittedTo to give exactly the
// bits of crossReference on every gemm path, for blocks of rows and columns
// larger than one tile (so an entry must not depend on the tiling, on the
// other rows of a call or on the gathered columns after it).
func TestStreamKernelBits(t *testing.T) {
	for _, tc := range growArchs {
		t.Run(fmt.Sprintf("%+v/%s", tc.a, tc.init), func(t *testing.T) {
			const nc, nf = 600, 150 // more than crossBlock columns and crossRows rows
			g := newGrowCase(t, tc.a, tc.init, nc, nf)
			rng := rand.New(rand.NewPCG(9, 9))
			cols := rng.Perm(nc)[:2*crossBlock+37]
			rows := rng.Perm(nc)[:crossRows+5]
			for _, p := range gemm.Available() {
				prev := gemm.Use(p)
				k := NewStreamKernel(g.committed, g.fresh)
				cross := make([]float64, nf*len(cols))
				k.CrossTo(cross, 0, nf, cols)
				part := make([]float64, 3*len(cols)) // rows 7, 8, 9 alone, against a prefix of cols
				k.CrossTo(part[:3*200], 7, 10, cols[:200])
				com := make([]float64, len(rows)*len(cols))
				k.CommittedTo(com, rows, cols)
				some := []int{140, 3, 77, 78} // fresh rows in any order, against cols[100:361]
				sub := make([]float64, len(some)*261)
				k.CrossRowsTo(sub, some, cols, 100, 361)
				run := make([]float64, 60*261) // fresh rows 90, …, 149 in place
				k.CrossRangeTo(run, 90, 150, cols, 100, 361)
				gemm.Use(prev)
				for a := range 60 {
					for b := range 261 {
						if got, want := run[a*261+b], crossReference(g.fresh, 90+a, g.committed, cols[100+b]); math.Float64bits(got) != math.Float64bits(want) {
							t.Fatalf("%v: CrossRangeTo K(fresh %d, %d) = %v, want %v", p, 90+a, cols[100+b], got, want)
						}
					}
				}
				for a, x := range some {
					for b := range 261 {
						if got, want := sub[a*261+b], crossReference(g.fresh, x, g.committed, cols[100+b]); math.Float64bits(got) != math.Float64bits(want) {
							t.Fatalf("%v: CrossRowsTo K(fresh %d, %d) = %v, want %v", p, x, cols[100+b], got, want)
						}
					}
				}
				for a := range nf {
					for b, c := range cols {
						if got, want := cross[a*len(cols)+b], crossReference(g.fresh, a, g.committed, c); math.Float64bits(got) != math.Float64bits(want) {
							t.Fatalf("%v: CrossTo K(fresh %d, %d) = %v, want %v", p, a, c, got, want)
						}
					}
				}
				for a := range 3 {
					for b := range 200 {
						if got, want := part[a*200+b], cross[(7+a)*len(cols)+b]; math.Float64bits(got) != math.Float64bits(want) {
							t.Fatalf("%v: CrossTo of 3 rows and 200 columns: K(fresh %d, %d) = %v, the whole block gives %v", p, 7+a, cols[b], got, want)
						}
					}
				}
				for a, r := range rows {
					for b, c := range cols {
						if got, want := com[a*len(cols)+b], crossReference(g.committed, r, g.committed, c); math.Float64bits(got) != math.Float64bits(want) {
							t.Fatalf("%v: CommittedTo K(%d, %d) = %v, want %v", p, r, c, got, want)
						}
					}
				}
			}
		})
	}
}

// TestFreshFeatures requires FreshFeatures to give NewFeatures' signals,
// bit for bit, whether it reuses features of more rows, of fewer rows (the
// storage grows) or of no rows, and for mirrored and other θ0.
func TestFreshFeatures(t *testing.T) {
	for _, tc := range growArchs {
		t.Run(fmt.Sprintf("%+v/%s", tc.a, tc.init), func(t *testing.T) {
			net := NewNet(tc.a)
			if err := net.Initialize(tc.init, 1, rand.New(rand.NewPCG(3, 4))); err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(5, 6))
			input := func(rows int) []float64 {
				x := make([]float64, rows*tc.a.In)
				for i := range x {
					x[i] = 2*rng.Float64() - 1
				}
				return x
			}
			f := NewEmptyFeatures(tc.a, 0.5)
			for _, rows := range []int{7, 30, 4, 130, 1} {
				x := input(rows)
				f = net.FreshFeatures(f, x, 0.5)
				want := net.NewFeatures(x, 0.5)
				if f.rows != want.rows || f.halves != want.halves || f.Scale != want.Scale {
					t.Fatalf("%d rows: rows %d, halves %v, scale %v; NewFeatures gives %d, %v, %v", rows, f.rows, f.halves, f.Scale, want.rows, want.halves, want.Scale)
				}
				for m := range 2*tc.a.Depth + 1 {
					got, _ := f.signal(m)
					ref, _ := want.signal(m)
					if len(got) != len(ref) {
						t.Fatalf("%d rows: signal %d has %d values, want %d", rows, m, len(got), len(ref))
					}
					for i := range got {
						if math.Float64bits(got[i]) != math.Float64bits(ref[i]) {
							t.Fatalf("%d rows: signal %d value %d = %v, NewFeatures gives %v", rows, m, i, got[i], ref[i])
						}
					}
				}
			}
		})
	}
}
