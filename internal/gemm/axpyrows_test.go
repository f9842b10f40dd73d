package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAxpyRowsBitIdentical runs AxpyRows on every path of this machine for
// lengths of y around the vectors and the 8-vector panels, strides longer
// than y, rows repeated and in any order, and values of varied magnitude
// (signed zeros, subnormals, huge values, NaN and infinities), and requires
// the bits of one Axpy per row in order, and no write past y.
func TestAxpyRowsBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	special := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1e-300, 1e300, -1e300, 1, -1, math.Inf(1), math.NaN()}
	mix := func(n int) []float64 {
		x := randSlice(rng, n)
		for i := range x {
			if rng.IntN(7) == 0 {
				x[i] = special[rng.IntN(len(special))]
			}
		}
		return x
	}
	for _, p := range Available() {
		prev := Use(p)
		for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 50, 63, 64, 65, 70, 120, 129, 200} {
			for _, rows := range []int{0, 1, 2, 11, 40} {
				ld := n + rng.IntN(5)
				nx := 1 + rng.IntN(30)
				x := mix(nx*ld + n)
				idx := make([]int32, rows)
				for t := range idx {
					idx[t] = int32(rng.IntN(nx + 1))
				}
				a := mix(rows)
				y := mix(n + 3) // the last 3: guards
				want := append([]float64(nil), y...)
				Use(PureGo)
				for t, r := range idx {
					Axpy(want[:n], x[int(r)*ld:], a[t])
				}
				Use(p)
				AxpyRows(y[:n], x, ld, idx, a)
				checkBits(t, p, "AxpyRows", n, y, want)
			}
		}
		Use(prev)
	}
}

// TestAxpyRowsChecks requires a panic, not a read out of range, for a row
// past x, a negative row, a short a and a negative stride.
func TestAxpyRowsChecks(t *testing.T) {
	y, x := make([]float64, 10), make([]float64, 30)
	for name, f := range map[string]func(){
		"row past x":      func() { AxpyRows(y, x, 10, []int32{2, 3}, []float64{1, 1}) },
		"negative row":    func() { AxpyRows(y, x, 10, []int32{-1}, []float64{1}) },
		"short factors":   func() { AxpyRows(y, x, 10, []int32{0, 1}, []float64{1}) },
		"negative stride": func() { AxpyRows(y, x, -1, []int32{0}, []float64{1}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestAxpyRowsFit requires AxpyRows' range test to agree with the test of
// each row on its own (r ≥ 0 and r·ld + len(y) ≤ len(x)) on rows at, just
// inside and just past the end of x, negative rows, zero and long strides
// and y longer than x, wherever the offending row is in idx (in the vector
// pass or its tail), on every path of the machine.
func TestAxpyRowsFit(t *testing.T) {
	for _, p := range Available() {
		prev := Use(p)
		axpyRowsFitCases(t, p)
		Use(prev)
	}
	big := make([]float64, 4)
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("stride 2⁴⁰: no panic")
			}
		}()
		AxpyRows(big[:1], big, 1<<40, []int32{0, 1 << 30}, []float64{1, 1})
	}()
}

// axpyRowsFitCases runs TestAxpyRowsFit's random cases on path p.
func axpyRowsFitCases(t *testing.T, p Path) {
	rng := rand.New(rand.NewPCG(12, 12))
	for range 20000 {
		lx, n, ld := rng.IntN(400), rng.IntN(12), rng.IntN(50)
		// Up to 40 rows (the vector pass and its tail) that fit when rows
		// can, then the last row that fits (±1) and a negative or huge row
		// at random positions.
		fit := 8
		if ld > 0 && lx >= n {
			fit = (lx-n)/ld + 1
		}
		idx := make([]int32, 1+rng.IntN(40))
		for k := range idx {
			idx[k] = int32(rng.IntN(fit))
		}
		for range rng.IntN(3) {
			k := rng.IntN(len(idx))
			if ld > 0 {
				idx[k] = int32((lx-n)/ld + rng.IntN(3) - 1)
			}
			if rng.IntN(4) == 0 {
				idx[k] = []int32{-1, -2, math.MinInt32, math.MaxInt32}[rng.IntN(4)]
			}
		}
		want := true
		for _, r := range idx {
			if r < 0 || int(r)*ld+n > lx {
				want = false
			}
		}
		y, x, a := make([]float64, n), make([]float64, lx), make([]float64, len(idx))
		panicked := func() (got bool) {
			defer func() { got = recover() != nil }()
			AxpyRows(y, x, ld, idx, a)
			return false
		}()
		if panicked == want {
			t.Fatalf("%v: AxpyRows(len(y)=%d, len(x)=%d, ld=%d, idx=%v): panicked %t, want %t", p, n, lx, ld, idx, panicked, !want)
		}
	}
}

// BenchmarkAxpyRows times the sparse first layer of a width-50 network on
// rows of 10 non-zeros among 70 inputs: one AxpyRows per row against one
// Axpy per non-zero, on every path of the machine:
//
//	GOMAXPROCS=1 go test -run '^$' -bench AxpyRows ./internal/gemm
func BenchmarkAxpyRows(b *testing.B) {
	const w, d, nnz = 50, 70, 10
	rng := rand.New(rand.NewPCG(8, 8))
	x, y := randSlice(rng, d*w), make([]float64, w)
	idx, a := make([]int32, nnz), randSlice(rng, nnz)
	for t := range idx {
		idx[t] = int32(t * d / nnz)
	}
	for _, p := range Available() {
		prev := Use(p)
		b.Run(p.String()+"/rows", func(b *testing.B) {
			for b.Loop() {
				AxpyRows(y, x, w, idx, a)
			}
		})
		b.Run(p.String()+"/axpy", func(b *testing.B) {
			for b.Loop() {
				for t, r := range idx {
					Axpy(y, x[int(r)*w:int(r+1)*w], a[t])
				}
			}
		})
		Use(prev)
	}
	// A short y over many rows, as in a Hessian's last rows (20 of 400
	// duels' features).
	const hn, hd = 400, 20
	hx, hy, ha := randSlice(rng, hn*hd), make([]float64, 4), randSlice(rng, hn)
	hidx := make([]int32, hn)
	for t := range hidx {
		hidx[t] = int32(t)
	}
	for _, p := range Available() {
		prev := Use(p)
		b.Run(p.String()+"/long", func(b *testing.B) {
			for b.Loop() {
				AxpyRows(hy, hx, hd, hidx, ha)
			}
		})
		Use(prev)
	}
}
