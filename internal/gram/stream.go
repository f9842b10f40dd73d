package gram

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack/lapack64"

	"github.com/neural-adb/nadb/internal/gemm"
)

// Stream is the confidence state of the fresh-context setting (package
// documentation, "Fresh contexts"): V = a·I + Σ_s ψ_s ψ_sᵀ with every ψ_s
// made of committed rows, kept as the Cholesky factor L of the t×t matrix
// a·I + ΨᵀΨ, and the blocks Q_c = Φ_c V⁻¹ Φ_cᵀ of the current round's fresh
// contexts (fresh row x = c·Arms + a), each computed from scratch on first
// use in the round.
type Stream struct {
	// RefreshEvery > 0 triggers Refresh after every RefreshEvery updates.
	RefreshEvery int

	k    StreamKernel
	arms int
	reg  float64

	ups  []streamUpdate
	refs []int       // committed rows named by updates, in order of first use
	slot map[int]int // committed row → index in refs

	l  []float64 // L, lower triangular, row s at l[s·ld:]
	ld int

	contexts int
	solved   []bool
	nsolved  int           // contexts solved in the round
	groups   []*freshGroup // the solves of the round (streamfresh.go)
	where    []int32       // per fresh context: its group, −1 if none
	bound    []float64     // per fresh context: PrepareArgmax's bound on its largest pair norm
	spare    [][]float64   // storage of past rounds' groups, for reuse
	rows     []float64     // fresh rows × t: rows[x·t+s] = r̃_s[x] (FreshR)
	rowsOK   bool          // rows is up to date
	q        []float64     // contexts × arms × arms
	scratch  []float64
	xrows    []int // scratch: fresh rows of a kernel call
}

// streamUpdate is ψ = φ_i − φ_j (or φ_i when j < 0) with the rows' indices
// into refs.
type streamUpdate struct{ i, j, si, sj int }

// NewStream returns the state for V = reg·I with no fresh contexts. reg must
// be positive and arms at least 1.
func NewStream(k StreamKernel, arms int, reg float64) *Stream {
	if !(reg > 0) {
		panic("gram: regulariser must be positive")
	}
	if arms < 1 {
		panic(fmt.Sprintf("gram: %d arms, need at least 1", arms))
	}
	return &Stream{k: k, arms: arms, reg: reg, slot: map[int]int{}}
}

// Len returns the number of updates t.
func (s *Stream) Len() int { return len(s.ups) }

// Reg returns a.
func (s *Stream) Reg() float64 { return s.reg }

// Arms returns the number of arms K of every fresh context.
func (s *Stream) Arms() int { return s.arms }

// Contexts returns the number of fresh contexts of the round (SetFresh).
func (s *Stream) Contexts() int { return s.contexts }

// Add updates V ← V + ψψᵀ with ψ = φ_i − φ_j for committed rows i ≠ j.
func (s *Stream) Add(i, j int) {
	n := s.k.Committed()
	if i == j || i < 0 || j < 0 || i >= n || j >= n {
		panic(fmt.Sprintf("gram: Stream.Add(%d, %d) needs two distinct committed rows in [0, %d)", i, j, n))
	}
	s.add(i, j)
}

// AddRow updates V ← V + ψψᵀ with ψ = φ_i for a committed row i.
func (s *Stream) AddRow(i int) {
	if n := s.k.Committed(); i < 0 || i >= n {
		panic(fmt.Sprintf("gram: Stream.AddRow(%d) needs a committed row in [0, %d)", i, n))
	}
	s.add(i, -1)
}

func (s *Stream) slotOf(row int) int {
	if row < 0 {
		return -1
	}
	sl, ok := s.slot[row]
	if !ok {
		sl = len(s.refs)
		s.slot[row] = sl
		s.refs = append(s.refs, row)
	}
	return sl
}

// psiOf returns ψᵀ applied to a vector v indexed by slot: v[si] − v[sj], or
// v[si] for a single-row update.
func (u streamUpdate) psiOf(v []float64) float64 {
	if u.sj < 0 {
		return v[u.si]
	}
	return v[u.si] - v[u.sj]
}

// add appends row t of L: ℓ = L⁻¹ Ψᵀψ by forwardCols, L_tt = √(a + ψᵀψ − ℓᵀℓ)
// with ℓᵀℓ one chain of fused multiply–adds (package gemm), so that L is the
// same bits on every path.
func (s *Stream) add(i, j int) {
	u := streamUpdate{i: i, j: j, si: s.slotOf(i), sj: s.slotOf(j)}
	t := len(s.ups)
	nr := len(s.refs)
	rows := []int{i}
	if j >= 0 {
		rows = append(rows, j)
	}
	g := s.buf(len(rows) * nr)
	s.k.CommittedTo(g, rows, s.refs)
	if j >= 0 {
		floats.Sub(g[:nr], g[nr:2*nr]) // g = K(·, refs) ψ over slots
	}
	g = g[:nr]
	s.grow(t + 1)
	row := s.l[t*s.ld : t*s.ld+t+1]
	for p, v := range s.ups {
		row[p] = v.psiOf(g)
	}
	var ll [1]float64
	if t > 0 {
		forwardCols(row, t, 1, s.l, s.ld) // −ℓ
		for p, v := range row[:t] {
			row[p] = -v
		}
		gemm.MulStridedTo(ll[:], 1, row, t, row, 1, 1, t, 1)
	}
	d := s.reg + u.psiOf(g) - ll[0]
	if !(d > 0) {
		panic("gram: a·I + ΨᵀΨ lost positive definiteness in rounding; the regulariser is too small")
	}
	row[t] = math.Sqrt(d)
	s.ups = append(s.ups, u)
	s.invalidate()
	if s.RefreshEvery > 0 && len(s.ups)%s.RefreshEvery == 0 {
		if err := s.Refresh(); err != nil {
			panic(err) // a·I + ΨᵀΨ is positive definite by construction
		}
	}
}

// grow makes room for n rows of L (capacity grows by half, in multiples of 64).
func (s *Stream) grow(n int) {
	if n <= s.ld {
		return
	}
	ld := max((s.ld+s.ld/2+63)/64*64, (n+63)/64*64)
	l := make([]float64, ld*ld)
	for r := range len(s.ups) {
		copy(l[r*ld:r*ld+r+1], s.l[r*s.ld:r*s.ld+r+1])
	}
	s.l, s.ld = l, ld
}

func (s *Stream) buf(n int) []float64 {
	s.scratch = resize(s.scratch, n)
	return s.scratch
}

// refreshChunk is the number of updates whose rows of a·I + ΨᵀΨ Refresh
// builds from one kernel call.
const refreshChunk = 64

// Refresh recomputes L from scratch: the entries ψ_sᵀψ_s′ from the kernel and
// a blocked Cholesky factorisation. It invalidates the fresh blocks.
func (s *Stream) Refresh() error {
	t := len(s.ups)
	if t == 0 {
		return nil
	}
	nr := len(s.refs)
	for s0 := 0; s0 < t; s0 += refreshChunk {
		s1 := min(s0+refreshChunk, t)
		// Rows of K(·, refs) for the (up to two) rows of each update.
		rows := make([]int, 0, 2*(s1-s0))
		for _, u := range s.ups[s0:s1] {
			j := u.j
			if j < 0 {
				j = u.i // unused: keeps two rows per update
			}
			rows = append(rows, u.i, j)
		}
		g := s.buf(len(rows) * nr)
		s.k.CommittedTo(g, rows, s.refs)
		for p := s0; p < s1; p++ {
			u := s.ups[p]
			gi := g[2*(p-s0)*nr : (2*(p-s0)+1)*nr]
			if u.j >= 0 {
				floats.Sub(gi, g[(2*(p-s0)+1)*nr:(2*(p-s0)+2)*nr])
			}
			row := s.l[p*s.ld : p*s.ld+p+1]
			for p2 := range p + 1 {
				row[p2] = s.ups[p2].psiOf(gi)
			}
			row[p] += s.reg
		}
	}
	s.invalidate()
	if _, ok := lapack64.Potrf(blas64.Symmetric{N: t, Stride: s.ld, Data: s.l, Uplo: blas.Lower}); !ok {
		return errors.New("gram: refresh Cholesky failed: a·I + ΨᵀΨ is not positive definite")
	}
	return nil
}

// SetFresh starts a round with the given number of fresh contexts: the
// kernel's fresh rows have been replaced and there must be contexts·Arms of
// them. Every block of the previous round is discarded.
func (s *Stream) SetFresh(contexts int) {
	if n := s.k.Fresh(); contexts < 0 || n != contexts*s.arms {
		panic(fmt.Sprintf("gram: SetFresh(%d): the kernel has %d fresh rows, want %d contexts × %d arms", contexts, n, contexts, s.arms))
	}
	s.contexts = contexts
	s.invalidate()
}
