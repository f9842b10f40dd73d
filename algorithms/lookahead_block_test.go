package algorithms

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/neural-adb/nadb/internal/gram"
)

// TestLookaheadBlockBits: the block the lookahead rule reads, kept by
// updating only the slots' columns and filling a changed slot's row and
// column from one full row, and lookaheadRows' full rows equal bit for bit
// M's rows updated one update after the other over all columns, round after
// round: slots kept,
// changed (one arm or both, or every slot), pairs added and dropped, several
// updates or none between rounds, and after an update with a zero entry
// (lookaheadRows.asym), when every slot takes its full row.
func TestLookaheadBlockBits(t *testing.T) {
	const n = 37
	rng := rand.New(rand.NewPCG(5, 6))
	k := &gram.Dense{N: n, Data: make([]float64, n*n)}
	for i := range n {
		for j := i; j < n; j++ {
			v := rng.NormFloat64()
			k.Data[i*n+j], k.Data[j*n+i] = v, v
		}
	}
	const reg = 0.7
	r := newLookaheadRows(k, reg)
	var hist [][]float64
	// full is row i of M by the definition, one update after the other.
	full := func(i int) []float64 {
		m := make([]float64, n)
		for j := range m {
			m[j] = k.Data[i*n+j] * (1 / reg)
		}
		for _, h := range hist {
			if a := -h[i]; a != 0 {
				for j := range m {
					m[j] += float64(a * h[j])
				}
			}
		}
		return m
	}
	var b lookaheadBlock
	pairs := make([][2]int, 6, 9)
	for i := range pairs {
		pairs[i] = [2]int{rng.IntN(n), rng.IntN(n)}
	}
	for round := range 60 {
		for range []int{1, 0, 1, 2, 1, 3}[round%6] {
			h := make([]float64, n)
			for i := range h {
				h[i] = 0.3 * rng.NormFloat64()
			}
			if round == 45 { // from here on every slot takes its full row
				h[3] = 0
			}
			r.push(h)
			hist = append(hist, h)
		}
		switch {
		case round%17 == 5: // another number of pairs: every slot new
			pairs = pairs[:2+rng.IntN(cap(pairs)-1)]
			for i := range pairs {
				pairs[i] = [2]int{rng.IntN(n), rng.IntN(n)}
			}
		default:
			for i := range pairs {
				switch rng.IntN(6) {
				case 0:
					pairs[i][0] = rng.IntN(n)
				case 1:
					pairs[i][1] = rng.IntN(n)
				case 2:
					pairs[i] = [2]int{rng.IntN(n), rng.IntN(n)}
				}
			}
		}
		if r.asym != (round >= 45) {
			t.Fatalf("round %d: asym %v", round, r.asym)
		}
		w := b.update(r, pairs)
		m := 2 * len(pairs)
		if len(w) != m*m {
			t.Fatalf("round %d: block of %d entries, want %d", round, len(w), m*m)
		}
		for p := range m {
			i := pairs[p/2][p%2]
			row := full(i)
			if got := r.row(i); !slices.EqualFunc(got, row, sameBits) {
				t.Fatalf("round %d: lookaheadRows' row %d differs from M's", round, i)
			}
			for q := range m {
				j := pairs[q/2][q%2]
				if got, want := w[p*m+q], row[j]; math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("round %d: block[%d][%d] = M[%d][%d] = %v, full row has %v", round, p, q, i, j, got, want)
				}
			}
		}
		score, want := make([]float64, len(pairs)), make([]float64, len(pairs))
		lookaheadScore(score, w)
		for i, p := range pairs {
			ri, rj := full(p[0]), full(p[1])
			q := ri[p[0]] + rj[p[1]] - ri[p[1]] - rj[p[0]]
			s := 0.0
			for _, u := range pairs {
				x := ri[u[0]] - ri[u[1]] - rj[u[0]] + rj[u[1]]
				s += x * x
			}
			want[i] = s / (1 + q)
		}
		for i := range score {
			if math.Float64bits(score[i]) != math.Float64bits(want[i]) {
				t.Fatalf("round %d: score[%d] = %v from the block, %v from full rows", round, i, score[i], want[i])
			}
		}
	}
}

func sameBits(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// TestLookaheadAsymmetric: an update with a zero, infinite or NaN entry marks
// the kept rows asymmetric, after which the block takes every entry from its
// own full row: with K0[0][1] = −0, r̃[0] = 0 and r̃[1] < 0 the full rows
// hold M[0][1] = −0 (the update skipped) but M[1][0] = +0.
func TestLookaheadAsymmetric(t *testing.T) {
	negZero := math.Copysign(0, -1)
	k := &gram.Dense{N: 2, Data: []float64{2, negZero, negZero, 2}}
	r := newLookaheadRows(k, 1)
	var b lookaheadBlock
	pairs := [][2]int{{0, 1}}
	b.update(r, pairs)
	r.push([]float64{0, -0.5})
	w := b.update(r, pairs)
	for p := range 2 {
		row := r.row(p)
		for q := range 2 {
			if math.Float64bits(w[p*2+q]) != math.Float64bits(row[q]) {
				t.Errorf("block[%d][%d] = %v, full row has %v", p, q, w[p*2+q], row[q])
			}
		}
	}
	if m01, m10 := r.row(0)[1], r.row(1)[0]; !math.Signbit(m01) || math.Signbit(m10) {
		t.Errorf("M[0][1] = %v, M[1][0] = %v: the case does not exercise the asymmetry", m01, m10)
	}

	for _, v := range []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN()} {
		k := &gram.Dense{N: 3, Data: []float64{2, 1, 0, 1, 2, 1, 0, 1, 2}}
		r := newLookaheadRows(k, 1)
		r.push([]float64{0.5, 0.25, 0.125})
		if r.asym {
			t.Fatalf("asymmetric after an update without %v", v)
		}
		r.push([]float64{0.5, v, 0.125})
		if !r.asym {
			t.Errorf("an update with %v did not mark the rows asymmetric", v)
		}
	}
}

// TestLookaheadBlockQueries: the lookahead learners choose the same duels
// when they read the block as when they read the full rows (rows.asym set
// from the start), for both arm rules, with every context offered and with
// a random subset of contexts per round.
func TestLookaheadBlockQueries(t *testing.T) {
	for _, thompson := range []bool{false, true} {
		for _, consider := range []int{0, 4} {
			pool := smallPool(t, 3, 12, 4, 3)
			cfg := Default()
			cfg.Width, cfg.RetrainEvery = 16, 4
			var ls [2]*NeuralADBLookahead
			for v := range ls {
				l, err := NewNeuralADBLookahead(Env{Pool: pool, Config: cfg, Seed: 7}, thompson)
				if err != nil {
					t.Fatal(err)
				}
				ls[v] = l
			}
			ls[1].rows.asym = true
			offers := rand.New(rand.NewPCG(8, 9))
			for round := range 40 {
				o := Offer{}
				if consider > 0 {
					o.Contexts = offers.Perm(pool.Contexts)[:consider]
					slices.Sort(o.Contexts)
				}
				q0, q1 := ls[0].Select(o), ls[1].Select(o)
				if q0 != q1 {
					t.Fatalf("thompson %v, consider %d, round %d: block chose %+v, full rows %+v", thompson, consider, round, q0, q1)
				}
				ls[0].Observe(q0, answer(round))
				ls[1].Observe(q1, answer(round))
			}
			if ls[0].rows.asym {
				t.Errorf("thompson %v: the block path fell back to full rows (an update had a zero entry): the test compares nothing", thompson)
			}
		}
	}
}

// BenchmarkLookaheadScore: one round's score of 300 pairs from their block.
func BenchmarkLookaheadScore(b *testing.B) {
	const np = 300
	rng := rand.New(rand.NewPCG(1, 2))
	w := make([]float64, 4*np*np)
	for i := range w {
		w[i] = rng.NormFloat64()
	}
	score := make([]float64, np)
	for b.Loop() {
		lookaheadScore(score, w)
	}
}
