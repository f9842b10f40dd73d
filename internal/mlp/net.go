package mlp

import "github.com/neural-adb/nadb/internal/gemm"

// Net is a network h(·;θ) of a given architecture.
type Net struct {
	Arch  Arch
	Theta []float64 // θ, length Arch.NumParams()

	lay layout
	// zeroAtInit records that θ is an initialisation with h(·;θ) ≡ 0 (the
	// mirrored one); Forward then reports exact zeros. Any change of θ through
	// SetTheta or a Trainer clears it.
	zeroAtInit bool
}

// NewNet returns a network with all-zero parameters; use an Init function.
func NewNet(a Arch) *Net {
	if err := a.Validate(); err != nil {
		panic(err)
	}
	return &Net{Arch: a, Theta: make([]float64, a.NumParams()), lay: a.layout()}
}

// Clone returns a deep copy.
func (n *Net) Clone() *Net {
	c := *n
	c.Theta = append([]float64(nil), n.Theta...)
	return &c
}

// IdenticallyZero reports whether h(·;θ) ≡ 0 by construction: θ is still the
// mirrored initialisation, for which Forward reports exact zeros.
func (n *Net) IdenticallyZero() bool { return n.zeroAtInit }

// SetTheta copies θ into the network.
func (n *Net) SetTheta(theta []float64) {
	if len(theta) != len(n.Theta) {
		panic("mlp: SetTheta length mismatch")
	}
	copy(n.Theta, theta)
	n.zeroAtInit = false
}

// Batch holds the activations and back-propagated signals of a batch.
// H[0] is the input (rows × In); H[l], l = 1..Depth, the hidden activations;
// D[l−1] the signal δ_l of hidden layer l (rows × Width); Out the outputs.
type Batch struct {
	Rows int
	H    [][]float64
	D    [][]float64
	Out  []float64
}

// NewBatch allocates a workspace for up to rows inputs.
func NewBatch(a Arch, rows int) *Batch {
	b := &Batch{Rows: rows, Out: make([]float64, rows)}
	b.H = make([][]float64, a.Depth+1)
	b.H[0] = make([]float64, rows*a.In)
	for l := 1; l <= a.Depth; l++ {
		b.H[l] = make([]float64, rows*a.Width)
	}
	b.D = make([][]float64, a.Depth)
	for l := range b.D {
		b.D[l] = make([]float64, rows*a.Width)
	}
	return b
}

// Resize sets the number of active rows, growing storage if needed.
func (b *Batch) Resize(a Arch, rows int) {
	if rows <= cap(b.Out) {
		b.Rows = rows
		b.Out = b.Out[:rows]
		b.H[0] = b.H[0][:rows*a.In]
		for l := 1; l <= a.Depth; l++ {
			b.H[l] = b.H[l][:rows*a.Width]
		}
		for l := range b.D {
			b.D[l] = b.D[l][:rows*a.Width]
		}
		return
	}
	*b = *NewBatch(a, rows)
}

// Input returns row r of the input block for the caller to fill.
func (b *Batch) Input(a Arch, r int) []float64 { return b.H[0][r*a.In : (r+1)*a.In] }

// Forward computes the activations and outputs of the b.Rows inputs in b.H[0].
func (n *Net) Forward(b *Batch) {
	a := n.Arch
	rows := b.Rows
	if rows == 0 {
		return
	}
	for l := 0; l < a.Depth; l++ {
		in := a.fanIn(l)
		w := n.lay.w[l].of(n.Theta)
		out := b.H[l+1]
		gemm.MulTransTo(out, b.H[l], w, rows, in, a.Width)
		if a.Bias {
			bias := n.lay.b[l].of(n.Theta)
			for r := range rows {
				row := out[r*a.Width : (r+1)*a.Width]
				for j := range row {
					row[j] += bias[j]
				}
			}
		}
		gemm.ReLU(out)
	}
	if n.zeroAtInit {
		clear(b.Out)
		return
	}
	v := n.lay.v.of(n.Theta)
	gemm.MulVecTo(b.Out, b.H[a.Depth], v, rows, a.Width)
	if a.Bias {
		bo := n.lay.bOut.of(n.Theta)[0]
		for r := range b.Out {
			b.Out[r] += bo
		}
	}
}

// Backward back-propagates output gradients c (length b.Rows) through the
// activations of the last Forward on b, filling b.D with the signals δ_l scaled
// by c. If grad is not nil, Σ_r c_r ∂h(x_r)/∂θ is added to it.
func (n *Net) Backward(b *Batch, c []float64, grad []float64) {
	a := n.Arch
	rows := b.Rows
	if len(c) != rows {
		panic("mlp: Backward gradient length mismatch")
	}
	if rows == 0 {
		return
	}
	w := a.Width
	v := n.lay.v.of(n.Theta)
	hL := b.H[a.Depth]
	dL := b.D[a.Depth-1]
	// δ_L = c vᵀ ∘ 1[h_L > 0]: an outer product (one fused multiply–add
	// with +0 per entry) and a branch-free mask.
	gemm.MulTo(dL, c, v, rows, 1, w)
	gemm.Mask(dL, hL)
	if grad != nil {
		gv := n.lay.v.of(grad)
		gemm.AddTransMulVecTo(gv, hL, c, rows, w)
		if a.Bias {
			s := 0.0
			for _, cr := range c {
				s += cr
			}
			n.lay.bOut.of(grad)[0] += s
		}
	}
	for l := a.Depth - 1; l >= 0; l-- {
		in := a.fanIn(l)
		d := b.D[l]
		if grad != nil {
			gw := n.lay.w[l].of(grad)
			gemm.AddTransMulTo(gw, d, b.H[l], w, rows, in)
			if a.Bias {
				gb := n.lay.b[l].of(grad)
				for r := range rows {
					row := d[r*w : (r+1)*w]
					for j := range row {
						gb[j] += row[j]
					}
				}
			}
		}
		if l == 0 {
			break
		}
		prev := b.D[l-1]
		gemm.MulTo(prev, d, n.lay.w[l].of(n.Theta), rows, w, w)
		gemm.Mask(prev, b.H[l])
	}
}

// Predict writes h(x_r;θ) for the rows of x (rows × In, row-major) into dst,
// working in chunks through the workspace b (allocated if nil).
func (n *Net) Predict(dst, x []float64, b *Batch) []float64 {
	a := n.Arch
	rows := len(x) / a.In
	if len(x) != rows*a.In {
		panic("mlp: Predict input is not a whole number of rows")
	}
	if dst == nil {
		dst = make([]float64, rows)
	}
	const chunk = 1024
	if b == nil {
		b = NewBatch(a, min(rows, chunk))
	}
	for start := 0; start < rows; start += chunk {
		m := min(chunk, rows-start)
		b.Resize(a, m)
		copy(b.H[0], x[start*a.In:(start+m)*a.In])
		n.Forward(b)
		copy(dst[start:start+m], b.Out)
	}
	return dst
}
