package algorithms

import (
	"fmt"
	"iter"
	"math"
	"slices"
)

// Pool is what a learner may see of a problem (paper Section 2): Contexts
// contexts, each with Arms arms, and the feature vector x_{c,a} = φ(c,a) ∈
// R^Dim of every (context, arm). It never holds rewards.
//
// # Storage and row access
//
// Row n = c·Arms + a holds x_{c,a}. The rows are stored in the precision they
// came in — float64 (NewPool) or float32 (NewPoolFloat32), in memory or in a
// read-only memory-mapped file — and possibly through a view that selects
// and renumbers contexts of another pool (View), so that a held-out split
// copies nothing. They are read only through the row-access methods, which
// convert to float64 on demand, destination first:
//
//	RowsTo(dst, lo, hi)   rows lo … hi−1, row after row
//	RowTo(dst, n)         row n
//	FeatureTo(dst, c, a)  x_{c,a}
//	AppendRows(dst, lo, hi)
//	Blocks(lo, hi, &buf)  rows lo … hi−1 block by block (an iterator)
//
// When the rows asked for lie contiguously in float64 storage (Contiguous),
// RowsTo, RowTo and FeatureTo return a slice of the storage itself and never
// touch dst: the result is read only, and it is how a dense in-memory pool
// stays as fast as a plain slice. Otherwise the values are converted into
// dst (grown when too short). float32 → float64 conversion is exact, so a
// float32 pool behaves exactly as the float64 pool of the same values.
// Blocks yields the whole range at once when it is contiguous float64, else
// consecutive blocks of BlockRows rows counted from lo, so that a consumer
// that itself works in chunks of a divisor of BlockRows (mlp.Net.Predict
// works in chunks of 1,024 rows) sees the same chunks either way.
//
// The storage is never written through a Pool: a caller that hands a slice to
// NewPool or NewPoolFloat32 must not change it afterwards (a mapped file is
// read only anyway).
//
// # Fresh contexts
//
// In the paper's fixed-pool reading the contexts never change. In the
// fresh-context reading the experimenter draws new candidate contexts every
// round: the last Fresh() contexts of the pool are this round's candidates
// (SetFresh), and after the answer the queried one is kept as the next
// committed context and the others are dropped (Commit). Committed contexts
// never change; fresh ones change every round, so a learner recomputes
// whatever it keeps about them whenever Generation changes. Only a pool with
// in-memory float64 storage and no view takes fresh contexts.
type Pool struct {
	Contexts int // contexts visible now: Committed() committed ones, then Fresh() fresh ones
	Arms     int // K ≥ 2
	Dim      int // d ≥ 1

	f64 []float64 // float64 storage (nil for a float32 pool)
	f32 []float32 // float32 storage (nil for a float64 pool)
	// ctx maps pool context c to storage context ctx[c] (a view); nil: the
	// identity.
	ctx []int32

	fresh int
	gen   uint64
	// finite: a pass over the values found every stored value finite (the
	// storage is never written through a Pool, and SetFresh checks what it
	// adds), so Validate checks the shape only and does not read every
	// value again (which would map a released file's pages back in).
	finite bool
	read   func(dst []float64, lo, hi int) bool // PoolOptions.Read
}

// BlockRows is the number of rows Pool.Blocks yields at a time when it
// converts: 1,024 rows (8 MB at d = 1,024).
const BlockRows = 1024

// NewPool checks and wraps float64 feature rows (contexts·arms rows of dim
// values, row n = c·arms + a). The pool aliases x: do not change x afterwards.
func NewPool(contexts, arms, dim int, x []float64) (*Pool, error) {
	return NewPoolWith(contexts, arms, dim, x, PoolOptions{})
}

// NewPoolFloat32 checks and wraps float32 feature rows, laid out as for
// NewPool; they stay float32 and are converted when read. The pool aliases
// x (typically a memory-mapped file): do not change x afterwards.
func NewPoolFloat32(contexts, arms, dim int, x []float32) (*Pool, error) {
	return NewPoolFloat32With(contexts, arms, dim, x, PoolOptions{})
}

// PoolOptions are what a pool whose values alias a read-only file mapping
// (a pool directory's features.npy, internal/poolfile) can use so that the
// file's pages do not stay in the process's resident set: the
// constructor's pass over the values (the check that they are finite)
// does more in the same single pass, and converted rows can be read
// through the file instead of the mapping. With large page-cache folios
// (Linux 6.18 on ext4) reading one 32 kB context through the mapping
// mapped up to megabytes around it, so that 20,000 random contexts of a
// 3.3 GB pool mapped nearly all of it.
type PoolOptions struct {
	// ColumnMax, when not nil (Dim values, zero on entry), receives the
	// largest absolute value of every feature: what poolfile.CheckScale
	// would otherwise read the whole pool again for.
	ColumnMax []float64
	// Checked, when not nil, is called after each block of stored values
	// lo … hi−1 (indices into the storage, in order, whole contexts of
	// about BlockRows rows) has been checked: the caller lets the block's
	// pages go (npy.Array.Release).
	Checked func(lo, hi int)
	// Read, when not nil, reads the stored values lo … hi−1 as float64
	// into dst (hi − lo values; the same values the storage holds) for
	// every conversion of rows (RowsTo and the methods built on it when
	// the rows are not contiguous float64); it reports false when it could
	// not, and the rows are then converted from the storage.
	Read func(dst []float64, lo, hi int) bool
}

// NewPoolWith is NewPool with options o.
func NewPoolWith(contexts, arms, dim int, x []float64, o PoolOptions) (*Pool, error) {
	p := &Pool{Contexts: contexts, Arms: arms, Dim: dim, f64: x, read: o.Read}
	return p, p.validate(o)
}

// NewPoolFloat32With is NewPoolFloat32 with options o.
func NewPoolFloat32With(contexts, arms, dim int, x []float32, o PoolOptions) (*Pool, error) {
	if x == nil {
		x = []float32{}
	}
	p := &Pool{Contexts: contexts, Arms: arms, Dim: dim, f32: x, read: o.Read}
	return p, p.validate(o)
}

// Float32 reports whether the pool's rows are stored as float32.
func (p *Pool) Float32() bool { return p.f32 != nil }

// ValueBytes returns the bytes of one stored feature value: 4 or 8.
func (p *Pool) ValueBytes() int {
	if p.Float32() {
		return 4
	}
	return 8
}

// IsView reports whether the pool is a view of some contexts of another
// pool's storage (View).
func (p *Pool) IsView() bool { return p.ctx != nil }

// stored returns the number of values of the storage.
func (p *Pool) stored() int {
	if p.f32 != nil {
		return len(p.f32)
	}
	return len(p.f64)
}

// Committed returns the number of contexts that stay (all of them in the
// fixed-pool reading); they are contexts 0 … Committed()−1.
func (p *Pool) Committed() int { return p.Contexts - p.fresh }

// Fresh returns the number of this round's fresh candidate contexts (0 in
// the fixed-pool reading): contexts Committed() … Contexts−1.
func (p *Pool) Fresh() int { return p.fresh }

// Generation changes whenever rows of the pool change (SetFresh, Commit), so
// that a learner can tell when to recompute what it keeps per row.
func (p *Pool) Generation() uint64 { return p.gen }

// takesFresh returns an error unless the pool can take fresh contexts.
func (p *Pool) takesFresh() error {
	if p.f32 != nil || p.ctx != nil {
		return fmt.Errorf("algorithms: fresh contexts need a pool with in-memory float64 rows, not a float32 pool or a view")
	}
	return nil
}

// SetFresh replaces the fresh contexts with the rows of x (a whole number of
// contexts of Arms rows of Dim features, all finite).
func (p *Pool) SetFresh(x []float64) error {
	if err := p.takesFresh(); err != nil {
		return err
	}
	per := p.Arms * p.Dim
	if len(x)%per != 0 {
		return fmt.Errorf("algorithms: %d fresh feature values are not whole contexts of %d arms × %d dims", len(x), p.Arms, p.Dim)
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("algorithms: fresh feature %d is %v", i, v)
		}
	}
	c := p.Committed()
	p.f64 = append(p.f64[:c*per], x...)
	p.fresh = len(x) / per
	p.Contexts = c + p.fresh
	p.gen++
	return nil
}

// Commit keeps the fresh context c as committed context Committed() (its
// rows move there) and drops the other fresh contexts. It returns the
// committed index.
func (p *Pool) Commit(c int) (int, error) {
	first := p.Committed()
	if c < first || c >= p.Contexts {
		return 0, fmt.Errorf("algorithms: context %d is not fresh (fresh contexts are %d … %d)", c, first, p.Contexts-1)
	}
	per := p.Arms * p.Dim
	copy(p.f64[first*per:(first+1)*per], p.f64[c*per:(c+1)*per])
	p.f64 = p.f64[:(first+1)*per]
	p.fresh = 0
	p.Contexts = first + 1
	p.gen++
	return first, nil
}

// View returns the pool of the contexts ctxs of p (context i of the view is
// context ctxs[i] of p), sharing p's storage: nothing is copied but the
// list. p must have no fresh contexts.
func (p *Pool) View(ctxs []int) *Pool {
	if p.fresh > 0 {
		panic("algorithms: View of a pool with fresh contexts")
	}
	v := &Pool{Contexts: len(ctxs), Arms: p.Arms, Dim: p.Dim, f64: p.f64, f32: p.f32, ctx: make([]int32, len(ctxs)), finite: p.finite, read: p.read}
	for i, c := range ctxs {
		if c < 0 || c >= p.Contexts {
			panic(fmt.Sprintf("algorithms: View of context %d of a pool of %d", c, p.Contexts))
		}
		v.ctx[i] = int32(p.storageContext(c))
	}
	return v
}

// storageContext returns the storage context of pool context c.
func (p *Pool) storageContext(c int) int {
	if p.ctx == nil {
		return c
	}
	return int(p.ctx[c])
}

// Validate reports the first problem with the pool's shape or values. The
// values are read once: a pool whose values a constructor (or an earlier
// Validate) found finite has its shape checked only.
func (p *Pool) Validate() error { return p.validate(PoolOptions{}) }

// validate is Validate, with o's ColumnMax and Checked done in the pass
// over the values (a pool not yet found finite, not a view).
func (p *Pool) validate(o PoolOptions) error {
	n := p.Contexts * p.Arms * p.Dim
	switch {
	case p.Contexts < 1:
		return fmt.Errorf("pool: %d contexts, need at least 1 (fresh ones count)", p.Contexts)
	case p.Arms < 2:
		return fmt.Errorf("pool: %d arms per context, need K ≥ 2 to form a duel", p.Arms)
	case p.Dim < 1:
		return fmt.Errorf("pool: feature dimension %d, need d ≥ 1", p.Dim)
	case p.ctx == nil && p.stored() != n:
		return fmt.Errorf("pool: %d feature values, want %d contexts × %d arms × %d dims = %d",
			p.stored(), p.Contexts, p.Arms, p.Dim, n)
	case p.ctx != nil && len(p.ctx) != p.Contexts:
		return fmt.Errorf("pool: a view of %d contexts for %d contexts", len(p.ctx), p.Contexts)
	}
	per := p.Arms * p.Dim
	if p.ctx == nil {
		if p.finite && o.ColumnMax == nil {
			return nil
		}
		if err := p.scan(o); err != nil {
			return err
		}
		p.finite = true
		return nil
	}
	for c := range p.Contexts {
		sc := p.storageContext(c)
		if sc < 0 || (sc+1)*per > p.stored() {
			return fmt.Errorf("pool: context %d of the view is beyond the %d stored feature values", c, p.stored())
		}
		if p.finite {
			continue
		}
		if err := p.checkFinite(sc, sc+1, c); err != nil {
			return err
		}
	}
	if !p.finite { // written once: a checked pool may be validated from several goroutines
		p.finite = true
	}
	return nil
}

// scan checks the values of a pool that is not a view (storage context c
// is pool context c), doing what o asks: at once when it asks nothing,
// else block by block.
func (p *Pool) scan(o PoolOptions) error {
	if o.ColumnMax == nil && o.Checked == nil {
		return p.checkFinite(0, p.Contexts, 0)
	}
	per := p.Arms * p.Dim
	step := max(1, BlockRows/p.Arms) // contexts per block
	for c0 := 0; c0 < p.Contexts; c0 += step {
		c1 := min(p.Contexts, c0+step)
		if err := p.checkFinite(c0, c1, c0); err != nil {
			return err
		}
		if o.ColumnMax != nil {
			if p.f32 != nil {
				columnMax(o.ColumnMax, p.f32[c0*per:c1*per])
			} else {
				columnMax(o.ColumnMax, p.f64[c0*per:c1*per])
			}
		}
		if o.Checked != nil {
			o.Checked(c0*per, c1*per)
		}
	}
	return nil
}

// columnMax raises cm[j] to |x_j| for every row of x (len(cm) values per
// row).
func columnMax[T float32 | float64](cm []float64, x []T) {
	d := len(cm)
	for r := 0; r+d <= len(x); r += d {
		for j, v := range x[r : r+d] {
			if a := math.Abs(float64(v)); a > cm[j] {
				cm[j] = a
			}
		}
	}
}

// checkFinite reports the first value of storage contexts s0 … s1−1 that
// is not finite, naming it as a feature of pool context c0 + (s − s0).
func (p *Pool) checkFinite(s0, s1, c0 int) error {
	per := p.Arms * p.Dim
	i := -1
	if p.f32 != nil {
		i = firstNonFinite32(p.f32[s0*per : s1*per])
	} else {
		i = firstNonFinite64(p.f64[s0*per : s1*per])
	}
	if i < 0 {
		return nil
	}
	var v float64
	if p.f32 != nil {
		v = float64(p.f32[s0*per+i])
	} else {
		v = p.f64[s0*per+i]
	}
	k := i / p.Dim
	return fmt.Errorf("pool: feature %d of context %d arm %d is %v", i%p.Dim, c0+k/p.Arms, k%p.Arms, v)
}

// firstNonFinite32 returns the index of the first NaN or ±Inf of x (all
// exponent bits set), or −1. It tests blocks of 16 values without a branch
// per value: adding one to an exponent field that is all ones carries into
// the sign bit, and only then (a pool is scanned at 1 ns per 4–8 values).
func firstNonFinite32(x []float32) int {
	const exp, one, carry = 0x7f800000, 0x00800000, 0x80000000
	i := 0
	for ; i+16 <= len(x); i += 16 {
		var acc uint32
		for _, v := range x[i : i+16] {
			acc |= math.Float32bits(v)&exp + one
		}
		if acc&carry != 0 {
			break
		}
	}
	for ; i < len(x); i++ {
		if math.Float32bits(x[i])&exp == exp {
			return i
		}
	}
	return -1
}

// firstNonFinite64 is firstNonFinite32 for float64 values.
func firstNonFinite64(x []float64) int {
	const exp, one, carry = 0x7ff0000000000000, 0x0010000000000000, 0x8000000000000000
	i := 0
	for ; i+16 <= len(x); i += 16 {
		var acc uint64
		for _, v := range x[i : i+16] {
			acc |= math.Float64bits(v)&exp + one
		}
		if acc&carry != 0 {
			break
		}
	}
	for ; i < len(x); i++ {
		if math.Float64bits(x[i])&exp == exp {
			return i
		}
	}
	return -1
}

// Rows returns Contexts·Arms.
func (p *Pool) Rows() int { return p.Contexts * p.Arms }

// Row returns the row index n = c·Arms + a of (context c, arm a).
func (p *Pool) Row(c, a int) int { return c*p.Arms + a }

// Contiguous reports whether the rows lo … hi−1 lie contiguously in float64
// storage, so that RowsTo returns them without copying.
func (p *Pool) Contiguous(lo, hi int) bool {
	if p.f32 != nil {
		return false
	}
	if p.ctx == nil || hi-lo <= 0 {
		return true
	}
	K := p.Arms
	c0, c1 := lo/K, (hi-1)/K
	for c := c0; c < c1; c++ {
		if p.ctx[c+1] != p.ctx[c]+1 {
			return false
		}
	}
	return true
}

// checkRows panics unless 0 ≤ lo ≤ hi ≤ Rows().
func (p *Pool) checkRows(lo, hi int) {
	if lo < 0 || hi < lo || hi > p.Rows() {
		panic(fmt.Sprintf("algorithms: rows %d … %d of a pool of %d rows", lo, hi-1, p.Rows()))
	}
}

// RowsTo returns the feature rows lo … hi−1 as float64, (hi−lo)·Dim values
// row after row. When they lie contiguously in float64 storage (Contiguous)
// the result is the storage itself (read only) and dst is not used;
// otherwise they are converted into dst, grown when shorter than needed,
// and the result is dst[:(hi−lo)·Dim].
func (p *Pool) RowsTo(dst []float64, lo, hi int) []float64 {
	p.checkRows(lo, hi)
	d := p.Dim
	if p.Contiguous(lo, hi) {
		s := p.storageContext(lo/p.Arms)*p.Arms + lo%p.Arms
		if hi == lo {
			return p.f64[:0:0]
		}
		return p.f64[s*d : (s+hi-lo)*d : (s+hi-lo)*d]
	}
	n := (hi - lo) * d
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	p.convert(dst, lo, hi)
	return dst
}

// convert writes rows lo … hi−1 into dst, context segment by context
// segment.
func (p *Pool) convert(dst []float64, lo, hi int) {
	K, d := p.Arms, p.Dim
	for n := lo; n < hi; {
		c := n / K
		end := min(hi, (c+1)*K)
		s := p.storageContext(c)*K + n%K
		out := dst[(n-lo)*d : (end-lo)*d]
		switch {
		case p.read != nil && p.read(out, s*d, s*d+len(out)):
		case p.f32 != nil:
			for i, v := range p.f32[s*d : s*d+len(out)] {
				out[i] = float64(v)
			}
		default:
			copy(out, p.f64[s*d:s*d+len(out)])
		}
		n = end
	}
}

// RowTo returns row n as float64 (RowsTo(dst, n, n+1)).
func (p *Pool) RowTo(dst []float64, n int) []float64 { return p.RowsTo(dst, n, n+1) }

// FeatureTo returns x_{c,a} as float64 (RowTo(dst, Row(c, a))).
func (p *Pool) FeatureTo(dst []float64, c, a int) []float64 {
	if c < 0 || c >= p.Contexts || a < 0 || a >= p.Arms {
		panic(fmt.Sprintf("algorithms: feature of context %d arm %d of a pool of %d × %d", c, a, p.Contexts, p.Arms))
	}
	return p.RowTo(dst, p.Row(c, a))
}

// Feature returns x_{c,a} (read only): the storage itself for float64
// rows, a new slice otherwise (FeatureTo reuses a destination instead).
func (p *Pool) Feature(c, a int) []float64 { return p.FeatureTo(nil, c, a) }

// AppendRows appends the rows lo … hi−1, as float64, to dst and returns it
// (always a copy).
func (p *Pool) AppendRows(dst []float64, lo, hi int) []float64 {
	p.checkRows(lo, hi)
	n := len(dst)
	dst = slices.Grow(dst, (hi-lo)*p.Dim)[:n+(hi-lo)*p.Dim]
	p.convert(dst[n:], lo, hi)
	return dst
}

// Blocks returns an iterator over the rows lo … hi−1 as float64 blocks:
// each step yields the first row of the block and its rows (read only,
// valid until the next step). Contiguous float64 rows come as one block
// (the storage itself); other rows as consecutive blocks of BlockRows rows
// from lo (the last one shorter), converted into *buf, which is grown as
// needed and may be reused across calls (nil: a buffer of its own).
func (p *Pool) Blocks(lo, hi int, buf *[]float64) iter.Seq2[int, []float64] {
	p.checkRows(lo, hi)
	if buf == nil {
		buf = new([]float64)
	}
	return func(yield func(int, []float64) bool) {
		if lo == hi {
			return
		}
		if p.Contiguous(lo, hi) {
			yield(lo, p.RowsTo(nil, lo, hi))
			return
		}
		for start := lo; start < hi; start += BlockRows {
			end := min(hi, start+BlockRows)
			*buf = p.RowsTo(*buf, start, end)
			if !yield(start, *buf) {
				return
			}
		}
	}
}

// Equal reports whether p and q have the same shape, fresh contexts and
// feature values (as float64), however they are stored.
func (p *Pool) Equal(q *Pool) bool {
	if p == nil || q == nil {
		return p == q
	}
	if p.Contexts != q.Contexts || p.Arms != q.Arms || p.Dim != q.Dim || p.fresh != q.fresh {
		return false
	}
	var bp, bq []float64
	for n := 0; n < p.Rows(); n += BlockRows {
		end := min(p.Rows(), n+BlockRows)
		bp, bq = p.RowsTo(bp, n, end), q.RowsTo(bq, n, end)
		if !slices.Equal(bp, bq) {
			return false
		}
	}
	return true
}

// Query is a triple (c_t, a_{t,1}, a_{t,2}) put to the labeller.
type Query struct {
	Context, Arm1, Arm2 int
}

// Validate reports whether q is a valid duel in p: context in the pool, arms in
// range and distinct.
func (q Query) Validate(p *Pool) error {
	switch {
	case q.Context < 0 || q.Context >= p.Contexts:
		return fmt.Errorf("query context %d outside [0, %d)", q.Context, p.Contexts)
	case q.Arm1 < 0 || q.Arm1 >= p.Arms || q.Arm2 < 0 || q.Arm2 >= p.Arms:
		return fmt.Errorf("query arms (%d, %d) outside [0, %d)", q.Arm1, q.Arm2, p.Arms)
	case q.Arm1 == q.Arm2:
		return fmt.Errorf("query duels arm %d with itself", q.Arm1)
	}
	return nil
}

// Feedback is the labeller's answer y_t: Arm1Won (y = 1) or Arm2Won (y = 0).
type Feedback int

// Feedback values, y_t = 1[a_{t,1} ≻ a_{t,2}].
const (
	Arm2Won Feedback = 0
	Arm1Won Feedback = 1
)

// WinnerLoser returns the winning and losing arms of q under y.
func (q Query) WinnerLoser(y Feedback) (win, lose int) {
	if y == Arm1Won {
		return q.Arm1, q.Arm2
	}
	return q.Arm2, q.Arm1
}
