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

	wt  []float64   // scratch: W_lᵀ of every layer (Forward)
	wts [][]float64 // the layers' parts of wt
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

// Resize sets the number of active rows, growing storage if needed: by at
// least half of what it holds, so that a batch that grows a little at a
// time (the rows of a growing training set) is reallocated only a few
// times. The inputs of the rows kept are preserved.
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
	grown := NewBatch(a, max(rows, cap(b.Out)+cap(b.Out)/2))
	copy(grown.H[0], b.H[0][:min(b.Rows, rows)*a.In])
	grown.wt, grown.wts = b.wt, b.wts
	*b = *grown
	b.Resize(a, rows)
}

// Input returns row r of the input block for the caller to fill.
func (b *Batch) Input(a Arch, r int) []float64 { return b.H[0][r*a.In : (r+1)*a.In] }

// blockRows is the number of rows Forward and Backward take through every
// layer before moving to another block (Forward from the last block to the
// first, Backward from the first), so that a block's activations and
// signals are still in cache when the next layer reads them. Every entry
// is computed by the same chain of fused multiply–adds whatever the block
// size: the chains of the weight gradients run over the rows in increasing
// order, continued from block to block.
const blockRows = 128

// Forward computes the activations and outputs of the b.Rows inputs in b.H[0].
func (n *Net) Forward(b *Batch) {
	a := n.Arch
	rows := b.Rows
	if rows == 0 {
		return
	}
	w := a.Width
	v := n.lay.v.of(n.Theta)
	wt := n.transposed(b)
	// The blocks from the last to the first: a backward pass, which must
	// take them from the first (the order of its gradient chains), then
	// finds the activations of the first blocks still in cache. A row's
	// values do not depend on the order of the blocks.
	for r0 := (rows - 1) / blockRows * blockRows; r0 >= 0; r0 -= blockRows {
		r1 := min(r0+blockRows, rows)
		m := r1 - r0
		for l := 0; l < a.Depth; l++ {
			in := a.fanIn(l)
			out := b.H[l+1][r0*w : r1*w]
			// H_l = H_{l−1} W_lᵀ: the chains of gemm.MulTransTo.
			if !a.Bias {
				// ReLU applied by the product's kernels before they store.
				gemm.MulStridedReLUTo(out, w, b.H[l][r0*in:r1*in], in, wt[l], w, m, in, w)
				continue
			}
			gemm.MulStridedTo(out, w, b.H[l][r0*in:r1*in], in, wt[l], w, m, in, w)
			bias := n.lay.b[l].of(n.Theta)
			for r := range m {
				row := out[r*w : (r+1)*w]
				for j := range row {
					row[j] += bias[j]
				}
			}
			gemm.ReLU(out)
		}
		if n.zeroAtInit {
			continue
		}
		gemm.MulVecTo(b.Out[r0:r1], b.H[a.Depth][r0*w:r1*w], v, m, w)
		if a.Bias {
			bo := n.lay.bOut.of(n.Theta)[0]
			for r := r0; r < r1; r++ {
				b.Out[r] += bo
			}
		}
	}
	if n.zeroAtInit {
		clear(b.Out)
	}
}

// transposed returns W_lᵀ (fanIn × Width) of every layer, in b's scratch.
func (n *Net) transposed(b *Batch) [][]float64 {
	a := n.Arch
	w := a.Width
	size := 0
	for l := range a.Depth {
		size += a.fanIn(l) * w
	}
	if cap(b.wt) < size {
		b.wt = make([]float64, size)
	}
	b.wts = b.wts[:0]
	off := 0
	for l := range a.Depth {
		in := a.fanIn(l)
		wt := b.wt[off : off+in*w]
		gemm.Transpose(wt, n.lay.w[l].of(n.Theta), w, in)
		b.wts = append(b.wts, wt)
		off += in * w
	}
	return b.wts
}

// Backward back-propagates output gradients c (length b.Rows) through the
// activations of the last Forward on b, filling b.D with the signals δ_l scaled
// by c. If grad is not nil, Σ_r c_r ∂h(x_r)/∂θ is added to it.
func (n *Net) Backward(b *Batch, c []float64, grad []float64) { n.backward(b, c, grad, true) }

// backward is Backward; without keep it computes the signals of every block
// of rows in the storage of the first block instead of filling b.D, so that
// they stay in cache between the products that read them (a trainer needs
// only the gradient). The gradient is the same bits either way.
func (n *Net) backward(b *Batch, c []float64, grad []float64, keep bool) {
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
	sOut := 0.0 // Σ_r c_r, the output bias gradient
	for r0 := 0; r0 < rows; r0 += blockRows {
		r1 := min(r0+blockRows, rows)
		m := r1 - r0
		cb := c[r0:r1]
		hL := b.H[a.Depth][r0*w : r1*w]
		d0 := r0 // the first row of the block's signals in b.D
		if !keep {
			d0 = 0
		}
		dL := b.D[a.Depth-1][d0*w : (d0+m)*w]
		// δ_L = c vᵀ ∘ 1[h_L > 0]: an outer product (one fused multiply–add
		// with +0 per entry) and a branch-free mask, applied by the
		// product's kernels before they store; with the gradient, the
		// output weights' part h_Lᵀc in the same pass over h_L.
		if grad == nil {
			gemm.MulMaskTo(dL, cb, v, hL, m, 1, w)
		} else {
			gemm.OuterMaskTo(dL, cb, v, hL, m, w, n.lay.v.of(grad))
			if a.Bias {
				for _, cr := range cb {
					sOut += cr
				}
			}
		}
		for l := a.Depth - 1; l >= 0; l-- {
			in := a.fanIn(l)
			d := b.D[l][d0*w : (d0+m)*w]
			if grad != nil {
				gemm.AddTransMulTo(n.lay.w[l].of(grad), d, b.H[l][r0*in:r1*in], w, m, in)
				if a.Bias {
					gb := n.lay.b[l].of(grad)
					for r := range m {
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
			prev := b.D[l-1][d0*w : (d0+m)*w]
			gemm.MulMaskTo(prev, d, n.lay.w[l].of(n.Theta), b.H[l][r0*w:r1*w], m, w, w)
		}
	}
	if grad != nil && a.Bias {
		n.lay.bOut.of(grad)[0] += sOut
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
