package mlp

import "fmt"

// Arch describes a bias-optional ReLU MLP with Depth hidden layers of Width
// units on In-dimensional inputs.
type Arch struct {
	In    int  // input dimension d ≥ 1
	Width int  // hidden width w ≥ 1
	Depth int  // number of hidden layers L ≥ 1
	Bias  bool // whether every layer has a bias vector
}

// Validate reports whether the architecture is usable.
func (a Arch) Validate() error {
	switch {
	case a.In < 1:
		return fmt.Errorf("mlp: input dimension %d < 1", a.In)
	case a.Width < 1:
		return fmt.Errorf("mlp: width %d < 1", a.Width)
	case a.Depth < 1:
		return fmt.Errorf("mlp: depth %d < 1 (need at least one hidden layer)", a.Depth)
	}
	return nil
}

// fanIn returns the input size of hidden layer l (0-based).
func (a Arch) fanIn(l int) int {
	if l == 0 {
		return a.In
	}
	return a.Width
}

// NumParams returns p, the length of θ.
func (a Arch) NumParams() int {
	p := a.In*a.Width + (a.Depth-1)*a.Width*a.Width + a.Width
	if a.Bias {
		p += a.Depth*a.Width + 1
	}
	return p
}

// block is a contiguous slice of θ.
type block struct{ off, len int }

// layout gives the position of every weight matrix and bias inside θ.
type layout struct {
	w    []block // W_l, Width × fanIn(l), row-major
	b    []block // b_l (len 0 without biases)
	v    block   // output weights
	bOut block   // output bias (len 0 without biases)
}

func (a Arch) layout() layout {
	var lay layout
	off := 0
	for l := 0; l < a.Depth; l++ {
		n := a.Width * a.fanIn(l)
		lay.w = append(lay.w, block{off, n})
		off += n
		if a.Bias {
			lay.b = append(lay.b, block{off, a.Width})
			off += a.Width
		} else {
			lay.b = append(lay.b, block{off, 0})
		}
	}
	lay.v = block{off, a.Width}
	off += a.Width
	if a.Bias {
		lay.bOut = block{off, 1}
	} else {
		lay.bOut = block{off, 0}
	}
	return lay
}

func (b block) of(theta []float64) []float64 { return theta[b.off : b.off+b.len] }
