package mlp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// refForwardBackward computes the activations, outputs and the gradient
// Σ_r c_r ∂h(x_r)/∂θ (added to grad) of a bias-free network by plain loops
// in the order the package documents: every activation one chain of fused
// multiply–adds over its inputs from +0, every weight gradient one chain over
// the rows in increasing order from its initial value.
func refForwardBackward(n *Net, x, c, grad []float64) (out []float64) {
	a := n.Arch
	rows := len(x) / a.In
	w := a.Width
	h := [][]float64{x}
	for l := range a.Depth {
		in := a.fanIn(l)
		W := n.lay.w[l].of(n.Theta)
		hl := make([]float64, rows*w)
		for r := range rows {
			for j := range w {
				s := 0.0
				for t := range in {
					s = math.FMA(h[l][r*in+t], W[j*in+t], s)
				}
				if math.Signbit(s) {
					s = 0
				}
				hl[r*w+j] = s
			}
		}
		h = append(h, hl)
	}
	v := n.lay.v.of(n.Theta)
	out = make([]float64, rows)
	for r := range rows {
		s := 0.0
		for j := range w {
			s = math.FMA(h[a.Depth][r*w+j], v[j], s)
		}
		out[r] = s
	}
	// Signals δ_l of every row, then the gradient chains over the rows.
	d := make([][]float64, a.Depth)
	d[a.Depth-1] = make([]float64, rows*w)
	for r := range rows {
		for j := range w {
			if h[a.Depth][r*w+j] != 0 {
				d[a.Depth-1][r*w+j] = math.FMA(c[r], v[j], 0)
			}
		}
	}
	for l := a.Depth - 1; l > 0; l-- {
		W := n.lay.w[l].of(n.Theta)
		d[l-1] = make([]float64, rows*w)
		for r := range rows {
			for i := range w {
				s := 0.0
				for j := range w {
					s = math.FMA(d[l][r*w+j], W[j*w+i], s)
				}
				if h[l][r*w+i] != 0 {
					d[l-1][r*w+i] = s
				}
			}
		}
	}
	gv := n.lay.v.of(grad)
	for j := range w {
		for r := range rows {
			gv[j] = math.FMA(h[a.Depth][r*w+j], c[r], gv[j])
		}
	}
	for l := range a.Depth {
		in := a.fanIn(l)
		gw := n.lay.w[l].of(grad)
		for i := range w {
			for t := range in {
				for r := range rows {
					gw[i*in+t] = math.FMA(d[l][r*w+i], h[l][r*in+t], gw[i*in+t])
				}
			}
		}
	}
	return out
}

// TestBlocksFollowReferenceChains runs Forward and Backward on batches of
// several blocks of rows (blockRows) and requires the bits of the plain
// reference loops: the blocking must not change any chain.
func TestBlocksFollowReferenceChains(t *testing.T) {
	for _, a := range []Arch{{In: 7, Width: 13, Depth: 2}, {In: 20, Width: 50, Depth: 2}, {In: 3, Width: 6, Depth: 3}} {
		for _, rows := range []int{1, blockRows - 1, blockRows + 1, 2*blockRows + 37} {
			rng := rand.New(rand.NewPCG(uint64(rows), 9))
			net := NewNet(a)
			if err := net.Initialize(InitHe, 1, rng); err != nil {
				t.Fatal(err)
			}
			x := randRows(rng, rows, a.In)
			c := make([]float64, rows)
			for i := range c {
				c[i] = rng.NormFloat64()
			}
			g0 := randRows(rng, 1, a.NumParams())
			b := NewBatch(a, rows)
			copy(b.H[0], x)
			net.Forward(b)
			grad := append([]float64(nil), g0...)
			net.Backward(b, c, grad)
			wantGrad := append([]float64(nil), g0...)
			wantOut := refForwardBackward(net, x, c, wantGrad)
			for r := range rows {
				if math.Float64bits(b.Out[r]) != math.Float64bits(wantOut[r]) {
					t.Fatalf("%+v, %d rows: output %d = %v, reference %v", a, rows, r, b.Out[r], wantOut[r])
				}
			}
			for i := range grad {
				if math.Float64bits(grad[i]) != math.Float64bits(wantGrad[i]) {
					t.Fatalf("%+v, %d rows: gradient %d = %v, reference %v", a, rows, i, grad[i], wantGrad[i])
				}
			}
		}
	}
}
