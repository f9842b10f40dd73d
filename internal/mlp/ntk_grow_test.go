package mlp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// growCase is a network at θ0 with a committed set grown by Append in three
// chunks, a fresh set, and the features of all rows in one set (the
// reference, whose Entry is the closed form of package documentation).
type growCase struct {
	net        *Net
	committed  *Features
	fresh      *Features
	all        *Features // committed rows, then fresh rows
	nCommitted int
}

func newGrowCase(t *testing.T, a Arch, init Init, nc, nf int) growCase {
	t.Helper()
	rng := rand.New(rand.NewPCG(21, 3))
	net := NewNet(a)
	if err := net.Initialize(init, 1, rng); err != nil {
		t.Fatal(err)
	}
	xc := randRows(rng, nc, a.In)
	xf := randRows(rng, nf, a.In)
	scale := 1 / float64(a.Width)
	c := NewEmptyFeatures(a, scale)
	for _, cut := range [][2]int{{0, nc / 3}, {nc / 3, nc / 3}, {nc / 3, nc}} { // one empty chunk
		c.Append(net.Clone(), xc[cut[0]*a.In:cut[1]*a.In])
	}
	return growCase{
		net: net, committed: c, fresh: net.NewFeatures(xf, scale),
		all: net.NewFeatures(append(append([]float64(nil), xc...), xf...), scale), nCommitted: nc,
	}
}

func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(math.Abs(want), 1e-300)
}

var growArchs = []struct {
	a    Arch
	init Init
}{
	{Arch{In: 4, Width: 8, Depth: 2}, InitMirrored},
	{Arch{In: 5, Width: 7, Depth: 3, Bias: true}, InitHe},
	{Arch{In: 3, Width: 6, Depth: 1}, InitUniform},
}

// TestAppendAndCrossEntry checks that rows appended in chunks and cross
// entries between two feature sets give the closed-form kernel of the rows
// computed as one set.
func TestAppendAndCrossEntry(t *testing.T) {
	for _, tc := range growArchs {
		t.Run(fmt.Sprintf("%+v/%s", tc.a, tc.init), func(t *testing.T) {
			const nc, nf = 23, 9
			g := newGrowCase(t, tc.a, tc.init, nc, nf)
			if g.committed.Rows() != nc {
				t.Fatalf("Rows() = %d after appending %d rows", g.committed.Rows(), nc)
			}
			for i := range nc {
				for j := range nc {
					if got, want := g.committed.Entry(i, j), g.all.Entry(i, j); !near(got, want, 1e-13) {
						t.Fatalf("appended Entry(%d, %d) = %g, want %g", i, j, got, want)
					}
				}
				for j := range nf {
					want := g.all.Entry(i, nc+j)
					if got := g.committed.CrossEntry(i, g.fresh, j); !near(got, want, 1e-13) {
						t.Fatalf("CrossEntry(%d, fresh %d) = %g, want %g", i, j, got, want)
					}
					if got := g.fresh.CrossEntry(j, g.committed, i); !near(got, want, 1e-13) {
						t.Fatalf("CrossEntry(fresh %d, %d) = %g, want %g", j, i, got, want)
					}
				}
			}
		})
	}
}

// TestStreamKernelEntries checks every method of StreamKernel against the
// closed form, with column lists that grow (the gathered columns are kept),
// shrink to a prefix, and change (they are rebuilt).
func TestStreamKernelEntries(t *testing.T) {
	for _, tc := range growArchs {
		t.Run(fmt.Sprintf("%+v/%s", tc.a, tc.init), func(t *testing.T) {
			const nc, nf = 300, 12 // more columns than one gathered block
			g := newGrowCase(t, tc.a, tc.init, nc, nf)
			k := NewStreamKernel(g.committed, nil)
			if k.Fresh() != 0 {
				t.Fatalf("Fresh() = %d before SetFresh", k.Fresh())
			}
			k.SetFresh(g.fresh)
			if k.Committed() != nc || k.Fresh() != nf {
				t.Fatalf("counts %d, %d; want %d, %d", k.Committed(), k.Fresh(), nc, nf)
			}
			rng := rand.New(rand.NewPCG(5, 5))
			perm := rng.Perm(nc)
			rows := []int{3, 0, 299, 3, 150}
			for _, cols := range [][]int{perm[:10], perm[:280], perm[:5], perm[:290], rng.Perm(nc)[:270]} {
				dst := make([]float64, len(rows)*len(cols))
				k.CommittedTo(dst, rows, cols)
				for a, r := range rows {
					for b, c := range cols {
						if want := g.all.Entry(r, c); !near(dst[a*len(cols)+b], want, 1e-12) {
							t.Fatalf("CommittedTo: K(%d, %d) = %g, want %g", r, c, dst[a*len(cols)+b], want)
						}
					}
				}
				const x0, x1 = 2, 11
				dst = make([]float64, (x1-x0)*len(cols))
				k.CrossTo(dst, x0, x1, cols)
				for a := range x1 - x0 {
					for b, c := range cols {
						if want := g.all.Entry(nc+x0+a, c); !near(dst[a*len(cols)+b], want, 1e-12) {
							t.Fatalf("CrossTo: K(fresh %d, %d) = %g, want %g", x0+a, c, dst[a*len(cols)+b], want)
						}
					}
				}
			}
			const x0, x1 = 3, 8
			dst := make([]float64, (x1-x0)*(x1-x0))
			k.FreshTo(dst, x0, x1)
			for a := range x1 - x0 {
				for b := range x1 - x0 {
					if want := g.all.Entry(nc+x0+a, nc+x0+b); !near(dst[a*(x1-x0)+b], want, 1e-13) {
						t.Fatalf("FreshTo: K(%d, %d) = %g, want %g", x0+a, x0+b, dst[a*(x1-x0)+b], want)
					}
				}
			}
		})
	}
}

func TestGrowPanics(t *testing.T) {
	a := Arch{In: 3, Width: 4, Depth: 2}
	net := NewNet(a)
	f := NewEmptyFeatures(a, 0.25)
	other := NewNet(Arch{In: 3, Width: 5, Depth: 2})
	for name, fn := range map[string]func(){
		"append other network": func() { f.Append(other, make([]float64, 3)) },
		"append partial row":   func() { f.Append(net, make([]float64, 4)) },
		"fresh of other scale": func() { NewStreamKernel(f, net.NewFeatures(make([]float64, 3), 0.5)) },
		"fresh of other arch":  func() { NewStreamKernel(f, other.NewFeatures(make([]float64, 3), 0.25)) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			fn()
		})
	}
}

// TestFreshToBits checks that FreshTo writes CrossEntry's bits for blocks of
// every size and offset, with and without bias, at paper scale among others.
func TestFreshToBits(t *testing.T) {
	archs := append(growArchs[:len(growArchs):len(growArchs)], []struct {
		a    Arch
		init Init
	}{
		{Arch{In: 20, Width: 50, Depth: 2}, InitMirrored},
		{Arch{In: 9, Width: 13, Depth: 2, Bias: true}, InitHe},
	}...)
	for _, tc := range archs {
		t.Run(fmt.Sprintf("%+v/%s", tc.a, tc.init), func(t *testing.T) {
			const nf = 12
			g := newGrowCase(t, tc.a, tc.init, 3, nf)
			k := NewStreamKernel(g.committed, g.fresh)
			for x0 := range 3 {
				for x1 := x0; x1 <= nf; x1++ {
					n := x1 - x0
					dst := make([]float64, n*n)
					k.FreshTo(dst, x0, x1)
					for a := range n {
						for b := range n {
							want := g.fresh.CrossEntry(x0+a, g.fresh, x0+b)
							if got := dst[a*n+b]; math.Float64bits(got) != math.Float64bits(want) {
								t.Fatalf("FreshTo(%d, %d): K(%d, %d) = %v, CrossEntry %v", x0, x1, x0+a, x0+b, got, want)
							}
						}
					}
				}
			}
		})
	}
}

// TestSameInts requires slices.Equal's answer from sameInts for lists of
// 0 … 40 ints, equal and differing at each position by one bit of any byte
// (a negative number too).
func TestSameInts(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for n := 0; n <= 40; n++ {
		a := make([]int, n)
		for i := range a {
			a[i] = rng.IntN(1 << 40)
			if rng.IntN(5) == 0 {
				a[i] = -a[i]
			}
		}
		b := slices.Clone(a)
		if !sameInts(a, b) {
			t.Fatalf("n=%d: equal lists reported different", n)
		}
		for i := range n {
			bit := rng.IntN(64)
			b[i] ^= 1 << bit
			if got, want := sameInts(a, b), slices.Equal(a, b); got != want {
				t.Fatalf("n=%d, position %d, bit %d: sameInts %v, slices.Equal %v", n, i, bit, got, want)
			}
			b[i] = a[i]
		}
	}
}
