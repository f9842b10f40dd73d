package gram

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/gemm"
	"github.com/neural-adb/nadb/internal/mlp"
)

// refCholesky is cholesky without blocking: every entry one math.FMA chain
// over u in increasing order, as documented there.
func refCholesky(w []float64, t int) {
	for j := range t {
		s := w[j*t+j]
		for u := range j {
			s = math.FMA(w[j*t+u], w[j*t+u], s)
		}
		d := math.Sqrt(-s)
		w[j*t+j] = d
		for i := j + 1; i < t; i++ {
			s := w[i*t+j]
			for u := range j {
				s = math.FMA(w[i*t+u], w[j*t+u], s)
			}
			w[i*t+j] = s / -d
		}
	}
}

// refSolveLower is solveLower without blocking.
func refSolveLower(w []float64, t int, y []float64, n int) {
	for s := range t {
		for m := range n {
			v := y[s*n+m]
			for u := range s {
				v = math.FMA(w[s*t+u], y[u*n+m], v)
			}
			y[s*n+m] = v / -w[s*t+s]
		}
	}
}

// TestRefreshKernelsMatchUnblocked compares the blocked Cholesky factor and
// triangular solve of Refresh with the unblocked chains on every gemm path,
// for sizes around the block size, bit for bit.
func TestRefreshKernelsMatchUnblocked(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, size := range []int{1, 2, 7, refreshBlock - 1, refreshBlock, refreshBlock + 1, 2*refreshBlock + 5, 130, chunkRows + 1, 2*chunkRows + 13} {
		const n = 37
		// −C for C = a·I + ΨᵀΨ with a random Ψ (size × 9), lower triangle.
		psi := make([]float64, size*9)
		for i := range psi {
			psi[i] = rng.NormFloat64()
		}
		w0 := make([]float64, size*size)
		for i := range size {
			for j := 0; j <= i; j++ {
				v := 0.0
				for k := range 9 {
					v += psi[i*9+k] * psi[j*9+k]
				}
				if i == j {
					v += 0.5
				}
				w0[i*size+j] = -v
			}
		}
		y0 := make([]float64, size*n)
		for i := range y0 {
			y0[i] = rng.NormFloat64()
		}
		want := append([]float64(nil), w0...)
		refCholesky(want, size)
		wantY := append([]float64(nil), y0...)
		refSolveLower(want, size, wantY, n)
		for _, p := range gemm.Available() {
			prev := gemm.Use(p)
			w := append([]float64(nil), w0...)
			if !cholesky(w, size) {
				t.Fatalf("%v t=%d: cholesky failed", p, size)
			}
			for i := range size {
				for j := 0; j <= i; j++ {
					if math.Float64bits(w[i*size+j]) != math.Float64bits(want[i*size+j]) {
						t.Fatalf("%v t=%d: L[%d][%d] = %v, unblocked %v", p, size, i, j, w[i*size+j], want[i*size+j])
					}
				}
			}
			c := &Confidence{n: n, r: *storeOf(y0, n)}
			c.solveLower(w, size)
			if y := c.r.flat(); !sameBits(y, wantY) {
				t.Fatalf("%v t=%d: the blocked solve differs from the unblocked one", p, size)
			}
			gemm.Use(prev)
		}
	}
}

func TestCholeskyRejectsIndefinite(t *testing.T) {
	w := []float64{-1, 0, -2, -1} // −C, C = [[1, ·], [2, 1]]: not positive definite
	if cholesky(w, 2) {
		t.Fatal("cholesky accepted an indefinite matrix")
	}
}

// TestPathsBitIdentical runs updates (pairs and rows) and refreshes at a
// size that crosses the refresh block on every gemm path and requires the
// same blocks and r̃ vectors, bit for bit.
func TestPathsBitIdentical(t *testing.T) {
	const contexts, arms, updates = 30, 5, 130
	p := newPool(t, 13, contexts, arms, mlp.Arch{In: 4, Width: 8, Depth: 2}, false)
	k := &Dense{N: p.feat.Rows(), Data: p.feat.GramTo(nil)}
	run := func() *Confidence {
		c := New(k, contexts, arms, 0.9)
		c.RefreshEvery = 55
		rng := rand.New(rand.NewPCG(14, 14))
		for range updates {
			if rng.IntN(5) == 0 {
				c.AddRow(rng.IntN(contexts * arms))
				continue
			}
			pr := randomPairs(rng, contexts, arms, 1)[0]
			c.Add(pr[0], pr[1])
		}
		return c
	}
	type snapshot struct{ q, r []float64 }
	var want []snapshot
	for _, path := range gemm.Available() {
		prev := gemm.Use(path)
		c := run()
		got := []snapshot{{append([]float64(nil), c.allBlocks()...), c.r.flat()}}
		if err := c.Refresh(); err != nil {
			t.Fatal(err)
		}
		got = append(got, snapshot{c.q, c.r.flat()})
		gemm.Use(prev)
		if want == nil {
			want = got
			continue
		}
		for i, when := range []string{"after the updates", "after Refresh"} {
			if !sameBits(got[i].q, want[i].q) || !sameBits(got[i].r, want[i].r) {
				t.Fatalf("%v path, %s: the state differs from the %v path", path, when, gemm.Available()[0])
			}
		}
	}
}

// flat returns rows 0, …, len−1 of the store, one after the other.
func (r *rowStore) flat() []float64 {
	var out []float64
	for s := range r.len {
		out = append(out, r.row(s)...)
	}
	return out
}

// storeOf returns a store holding the rows of y (n values each).
func storeOf(y []float64, n int) *rowStore {
	r := &rowStore{n: n}
	for s := range len(y) / n {
		r.grow()
		copy(r.row(s), y[s*n:(s+1)*n])
	}
	return r
}
