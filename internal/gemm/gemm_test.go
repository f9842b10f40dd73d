package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// The reference of every operation: one math.FMA chain per output, over the
// inner index in increasing order, starting from +0 or from the destination.

func refMul(c, a, b []float64, m, k, n int) {
	for i := range m {
		for j := range n {
			s := 0.0
			for t := range k {
				s = math.FMA(a[i*k+t], b[t*n+j], s)
			}
			c[i*n+j] = s
		}
	}
}

func refMulTrans(c, a, b []float64, m, k, n int) {
	for i := range m {
		for j := range n {
			s := 0.0
			for t := range k {
				s = math.FMA(a[i*k+t], b[j*k+t], s)
			}
			c[i*n+j] = s
		}
	}
}

func refAddTransMul(c, a, b []float64, m, k, n int) {
	for i := range m {
		for j := range n {
			s := c[i*n+j]
			for t := range k {
				s = math.FMA(a[t*m+i], b[t*n+j], s)
			}
			c[i*n+j] = s
		}
	}
}

func refMulVec(y, a, x []float64, m, k int) {
	for i := range m {
		s := 0.0
		for t := range k {
			s = math.FMA(a[i*k+t], x[t], s)
		}
		y[i] = s
	}
}

func refAddTransMulVec(y, a, x []float64, m, k int) {
	for j := range k {
		s := y[j]
		for t := range m {
			s = math.FMA(a[t*k+j], x[t], s)
		}
		y[j] = s
	}
}

// op is one operation in a common form: dst (ndst elements), operands of
// na and nb elements.
type op struct {
	name       string
	run, ref   func(dst, a, b []float64, m, k, n int)
	nd, na, nb func(m, k, n int) int
}

var ops = []op{
	{"MulTo", MulTo, refMul, mn, mk, kn},
	{"MulTransTo", MulTransTo, refMulTrans, mn, mk, kn},
	{"AddTransMulTo", AddTransMulTo, refAddTransMul, mn, mk, kn},
	{"MulVecTo",
		func(y, a, x []float64, m, k, _ int) { MulVecTo(y, a, x, m, k) },
		func(y, a, x []float64, m, k, _ int) { refMulVec(y, a, x, m, k) },
		func(m, _, _ int) int { return m }, mk, func(_, k, _ int) int { return k }},
	{"AddTransMulVecTo",
		func(y, a, x []float64, m, k, _ int) { AddTransMulVecTo(y, a, x, m, k) },
		func(y, a, x []float64, m, k, _ int) { refAddTransMulVec(y, a, x, m, k) },
		func(_, k, _ int) int { return k }, mk, func(m, _, _ int) int { return m }},
}

func mn(m, _, n int) int { return m * n }
func mk(m, k, _ int) int { return m * k }
func kn(_, k, n int) int { return k * n }

// randSlice returns n values of varied sign and magnitude, with some exact
// zeros and negative zeros.
func randSlice(rng *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		switch rng.IntN(16) {
		case 0:
			s[i] = 0
		case 1:
			s[i] = math.Copysign(0, -1)
		default:
			s[i] = rng.NormFloat64() * math.Ldexp(1, rng.IntN(21)-10)
		}
	}
	return s
}

const guard = 4 // sentinel elements after every destination

// TestPathsBitIdentical runs every path of this machine and the reference on
// the same inputs over many shapes (ragged edges, 1×1, sizes that are not
// multiples of any vector width, inner dimensions longer than one pass) and
// requires the same bits, and that nothing past the destination is written.
func TestPathsBitIdentical(t *testing.T) {
	dims := []int{1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 16, 17, 23, 24, 25, 31, 33, 50, 51}
	ks := []int{0, 1, 2, 3, 4, 5, 8, 9, 20, 50, 255, 256, 257, 600}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, p := range Available() {
		prev := Use(p)
		for _, o := range ops {
			for _, m := range dims {
				for _, k := range ks {
					for _, n := range dims {
						if o.name == "MulVecTo" || o.name == "AddTransMulVecTo" {
							if n > 1 {
								continue
							}
						}
						if k > 50 && (m > 13 || n > 25) && o.name != "AddTransMulTo" {
							continue // long inner dimensions matter for AddTransMulTo only
						}
						checkOp(t, rng, p, o, m, k, n)
					}
				}
			}
		}
		Use(prev)
	}
}

// TestPathsBitIdenticalBlocks is TestPathsBitIdentical on shapes that span
// several blocks of rows and passes of the inner dimension (kc, mb), where
// the looping kernels compute many tiles per call.
func TestPathsBitIdenticalBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, p := range Available() {
		prev := Use(p)
		for _, o := range ops {
			for _, m := range []int{mb - 1, mb, mb + 1, 2*mb + 7} {
				for _, k := range []int{1, 20, kc - 1, kc, kc + 1, 2*kc + 3} {
					for _, n := range []int{1, 4, 13, 50} {
						if (o.name == "MulVecTo" || o.name == "AddTransMulVecTo") && n > 1 {
							continue
						}
						checkOp(t, rng, p, o, m, k, n)
					}
				}
			}
		}
		Use(prev)
	}
}

// checkOp runs o on random operands of shape (m, k, n) on the active path
// p and requires the reference's bits and nothing written past the
// destination.
func checkOp(t *testing.T, rng *rand.Rand, p Path, o op, m, k, n int) {
	t.Helper()
	sentinel := math.Float64frombits(0x7ff8dead0000beef)
	nd := o.nd(m, k, n)
	a := randSlice(rng, o.na(m, k, n))
	b := randSlice(rng, o.nb(m, k, n))
	init := randSlice(rng, nd)
	got := append(append([]float64(nil), init...), make([]float64, guard)...)
	for i := nd; i < len(got); i++ {
		got[i] = sentinel
	}
	want := append([]float64(nil), init...)
	o.run(got[:nd], a, b, m, k, n)
	o.ref(want, a, b, m, k, n)
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("%v %s m=%d k=%d n=%d: element %d = %v (%#x), reference %v (%#x)",
				p, o.name, m, k, n, i, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
		}
	}
	for i := nd; i < len(got); i++ {
		if math.Float64bits(got[i]) != math.Float64bits(sentinel) {
			t.Fatalf("%v %s m=%d k=%d n=%d: wrote past the destination", p, o.name, m, k, n)
		}
	}
}

// TestAvailable checks that the portable path is always there, that the
// default is the widest one unless NADB_PUREGO=1, and that Use refuses a path
// the machine lacks.
func TestAvailable(t *testing.T) {
	av := Available()
	if av[0] != PureGo {
		t.Fatalf("Available()[0] = %v, want purego", av[0])
	}
	if got := defaultPath(); got != av[len(av)-1] && got != PureGo {
		t.Errorf("default path %v, want %v", got, av[len(av)-1])
	}
	t.Setenv(PureGoEnv, "1")
	if got := defaultPath(); got != PureGo {
		t.Errorf("with %s=1 the default path is %v, want purego", PureGoEnv, got)
	}
	if len(av) < 3 {
		defer func() {
			if recover() == nil {
				t.Error("Use of an unavailable path did not panic")
			}
		}()
		Use(AVX512)
	}
}

func TestShapePanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"short destination", func() { MulTo(make([]float64, 3), make([]float64, 4), make([]float64, 4), 2, 2, 2) }},
		{"short operand", func() { MulTransTo(make([]float64, 4), make([]float64, 3), make([]float64, 4), 2, 2, 2) }},
		{"negative dimension", func() { MulVecTo(nil, nil, nil, -1, 0) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			tc.f()
		})
	}
}

func ExampleMulTo() {
	a := []float64{ // 2×3
		1, 2, 3,
		4, 5, 6,
	}
	b := []float64{ // 3×2
		1, 0,
		0, 1,
		1, 1,
	}
	c := make([]float64, 4)
	MulTo(c, a, b, 2, 3, 2)
	fmt.Println(c)
	// Output: [4 5 10 11]
}

// TestElementwiseBitIdentical compares ReLU and Mask on every path with
// the bit rules they document, on lengths around the vector blocks and on
// special values (±0, ±Inf, NaNs of both signs, subnormals).
func TestElementwiseBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
		math.Float64frombits(0xfff8000000000001), 5e-324, -5e-324, 1, -1}
	gen := func(n int) []float64 {
		x := randSlice(rng, n)
		for i := range x {
			if rng.IntN(4) == 0 {
				x[i] = special[rng.IntN(len(special))]
			}
		}
		return x
	}
	for _, p := range Available() {
		prev := Use(p)
		for n := range 140 {
			x := gen(n)
			got := append([]float64(nil), x...)
			ReLU(got)
			for i, v := range x {
				want := v
				if math.Signbit(v) {
					want = 0
				}
				if math.Float64bits(got[i]) != math.Float64bits(want) {
					t.Fatalf("%v ReLU n=%d: element %d of %v is %v, want %v", p, n, i, v, got[i], want)
				}
			}
			d, h := gen(n), gen(n+3)
			for i := range h {
				if rng.IntN(2) == 0 {
					h[i] = 0
				}
			}
			got = append([]float64(nil), d...)
			Mask(got, h)
			for i, v := range d {
				want := v
				if math.Float64bits(h[i]) == 0 {
					want = 0
				}
				if math.Float64bits(got[i]) != math.Float64bits(want) {
					t.Fatalf("%v Mask n=%d: element %d of %v (h=%v) is %v, want %v", p, n, i, v, h[i], got[i], want)
				}
			}
		}
		Use(prev)
	}
}
