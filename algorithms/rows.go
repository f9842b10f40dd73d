package algorithms

import "math/rand/v2"

// rowScores keeps a learner's score of every pool row (and the fixed
// tie-break priority of every row for its policy) in step with a pool whose
// committed contexts grow and whose fresh contexts change every round
// (Pool.Generation). In the fixed-pool reading it never recomputes anything.
type rowScores struct {
	pool *Pool
	// S holds the score of every pool row after sync (read only).
	S    []float64
	prio []int32
	gen  uint64
	done int        // committed rows whose scores are current
	rng  *rand.Rand // priorities of rows committed later
	buf  []float64  // rows converted for eval (Pool.Blocks)
}

// newRowScores draws the priorities of the pool's rows from the stream
// (seed, streamPolicy); scores start at 0.
func newRowScores(p *Pool, seed uint64) rowScores {
	rng := NewStream(seed, streamPolicy)
	return rowScores{pool: p, S: make([]float64, p.Rows()), prio: tiePriority(p.Rows(), rng), gen: p.Generation(), done: p.Committed() * p.Arms, rng: rng}
}

// sync recomputes, with eval (which writes the scores of the feature rows x
// into dst), the scores of rows committed since the last sync and of the
// current fresh rows; it does nothing when the pool has not changed.
func (r *rowScores) sync(eval func(dst, x []float64)) {
	p := r.pool
	if p.Generation() == r.gen {
		return
	}
	r.gen = p.Generation()
	rows, committed := p.Rows(), p.Committed()*p.Arms
	r.S = resize(r.S, rows)
	for len(r.prio) < rows {
		r.prio = append(r.prio, int32(r.rng.Uint32()>>1))
	}
	if committed > r.done {
		r.eval(eval, r.done, committed)
		r.done = committed
	}
	if rows > committed {
		r.eval(eval, committed, rows)
	}
}

// refresh recomputes every row's score (after the model changed).
func (r *rowScores) refresh(eval func(dst, x []float64)) {
	r.sync(eval)
	r.eval(eval, 0, r.pool.Rows())
}

// eval writes eval's scores of the pool rows lo … hi−1 into S[lo:hi],
// block by block (Pool.Blocks).
func (r *rowScores) eval(eval func(dst, x []float64), lo, hi int) {
	for start, x := range r.pool.Blocks(lo, hi, &r.buf) {
		eval(r.S[start:start+len(x)/r.pool.Dim], x)
	}
}

// ScoreRows writes s's scores of the pool rows lo … hi−1 into dst
// (allocated if too short) and returns dst[:hi−lo]. It reads the rows
// block by block (Pool.Blocks), so a float32 or mapped pool is never
// converted whole; buf is the conversion buffer (nil: one of its own).
func ScoreRows(dst []float64, s Scorer, p *Pool, lo, hi int, buf *[]float64) []float64 {
	if cap(dst) < hi-lo {
		dst = make([]float64, hi-lo)
	}
	dst = dst[:hi-lo]
	for start, x := range p.Blocks(lo, hi, buf) {
		out := dst[start-lo : start-lo+len(x)/p.Dim]
		if got := s.Score(out, x); len(got) > 0 && &got[0] != &out[0] {
			copy(out, got) // a Scorer that returns a slice of its own
		}
	}
	return dst
}

// policy writes argmax_a score(c,a) for every committed context into dst.
func (r *rowScores) policy(dst []int) []int {
	return PolicyFromScores(dst, r.pool.Committed(), r.pool.Arms, r.S, r.prio)
}

// resize returns s with length n, keeping its values.
func resize(s []float64, n int) []float64 {
	if cap(s) >= n {
		return s[:n]
	}
	return append(s[:cap(s)], make([]float64, n-cap(s))...)
}
