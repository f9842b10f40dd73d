package gemm

import (
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
)

// Path names an implementation of the kernels.
type Path int

// Paths, from the portable one to the widest vectors.
const (
	PureGo Path = iota // math.FMA loops, every architecture
	AVX2               // 4-lane FMA micro-kernels (amd64 with AVX2 and FMA)
	AVX512             // 8-lane FMA micro-kernels (amd64 with AVX-512F)
)

func (p Path) String() string {
	switch p {
	case PureGo:
		return "purego"
	case AVX2:
		return "avx2"
	case AVX512:
		return "avx512"
	}
	return fmt.Sprintf("Path(%d)", int(p))
}

// PureGoEnv is the environment variable that, set to 1 when the process
// starts, makes PureGo the active path.
const PureGoEnv = "NADB_PUREGO"

// active is the path the operations use. It is set once at start-up and
// changed only by Use.
var active = defaultPath()

func defaultPath() Path {
	if os.Getenv(PureGoEnv) == "1" {
		return PureGo
	}
	av := Available()
	return av[len(av)-1]
}

// Available returns the paths this machine can run, PureGo first and the
// default (the widest) last.
func Available() []Path {
	p := []Path{PureGo}
	if hasAVX2 {
		p = append(p, AVX2)
	}
	if hasAVX512 {
		p = append(p, AVX512)
	}
	return p
}

// Active returns the path in use.
func Active() Path { return active }

// Use makes p the active path and returns the previous one. It is meant for
// tests and benchmarks that compare paths in one process; it must not be
// called while another goroutine runs an operation. It panics if p is not
// Available.
func Use(p Path) Path {
	if slices.Contains(Available(), p) {
		prev := active
		active = p
		return prev
	}
	panic(fmt.Sprintf("gemm: path %v is not available on this machine", p))
}

// kc is the number of terms t one pass over a tile takes before the tile
// is stored and the next pass reloads it, and mb the number of rows of c a
// pass computes panel by panel before it moves to the next rows: a long
// inner dimension (the rows of a batch in AddTransMulTo) then streams
// through the cache in blocks, and a panel of b is reused from the cache by
// every row of a block. Storing and reloading an accumulator does not
// change its value, and the blocks do not change the order of any chain.
const (
	kc = 64
	mb = 64
)

// FlopsEnv is the environment variable that, set to 1 when the process
// starts, makes the package count the floating-point operations of its
// products (Flops).
const FlopsEnv = "NADB_GEMM_FLOPS"

var (
	countFlops = os.Getenv(FlopsEnv) == "1"
	flopCount  atomic.Int64
)

// CountingFlops reports whether the products are counted (FlopsEnv).
func CountingFlops() bool { return countFlops }

// Flops returns the floating-point operations of the matrix products done so
// far in the process (two per fused multiply–add) when CountingFlops, else
// 0. make speed divides it by the core's peak (BenchmarkPeak) for a run's
// arithmetic floor; work outside the products is not counted.
func Flops() int64 { return flopCount.Load() }

// strided computes, for i < m and j < n,
//
//	c[i·ldc + j] ← fma-chain over t < k of a[i·ars + t·aks] · b[t·bks + j],
//
// starting from c[i·ldc + j] if acc and from +0 otherwise. Every operation
// of the package is an instance; k ≥ 1, m, n ≥ 1 and the slices are long
// enough (checked by the callers).
func strided(m, n, k int, a []float64, ars, aks int, b []float64, bks int, c []float64, ldc int, acc bool) {
	stridedPost(m, n, k, a, ars, aks, b, bks, c, ldc, acc, 0, nil)
}

// Bits of the acc argument of the amd64 tile kernels; flagReLU and
// flagMask also name the steps of stridedPost.
const (
	flagAcc  = 1 // continue the chains from c instead of +0
	flagReLU = 2 // apply ReLU to the tile before it is stored
	flagMask = 4 // then Mask it by h
)

// stridedPost is strided followed, if post has flagReLU, by ReLU of every
// row of c and then, if post has flagMask, by Mask of every row of c by the
// same row of h (h has the layout of c): the vector kernels apply both to a
// tile in registers before they store it, the bits of the separate passes.
func stridedPost(m, n, k int, a []float64, ars, aks int, b []float64, bks int, c []float64, ldc int, acc bool, post int, h []float64) {
	if countFlops {
		flopCount.Add(2 * int64(m) * int64(n) * int64(k))
	}
	switch active {
	case AVX2, AVX512:
		// Rows of 50 or 20 columns by remColsAsm (AVX-512).
		if !remColsAsm(active, m, n, k, a, ars, aks, b, bks, c, ldc, acc, post, h) {
			stridedAsm(active, m, n, k, a, ars, aks, b, bks, c, ldc, acc, post, h)
		}
	default:
		stridedGo(m, n, k, a, ars, aks, b, bks, c, ldc, acc)
		postRows(m, n, c, ldc, post, h)
	}
}

// postRows applies the steps of post (flagReLU, then flagMask by h) to the
// m rows of n elements of c at stride ldc.
func postRows(m, n int, c []float64, ldc int, post int, h []float64) {
	if post == 0 {
		return
	}
	for i := range m {
		row := c[i*ldc : i*ldc+n]
		if post&flagReLU != 0 {
			ReLU(row)
		}
		if post&flagMask != 0 {
			Mask(row, h[i*ldc:i*ldc+n])
		}
	}
}

// MulTo computes C = A·B for A (m×k), B (k×n) and C (m×n), all row-major
// with rows stored contiguously.
func MulTo(c, a, b []float64, m, k, n int) {
	check("MulTo", m, k, n, len(c), m*n, len(a), m*k, len(b), k*n)
	if m == 0 || n == 0 {
		return
	}
	if k == 0 {
		clear(c[:m*n])
		return
	}
	strided(m, n, k, a, k, 1, b, n, c, n, false)
}

// MulTransTo computes C = A·Bᵀ for A (m×k), B (n×k) and C (m×n).
func MulTransTo(c, a, b []float64, m, k, n int) {
	check("MulTransTo", m, k, n, len(c), m*n, len(a), m*k, len(b), n*k)
	if m == 0 || n == 0 {
		return
	}
	if k == 0 {
		clear(c[:m*n])
		return
	}
	bt := getBuf(k * n)
	for j := range n {
		for t, v := range b[j*k : (j+1)*k] {
			(*bt)[t*n+j] = v
		}
	}
	strided(m, n, k, a, k, 1, *bt, n, c, n, false)
	putBuf(bt)
}

// AddTransMulTo computes C += Aᵀ·B for A (k×m), B (k×n) and C (m×n).
func AddTransMulTo(c, a, b []float64, m, k, n int) {
	check("AddTransMulTo", m, k, n, len(c), m*n, len(a), k*m, len(b), k*n)
	if m == 0 || n == 0 || k == 0 {
		return
	}
	strided(m, n, k, a, 1, m, b, n, c, n, true)
}

// MulVecTo computes y = A·x for A (m×k), x (k) and y (m).
func MulVecTo(y, a, x []float64, m, k int) {
	check("MulVecTo", m, k, 1, len(y), m, len(a), m*k, len(x), k)
	if m == 0 {
		return
	}
	if k == 0 {
		clear(y[:m])
		return
	}
	if r := dotRowsAsm(active, m, k, a, k, x, y); r > 0 {
		if countFlops {
			flopCount.Add(2 * int64(r) * int64(k))
		}
		if r == m {
			return
		}
		m, a, y = m-r, a[r*k:], y[r:]
	}
	strided(m, 1, k, a, k, 1, x, 1, y, 1, false)
}

// AddTransMulVecTo computes y += Aᵀ·x for A (m×k), x (m) and y (k).
func AddTransMulVecTo(y, a, x []float64, m, k int) {
	check("AddTransMulVecTo", m, k, 1, len(y), k, len(a), m*k, len(x), m)
	if m == 0 || k == 0 {
		return
	}
	if rowVecAsm(active, k, m, x, a, y) {
		if countFlops {
			flopCount.Add(2 * int64(m) * int64(k))
		}
		return
	}
	strided(1, k, m, x, 0, 1, a, k, y, k, true)
}

// check panics unless the dimensions are non-negative and every slice holds
// at least the elements its operand needs.
func check(op string, m, k, n, lc, nc, la, na, lb, nb int) {
	switch {
	case m < 0 || k < 0 || n < 0:
		panic(fmt.Sprintf("gemm: %s with negative dimension (m=%d, k=%d, n=%d)", op, m, k, n))
	case lc < nc:
		panic(fmt.Sprintf("gemm: %s destination has %d elements, need %d", op, lc, nc))
	case la < na:
		panic(fmt.Sprintf("gemm: %s first operand has %d elements, need %d", op, la, na))
	case lb < nb:
		panic(fmt.Sprintf("gemm: %s second operand has %d elements, need %d", op, lb, nb))
	}
}

// bufs recycles the transposed copies made by MulTransTo.
var bufs sync.Pool

func getBuf(n int) *[]float64 {
	if p, ok := bufs.Get().(*[]float64); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	s := make([]float64, n)
	return &s
}

func putBuf(p *[]float64) { bufs.Put(p) }
