package algorithms

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// rounded32 returns a float64 pool of contexts × arms × d values that are
// exactly representable as float32, and the float32 pool of the same values.
func rounded32(t testing.TB, seed uint64, contexts, arms, d int) (*Pool, *Pool) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 78))
	x := make([]float64, contexts*arms*d)
	x32 := make([]float32, len(x))
	for i := range x {
		x32[i] = float32(2*rng.Float64() - 1)
		x[i] = float64(x32[i])
	}
	p64, err := NewPool(contexts, arms, d, x)
	if err != nil {
		t.Fatal(err)
	}
	p32, err := NewPoolFloat32(contexts, arms, d, x32)
	if err != nil {
		t.Fatal(err)
	}
	return p64, p32
}

func TestPoolRowAccess(t *testing.T) {
	const C, K, d = 5, 3, 2
	p64, p32 := rounded32(t, 1, C, K, d)
	if p64.Float32() || !p32.Float32() || p64.ValueBytes() != 8 || p32.ValueBytes() != 4 {
		t.Fatal("precision reported wrongly")
	}
	all := p64.RowsTo(nil, 0, p64.Rows())
	// float64 rows alias the storage and leave dst alone.
	dst := make([]float64, 4)
	got := p64.RowsTo(dst, 3, 5)
	if &got[0] != &all[3*d] || len(got) != 2*d || cap(got) != 2*d || dst[0] != 0 {
		t.Errorf("float64 RowsTo does not alias the storage")
	}
	// float32 rows are converted into dst, exactly.
	got = p32.RowsTo(dst, 3, 5)
	if &got[0] != &dst[0] || !slices.Equal(got, all[3*d:5*d]) {
		t.Errorf("float32 RowsTo = %v, want %v in dst", got, all[3*d:5*d])
	}
	if got := p32.RowsTo(nil, 0, p32.Rows()); !slices.Equal(got, all) || !p32.Equal(p64) {
		t.Errorf("float32 pool differs from the float64 pool of the same values")
	}
	if got := p32.FeatureTo(nil, 4, 2); !slices.Equal(got, all[(4*K+2)*d:(4*K+3)*d]) {
		t.Errorf("FeatureTo(4, 2) = %v", got)
	}
	if got := p32.AppendRows([]float64{7}, 1, 2); !slices.Equal(got, append([]float64{7}, all[d:2*d]...)) {
		t.Errorf("AppendRows = %v", got)
	}
	// A view renumbers contexts and copies nothing but the list.
	ctxs := []int{4, 0, 1, 3}
	for _, base := range []*Pool{p64, p32} {
		v := base.View(ctxs)
		if !v.IsView() || v.Contexts != 4 || v.Validate() != nil {
			t.Fatalf("view: %d contexts, %v", v.Contexts, v.Validate())
		}
		var want []float64
		for _, c := range ctxs {
			want = append(want, all[c*K*d:(c+1)*K*d]...)
		}
		if got := v.RowsTo(nil, 0, v.Rows()); !slices.Equal(got, want) {
			t.Errorf("view rows %v, want %v", got, want)
		}
		// Rows 3 … 8 are contexts 1 and 2 of the view, stored contiguously (0, 1).
		if !base.Float32() && (!v.Contiguous(3, 9) || v.Contiguous(0, 6) || v.Contiguous(2, 4)) {
			t.Errorf("view contiguity wrong")
		}
		if got := v.RowsTo(nil, 3, 9); !slices.Equal(got, want[3*d:9*d]) || (!base.Float32() && &got[0] != &all[0]) {
			t.Errorf("contiguous rows of a float64 view do not alias the storage")
		}
		vv := v.View([]int{2, 0})
		if got, want := vv.RowsTo(nil, 0, vv.Rows()), append(slices.Clone(all[1*K*d:2*K*d]), all[4*K*d:5*K*d]...); !slices.Equal(got, want) {
			t.Errorf("view of a view %v, want %v", got, want)
		}
	}
	if err := p32.View([]int{0}).SetFresh(nil); err == nil {
		t.Error("a view took fresh contexts")
	}
}

// TestPoolBlocks: Blocks yields contiguous float64 rows at once and other
// rows in blocks of BlockRows counted from lo, covering the range exactly.
func TestPoolBlocks(t *testing.T) {
	p64, p32 := rounded32(t, 2, 1100, 2, 3) // 2,200 rows
	rev := make([]int, p64.Contexts)
	for i := range rev {
		rev[i] = len(rev) - 1 - i
	}
	for _, tc := range []struct {
		name   string
		p      *Pool
		blocks int
	}{{"float64", p64, 1}, {"float32", p32, 3}, {"view", p64.View(rev), 3}} {
		var buf []float64
		lo, hi := 5, 2200
		n, next := 0, lo
		for start, x := range tc.p.Blocks(lo, hi, &buf) {
			if start != next || len(x)%3 != 0 {
				t.Fatalf("%s: block at %d, want %d", tc.name, start, next)
			}
			if want := tc.p.RowsTo(nil, start, start+len(x)/3); !slices.Equal(x, want) {
				t.Fatalf("%s: block at %d has other values", tc.name, start)
			}
			if n < tc.blocks-1 && tc.blocks > 1 && len(x) != BlockRows*3 {
				t.Errorf("%s: block of %d rows", tc.name, len(x)/3)
			}
			next = start + len(x)/3
			n++
		}
		if n != tc.blocks || next != hi {
			t.Errorf("%s: %d blocks ending at %d, want %d ending at %d", tc.name, n, next, tc.blocks, hi)
		}
	}
}

func TestPoolValidateStorage(t *testing.T) {
	x := []float32{1, 2, 3, float32(math.Inf(1)), 5, 6, 7, 8}
	if _, err := NewPoolFloat32(2, 2, 2, x); err == nil || err.Error() != "pool: feature 1 of context 0 arm 1 is +Inf" {
		t.Errorf("NewPoolFloat32: %v", err)
	}
	p, _ := NewPoolFloat32(2, 2, 2, x)
	if err := p.View([]int{1}).Validate(); err != nil {
		t.Errorf("view of the finite context: %v", err)
	}
	if err := p.View([]int{1, 0}).Validate(); err == nil || err.Error() != "pool: feature 1 of context 1 arm 1 is +Inf" {
		t.Errorf("view: %v", err)
	}
	if _, err := NewPool(2, 2, 2, make([]float64, 7)); err == nil {
		t.Error("7 values for 8 accepted")
	}
}

// TestPoolStorageSameRuns: every learner makes the same queries, policy and
// scores, bit for bit, on a float64 pool, on the float32 pool of the same
// values, and on a view selecting its contexts in another order against the
// float64 pool of those contexts copied (so the held-out split, a view,
// changes nothing). The pools have more rows than BlockRows, so the
// converted reads go block by block.
func TestPoolStorageSameRuns(t *testing.T) {
	const C, K, d, T = 110, 10, 4, 40
	p64, p32 := rounded32(t, 3, C, K, d)
	perm := rand.New(rand.NewPCG(3, 79)).Perm(C)
	copied, err := NewPool(C, K, d, p64.View(perm).AppendRows(nil, 0, C*K))
	if err != nil {
		t.Fatal(err)
	}
	theta := []float64{1, -2, 0.5, 1.5}
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			cfg := Default()
			cfg.RetrainEvery = 10
			for _, pair := range [][2]*Pool{{p64, p32}, {copied, p64.View(perm)}} {
				ref, other := pair[0], pair[1]
				a, b := mustNew(t, name, ref, cfg, 5), mustNew(t, name, other, cfg, 5)
				rng := rand.New(rand.NewPCG(5, 80))
				for round := range T {
					qa, qb := a.Select(Offer{}), b.Select(Offer{})
					if qa != qb {
						t.Fatalf("round %d: %+v on the reference pool, %+v on the %s one", round, qa, qb, describe(other))
					}
					y := btAnswer(ref, theta, qa, rng)
					a.Observe(qa, y)
					b.Observe(qb, y)
				}
				if pa, pb := a.Policy(nil), b.Policy(nil); !slices.Equal(pa, pb) {
					t.Fatalf("policies differ on the %s pool", describe(other))
				}
				sa, ok := a.(Scorer)
				if !ok {
					continue
				}
				ha := ScoreRows(nil, sa, ref, 0, ref.Rows(), nil)
				hb := ScoreRows(nil, b.(Scorer), other, 0, other.Rows(), nil)
				for i := range ha {
					if math.Float64bits(ha[i]) != math.Float64bits(hb[i]) {
						t.Fatalf("row %d scores %v on the reference pool, %v on the %s one", i, ha[i], hb[i], describe(other))
					}
				}
			}
		})
	}
}

func describe(p *Pool) string {
	if p.IsView() {
		return "view"
	}
	if p.Float32() {
		return "float32"
	}
	return "float64"
}

func TestFirstNonFinite(t *testing.T) {
	for _, n := range []int{0, 1, 15, 16, 17, 40} {
		for at := -1; at < n; at++ {
			for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
				x := make([]float64, n)
				x32 := make([]float32, n)
				for i := range x {
					x[i] = float64(i) * -1e300 // finite, some huge
					x32[i] = float32(i) * 3e36
				}
				if at >= 0 {
					x[at], x32[at] = bad, float32(bad)
				}
				if got := firstNonFinite64(x); got != at {
					t.Errorf("float64 n %d, %v at %d: got %d", n, bad, at, got)
				}
				if got := firstNonFinite32(x32); got != at {
					t.Errorf("float32 n %d, %v at %d: got %d", n, bad, at, got)
				}
			}
		}
	}
}

// TestPoolOptions: the constructors' single pass finds every column's
// largest |x| and reports the blocks it checked, in order and covering the
// storage; rows are converted through Read when it reads them (the same
// values), else from the storage; a checked pool is not read again by
// Validate, and its views inherit that.
func TestPoolOptions(t *testing.T) {
	const C, K, d = 300, 5, 3 // blocks of 204 contexts: two of them
	p64, p32 := rounded32(t, 3, C, K, d)
	x := p64.RowsTo(nil, 0, p64.Rows())
	want := make([]float64, d)
	for i, v := range x {
		want[i%d] = max(want[i%d], math.Abs(v))
	}
	x32 := make([]float32, len(x))
	for i, v := range x {
		x32[i] = float32(v)
	}
	for _, f32 := range []bool{false, true} {
		var blocks [][2]int
		reads := 0
		o := PoolOptions{
			ColumnMax: make([]float64, d),
			Checked:   func(lo, hi int) { blocks = append(blocks, [2]int{lo, hi}) },
			Read: func(dst []float64, lo, hi int) bool {
				reads++
				if reads%2 == 0 {
					return false // converted from the storage instead
				}
				copy(dst, x[lo:hi])
				return true
			},
		}
		var p *Pool
		var err error
		if f32 {
			p, err = NewPoolFloat32With(C, K, d, x32, o)
		} else {
			p, err = NewPoolWith(C, K, d, slices.Clone(x), o)
		}
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(o.ColumnMax, want) {
			t.Errorf("float32 %v: column maxima %v, want %v", f32, o.ColumnMax, want)
		}
		if step := BlockRows / K * K * d; !slices.Equal(blocks, [][2]int{{0, step}, {step, C * K * d}}) {
			t.Errorf("float32 %v: blocks %v", f32, blocks)
		}
		if !p.Equal(p32) {
			t.Errorf("float32 %v: pool differs", f32)
		}
		v := p.View([]int{7, 2, 299})
		for n := range 4 {
			got := v.RowsTo(nil, 0, v.Rows())
			if !slices.Equal(got, slices.Concat(x[7*K*d:8*K*d], x[2*K*d:3*K*d], x[299*K*d:300*K*d])) {
				t.Errorf("float32 %v: view rows differ (read %d)", f32, n)
			}
		}
		if f32 && reads == 0 {
			t.Errorf("float32: Read never called")
		}
		if !p.finite || !v.finite {
			t.Errorf("float32 %v: checked pool or its view not marked finite", f32)
		}
	}
	if _, err := NewPoolFloat32With(2, 2, 2, []float32{1, 2, 3, float32(math.NaN()), 5, 6, 7, 8}, PoolOptions{ColumnMax: make([]float64, 2)}); err == nil || err.Error() != "pool: feature 1 of context 0 arm 1 is NaN" {
		t.Errorf("NaN: %v", err)
	}
}
