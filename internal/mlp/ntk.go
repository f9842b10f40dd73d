package mlp

import (
	"math"

	"github.com/neural-adb/nadb/internal/gemm"
)

// Features holds, for every row x_i of a fixed input set, the activations
// h_0..h_L and the unit-output signals δ_1..δ_L of a network at fixed θ (θ0 in
// Neural-ADB). From them it evaluates the scaled gradient inner products
//
//	K(i,j) = Scale · ⟨g(x_i;θ), g(x_j;θ)⟩
//
// in closed form (package documentation). With Scale = 1/w, K is the Gram
// matrix of the paper's features φ = g(x;θ0)/√w.
type Features struct {
	Arch  Arch
	Scale float64
	rows  int
	b     *Batch

	// halves records that every row's hidden signals have mirrored halves
	// (mirroredHalves), so that StreamKernel may take their inner products
	// over the first halves.
	halves bool
}

// Rows returns the number of input rows.
func (f *Features) Rows() int { return f.rows }

// NewFeatures computes the signals of the rows of x (rows × In) at the
// network's current θ.
func (n *Net) NewFeatures(x []float64, scale float64) *Features {
	a := n.Arch
	rows := len(x) / a.In
	if len(x) != rows*a.In || rows == 0 {
		panic("mlp: NewFeatures input is not a positive whole number of rows")
	}
	b := NewBatch(a, rows)
	n.signals(b, x, rows)
	return &Features{Arch: a, Scale: scale, rows: rows, b: b, halves: mirroredHalves(a, b)}
}

// signals fills b (sized for rows rows) with the forward and back-propagated
// signals of the rows of x: the output's gradient with respect to every
// layer, each row's output weighted 1.
func (n *Net) signals(b *Batch, x []float64, rows int) {
	copy(b.H[0], x)
	n.Forward(b)
	ones := make([]float64, rows)
	for i := range ones {
		ones[i] = 1
	}
	n.Backward(b, ones, nil)
}

func dot(x, y []float64) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}

func (f *Features) row(m []float64, cols, i int) []float64 { return m[i*cols : (i+1)*cols] }

// Entry returns K(i, j).
func (f *Features) Entry(i, j int) float64 {
	a := f.Arch
	w := a.Width
	s := dot(f.row(f.b.H[a.Depth], w, i), f.row(f.b.H[a.Depth], w, j))
	if a.Bias {
		s++
	}
	for l := 0; l < a.Depth; l++ {
		in := a.fanIn(l)
		dd := dot(f.row(f.b.D[l], w, i), f.row(f.b.D[l], w, j))
		hh := dot(f.row(f.b.H[l], in, i), f.row(f.b.H[l], in, j))
		if a.Bias {
			hh++
		}
		s += dd * hh
	}
	return f.Scale * s
}

// ColumnTo writes column i of K, K(·, i), into dst (length Rows).
func (f *Features) ColumnTo(dst []float64, i int) []float64 {
	if dst == nil {
		dst = make([]float64, f.rows)
	}
	a := f.Arch
	w := a.Width
	rows := f.rows
	tmpD := make([]float64, rows)
	tmpH := make([]float64, rows)
	gemv := func(dst []float64, m []float64, cols int, x []float64) {
		gemm.MulVecTo(dst, m, x, rows, cols)
	}
	gemv(dst, f.b.H[a.Depth], w, f.row(f.b.H[a.Depth], w, i))
	if a.Bias {
		for r := range dst {
			dst[r]++
		}
	}
	for l := 0; l < a.Depth; l++ {
		in := a.fanIn(l)
		gemv(tmpD, f.b.D[l], w, f.row(f.b.D[l], w, i))
		gemv(tmpH, f.b.H[l], in, f.row(f.b.H[l], in, i))
		for r := range dst {
			hh := tmpH[r]
			if a.Bias {
				hh++
			}
			dst[r] += tmpD[r] * hh
		}
	}
	for r := range dst {
		dst[r] *= f.Scale
	}
	return dst
}

// GramTo writes the full Rows × Rows matrix K into dst (row-major, symmetric)
// using blocked matrix products: O(Rows² · (d + 2Lw)) work and no p-vectors.
func (f *Features) GramTo(dst []float64) []float64 {
	a := f.Arch
	n := f.rows
	if dst == nil {
		dst = make([]float64, n*n)
	}
	if len(dst) != n*n {
		panic("mlp: GramTo destination has the wrong size")
	}
	const bs = 256
	w := a.Width
	tileD := make([]float64, bs*bs)
	tileH := make([]float64, bs*bs)
	tile := make([]float64, bs*bs)
	gram := func(dst []float64, m []float64, cols, i0, ni, j0, nj int) {
		gemm.MulTransTo(dst[:ni*nj], m[i0*cols:(i0+ni)*cols], m[j0*cols:(j0+nj)*cols], ni, cols, nj)
	}
	for i0 := 0; i0 < n; i0 += bs {
		ni := min(bs, n-i0)
		for j0 := i0; j0 < n; j0 += bs {
			nj := min(bs, n-j0)
			gram(tile, f.b.H[a.Depth], w, i0, ni, j0, nj)
			t := tile[:ni*nj]
			if a.Bias {
				for k := range t {
					t[k]++
				}
			}
			for l := 0; l < a.Depth; l++ {
				in := a.fanIn(l)
				gram(tileD, f.b.D[l], w, i0, ni, j0, nj)
				gram(tileH, f.b.H[l], in, i0, ni, j0, nj)
				for k := range t {
					hh := tileH[k]
					if a.Bias {
						hh++
					}
					t[k] += tileD[k] * hh
				}
			}
			for r := range ni {
				for c := range nj {
					v := f.Scale * t[r*nj+c]
					dst[(i0+r)*n+j0+c] = v
					dst[(j0+c)*n+i0+r] = v
				}
			}
		}
	}
	return dst
}

// GradientTo writes √Scale · g(x_i;θ) explicitly (length p) into dst. It is
// O(p) per row and meant for checks and small problems.
func (f *Features) GradientTo(dst []float64, i int) []float64 {
	a := f.Arch
	if dst == nil {
		dst = make([]float64, a.NumParams())
	}
	lay := a.layout()
	w := a.Width
	s := math.Sqrt(f.Scale)
	for l := 0; l < a.Depth; l++ {
		in := a.fanIn(l)
		d := f.row(f.b.D[l], w, i)
		h := f.row(f.b.H[l], in, i)
		gw := lay.w[l].of(dst)
		for r := range w {
			for c := range in {
				gw[r*in+c] = s * d[r] * h[c]
			}
		}
		if a.Bias {
			gb := lay.b[l].of(dst)
			for r := range gb {
				gb[r] = s * d[r]
			}
		}
	}
	hL := f.row(f.b.H[a.Depth], w, i)
	gv := lay.v.of(dst)
	for r := range gv {
		gv[r] = s * hL[r]
	}
	if a.Bias {
		lay.bOut.of(dst)[0] = s
	}
	return dst
}
