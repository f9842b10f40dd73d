package algorithms

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// targetPool is a pool of C contexts × K arms in the disjoint encoding of
// f features and a constant (mostly zeros), with a hidden linear utility.
func targetPool(t *testing.T, C, K, f int, seed uint64) (*Pool, []float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 9))
	d := K * (f + 1)
	x := make([]float64, C*K*d)
	theta := make([]float64, d)
	for i := range theta {
		theta[i] = rng.NormFloat64()
	}
	util := make([]float64, C*K)
	for c := range C {
		feat := make([]float64, f)
		for j := range feat {
			feat[j] = rng.NormFloat64()
		}
		for a := range K {
			row := x[(c*K+a)*d : (c*K+a+1)*d]
			copy(row[a*(f+1):], feat)
			row[a*(f+1)+f] = 1
			for j, v := range row {
				util[c*K+a] += v * theta[j]
			}
		}
	}
	p, err := NewPool(C, K, d, x)
	if err != nil {
		t.Fatal(err)
	}
	return p, util
}

// perturbedTGNet returns a sparse 5×6 pool (targetPool), the default
// configuration, the first member's network of a neural-adb-target model on
// it with its parameters moved by 0.1·N(0, 1) (drawn from a PCG stream of
// seed, which it returns for further draws), and every pool row as tgRows.
func perturbedTGNet(t *testing.T, seed uint64) (*Pool, Config, *tgNet, *tgRows, *rand.Rand) {
	t.Helper()
	p, _ := targetPool(t, 5, 6, 3, 1)
	cfg := Default()
	m, err := newTGModel(Env{Pool: p, Config: cfg, Seed: 3}, DefaultTargetOptions())
	if err != nil {
		t.Fatal(err)
	}
	net := &m.members[0].net
	rng := rand.New(rand.NewPCG(seed, seed))
	for i := range net.net.Theta {
		net.net.Theta[i] += 0.1 * rng.NormFloat64()
	}
	net.net.SetTheta(net.net.Theta)
	net.syncT()
	rows := newTGRows(p.Dim)
	for n := range p.Rows() {
		rows.add(p.RowTo(nil, n))
	}
	return p, cfg, net, rows, rng
}

// TestTargetSparseFirstLayer: the first layer through the non-zeros gives
// the dense product's outputs and gradient (to rounding).
func TestTargetSparseFirstLayer(t *testing.T) {
	p, cfg, net, rows, rng := perturbedTGNet(t, 4)
	if rows.denseEnough() {
		t.Fatal("the disjoint pool should be sparse")
	}
	var sb tgBatch
	net.forward(rows, nil, &sb)
	// Dense reference: the same batch with every stored value.
	// (every row full: its columns are cols).
	dense := newTGRows(rows.dim)
	for n := range p.Rows() {
		dense.iptr = append(dense.iptr, int32(len(dense.idx)))
		dense.val = append(dense.val, p.RowTo(nil, n)...)
		dense.ptr = append(dense.ptr, int32(len(dense.val)))
	}
	var db tgBatch
	net.forward(dense, nil, &db)
	c := make([]float64, sb.rows)
	for i := range c {
		c[i] = rng.NormFloat64()
	}
	gs, gd := make([]float64, len(net.net.Theta)), make([]float64, len(net.net.Theta))
	net.backward(rows, nil, &sb, c, gs, make([]float64, p.Dim*cfg.Width))
	net.backward(dense, nil, &db, c, gd, make([]float64, p.Dim*cfg.Width))
	for i := range sb.out {
		if math.Abs(sb.out[i]-db.out[i]) > 1e-12*(1+math.Abs(db.out[i])) {
			t.Fatalf("output %d: sparse %v, dense %v", i, sb.out[i], db.out[i])
		}
	}
	for i := range gs {
		if math.Abs(gs[i]-gd[i]) > 1e-10*(1+math.Abs(gd[i])) {
			t.Fatalf("gradient %d: sparse %v, dense %v", i, gs[i], gd[i])
		}
	}
}

// TestTargetBackwardByColumn: backward's by-column lists, kept in the
// batch from one call to the next, give the bits of lists built afresh for
// the same batch, and a cleared byCol rebuilds them for another selection.
func TestTargetBackwardByColumn(t *testing.T) {
	p, cfg, net, rows, _ := perturbedTGNet(t, 6)
	grad := func(b *tgBatch, sel []int) []float64 {
		net.forward(rows, sel, b)
		c := make([]float64, b.rows)
		for i := range c {
			c[i] = float64(i%5) - 2
		}
		g := make([]float64, len(net.net.Theta))
		net.backward(rows, sel, b, c, g, make([]float64, p.Dim*cfg.Width))
		return g
	}
	var kept tgBatch
	other := []int{3, 1, 1, 7, 0, 12, 5}
	for step, sel := range [][]int{nil, nil, other, other, nil} {
		if step == 0 || step == 2 || step == 4 {
			kept.byCol = false // a new batch
		}
		got, want := grad(&kept, sel), grad(&tgBatch{}, sel)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("step %d: gradient %d = %v, want %v", step, i, got[i], want[i])
			}
		}
	}
}

// TestTargetNewtonCG: the conjugate-gradient Newton steps in u reach the
// minimiser that a dense Newton solve on the same loss reaches.
func TestTargetNewtonCG(t *testing.T) {
	p, util := targetPool(t, 30, 5, 4, 2)
	opt := DefaultTargetOptions()
	opt.NewtonIters = 30
	m, err := newTGModel(Env{Pool: p, Config: Default(), Seed: 1}, opt)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	d := p.Dim
	for range 200 {
		c := rng.IntN(p.Contexts)
		a := rng.IntN(p.Arms)
		b := (a + 1 + rng.IntN(p.Arms-1)) % p.Arms
		if rng.Float64() > 1/(1+math.Exp(-(util[c*p.Arms+a]-util[c*p.Arms+b]))) {
			a, b = b, a
		}
		m.record(p.Row(c, a), p.Row(c, b), p.Feature(c, a), p.Feature(c, b), false, nil, nil)
	}
	lin := m.members[len(m.members)-1]
	m.newtonU(lin)
	// Gradient of the loss at the result: Σ_s −(1−σ(uᵀz_s)) z_s + λu u.
	g := make([]float64, d)
	for i := range g {
		g[i] = opt.LambdaU * lin.u[i]
	}
	z := make([]float64, d)
	for s := range m.duels {
		m.zd.dense(z, s)
		q := 1 / (1 + math.Exp(-m.zd.dot(s, lin.u)))
		for i := range g {
			g[i] -= (1 - q) * z[i]
		}
	}
	if n := mat.Norm(mat.NewVecDense(d, g), 2); n > 1e-8 {
		t.Errorf("gradient norm at the Newton–CG result %v, want ≈ 0", n)
	}
}

// TestTargetBatchExact: SelectBatch's k duels are distinct, and a batch
// chosen with pending duels equals the sequence of Select and Pend.
func TestTargetBatchExact(t *testing.T) {
	p, _ := targetPool(t, 40, 6, 3, 3)
	env := Env{Pool: p, Config: Default(), Seed: 11}
	mk := func() *NeuralADBTarget {
		l, err := NewNeuralADBTarget(env, DefaultTargetOptions())
		if err != nil {
			t.Fatal(err)
		}
		for i := range 45 { // two retrains
			c := i % p.Contexts
			l.Observe(Query{Context: c, Arm1: i % 6, Arm2: (i + 1) % 6}, Feedback(i%2))
		}
		return l
	}
	a := SelectBatch(mk(), p, Offer{}, 12)
	seen := map[[3]int]bool{}
	for _, q := range a {
		k := [3]int{q.Context, min(q.Arm1, q.Arm2), max(q.Arm1, q.Arm2)}
		if seen[k] {
			t.Fatalf("duel %v twice in a batch", q)
		}
		seen[k] = true
	}
	l := mk()
	var b []Query
	for range 12 {
		q := l.Select(Offer{}.Without(p, b))
		b = append(b, q)
		l.Pend(q)
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("duel %d: SelectBatch %v, Select+Pend %v", i, a[i], b[i])
		}
	}
}

// TestTargetDeferredRetrain: answers replayed in bulk (no Select between
// them) cost one retrain at the next Select, and the learner then proposes
// a valid duel.
func TestTargetDeferredRetrain(t *testing.T) {
	p, _ := targetPool(t, 50, 4, 2, 4)
	opt := DefaultTargetOptions()
	opt.DeferAfter = 100
	l, err := NewNeuralADBTarget(Env{Pool: p, Config: Default(), Seed: 2}, opt)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(6, 6))
	for range 400 {
		q := Offer{}.RandomQuery(p, rng)
		l.Observe(q, Feedback(rng.IntN(2)))
	}
	// 100 answers retrain every 20 (5 retrains), the next 300 wait.
	if got := l.model.version; got != 5 {
		t.Errorf("%d retrains during the bulk replay, want 5", got)
	}
	q := l.Select(Offer{})
	if got := l.model.version; got != 6 {
		t.Errorf("%d retrains after the next Select, want 6", got)
	}
	if err := (Offer{}).Check(p, q); err != nil {
		t.Error(err)
	}
}

// TestTargetReplay: between BeginReplay and EndReplay the learner retrains
// at 20, 40, 80, … answers and once at EndReplay.
func TestTargetReplay(t *testing.T) {
	p, _ := targetPool(t, 50, 4, 2, 5)
	l, err := NewNeuralADBTarget(Env{Pool: p, Config: Default(), Seed: 3}, DefaultTargetOptions())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	BeginReplay(l)
	for range 400 {
		l.Observe(Offer{}.RandomQuery(p, rng), Feedback(rng.IntN(2)))
	}
	if got := l.model.version; got != 5 { // 20, 40, 80, 160, 320
		t.Errorf("%d retrains during the replay, want 5", got)
	}
	EndReplay(l)
	if got := l.model.version; got != 6 {
		t.Errorf("%d retrains after EndReplay, want 6", got)
	}
}

// TestTargetMemoryEstimate: on the Letter-like pool of the scale budget
// (10,000 contexts × 26 arms × 442 features, T = 1000) the estimate stays
// far below what a dense per-row state would need.
func TestTargetMemoryEstimate(t *testing.T) {
	s := Shape{Contexts: 10000, Arms: 26, Dim: 442}
	got := MemoryTotal(EstimateMemory("neural-adb-target", s, Default(), 1000))
	if got > 0.5e9 {
		t.Errorf("estimate %.2f GB for the learner's state, want < 0.5 GB", got/1e9)
	}
	plus := MemoryTotal(EstimateMemory("neural-adb-plus", s, Default(), 1000))
	if got > plus/3 {
		t.Errorf("estimate %.2f GB, not below a third of neural-adb-plus's %.2f GB", got/1e9, plus/1e9)
	}
}

// TestTargetFrozen pins neural-adb-target's configuration as registered for
// its evaluation (verify/prereg/target.json): a change of any default
// option needs a new registration (and a new evaluation).
func TestTargetFrozen(t *testing.T) {
	const frozen = "{Lambdas:[1 10 100 +Inf] LambdaU:1 NewtonIters:3 Steps:25 StepBudget:12500 MaxSteps:200 LearningRate:0.001 PreqHalfLife:200 MaxBatch:1024 Candidates:32 PairsPerContext:2 TargetContexts:256 TargetPairs:1024 DeferAfter:1000 Explore:0.1 Warmup:burn-decay FlatNoise:true OwnContext:false UniformCalibration:false PlusNoise:false}"
	if got := fmt.Sprintf("%+v", DefaultTargetOptions()); got != frozen {
		t.Errorf("DefaultTargetOptions changed since its registration:\n got %s\nwant %s", got, frozen)
	}
}

// TestTargetSigmaOnScoreScale: the σ² the labelling page shows is the
// posterior variance of the raw margin times the square of the factor that
// Scores applies, so that σ and score differences share one scale (after
// answers the factor is not 1, so the raw variance would not be).
func TestTargetSigmaOnScoreScale(t *testing.T) {
	p, util := targetPool(t, 40, 4, 2, 8)
	l, err := NewNeuralADBTarget(Env{Pool: p, Config: Default(), Seed: 4}, DefaultTargetOptions())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(8, 8))
	for range 200 {
		q := Offer{}.RandomQuery(p, rng)
		y := Feedback(0)
		if util[q.Context*p.Arms+q.Arm2] > util[q.Context*p.Arms+q.Arm1] {
			y = 1
		}
		l.Observe(q, y)
	}
	l.ready()
	s := l.model.calibration()
	if s == 1 {
		t.Fatal("calibration factor 1 after 200 answers: the test cannot tell the scales apart")
	}
	d := p.Dim
	for c := range 5 {
		x := l.contextRows(c)
		_, _, psi := l.pairState(x[0:d], x[d:2*d])
		raw := l.post.nu2 * l.post.quad(psi)
		if got, want := l.Sigma2(c, 0, 1), s*s*raw; math.Abs(got-want) > 1e-12*math.Abs(want) {
			t.Errorf("context %d: Sigma2 = %v, want s²·ν̂²ψᵀΣψ = %v (s = %v)", c, got, want, s)
		}
	}
}

// TestTGRows: rows with zeros keep their columns, full rows read as the
// columns 0 … d−1 without storing them, non-finite values are dropped, and
// reset empties the list.
func TestTGRows(t *testing.T) {
	rows := newTGRows(3)
	in := [][]float64{{1, 0, 2}, {1, -2, 3}, {0, 0, 0}, {math.NaN(), 4, 5}, {6, 7, 8}}
	want := []struct {
		idx []int32
		val []float64
	}{{[]int32{0, 2}, []float64{1, 2}}, {[]int32{0, 1, 2}, []float64{1, -2, 3}}, {[]int32{}, []float64{}}, {[]int32{1, 2}, []float64{4, 5}}, {[]int32{0, 1, 2}, []float64{6, 7, 8}}}
	for round := range 2 {
		for i, x := range in {
			if r := rows.add(x); r != i {
				t.Fatalf("round %d: row %d added as %d", round, i, r)
			}
		}
		for i, w := range want {
			idx, val := rows.row(i)
			if !slices.Equal(idx, w.idx) || !slices.Equal(val, w.val) {
				t.Errorf("round %d: row %d = %v %v, want %v %v", round, i, idx, val, w.idx, w.val)
			}
			dst := make([]float64, 3)
			rows.dense(dst, i)
			if got := rows.dot(i, []float64{1, 10, 100}); got != dst[0]+10*dst[1]+100*dst[2] {
				t.Errorf("round %d: row %d: dot %v with dense %v", round, i, got, dst)
			}
		}
		if len(rows.idx) != 4 || !rows.denseEnough() {
			t.Errorf("round %d: %d columns stored, dense enough %v; want 4 (the full rows' none), true", round, len(rows.idx), rows.denseEnough())
		}
		rows.reset()
		if rows.n() != 0 {
			t.Fatalf("reset: %d rows", rows.n())
		}
	}
}

// TestTargetHessDense requires the bits of hess's sparse loop from its
// dense products (hessDense) on duels of every density, with zero weights,
// a column no duel touches, vectors holding +0, −0, subnormal and huge
// values, and the sparse loop itself where v is not finite or an entry of
// y would start at −0.
func TestTargetHessDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	special := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1e300, -1e-300, 1}
	for _, c := range []struct{ d, nnz, n int }{{7, 7, 40}, {20, 20, 300}, {58, 20, 200}, {70, 18, 130}, {9, 3, 65}} {
		m := &tgModel{dim: c.d, zd: newTGRows(c.d), dz: &tgDenseZ{}}
		x := make([]float64, c.d)
		for s := range c.n {
			clear(x)
			for range c.nnz {
				x[rng.IntN(c.d)] = rng.NormFloat64()
			}
			if s%11 == 0 {
				x[rng.IntN(c.d)] = special[rng.IntN(len(special))]
			}
			x[0] = 0 // a column no duel touches: y_0 = λu·v_0 throughout
			m.zd.add(x)
			m.duels = append(m.duels, [2]int32{})
			w := rng.Float64() / 4
			if s%7 == 0 {
				w = 0
			}
			m.nw = append(m.nw, w)
			if s == c.n/2 {
				m.dz.sync(m.zd) // the copy grows as the duels do
			}
		}
		// The dense copy whatever the density (useDenseZ keeps one for a
		// quarter or more non-zeros only).
		m.dz.sync(m.zd)
		for trial := range 40 {
			v := make([]float64, c.d)
			for i := range v {
				v[i] = rng.NormFloat64()
				if rng.IntN(4) == 0 {
					v[i] = special[rng.IntN(len(special))]
				}
			}
			if trial%3 == 0 {
				v[0] = math.Copysign(0, -1) // y_0 = −0, which the dense sums would turn to +0
			}
			if trial == 1 {
				v[0] = math.Inf(1)
			}
			if trial == 2 {
				v[c.d-1] = math.NaN()
			}
			got, want := make([]float64, c.d), make([]float64, c.d)
			m.dzOn = true
			m.hess(got, v, 0.5)
			m.dzOn = false
			m.hess(want, v, 0.5)
			m.dzOn = true
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
					t.Fatalf("d=%d trial %d: y[%d] = %v, want %v", c.d, trial, i, got[i], want[i])
				}
			}
		}
	}
}

// TestTargetKeptColumns: under ObjectivePredict, S keeps the target duels'
// columns only; acquire then gives the bits of S with every column, after
// a fill and after an update of S (Pend), and a fill without the averaged
// scores gives the hp and z of one with them.
func TestTargetKeptColumns(t *testing.T) {
	p, _ := targetPool(t, 40, 6, 3, 12)
	opt := DefaultTargetOptions()
	opt.TargetPairs = 64 // 128 of the 240 target rows at most
	mk := func() *NeuralADBTarget {
		l, err := NewNeuralADBTarget(Env{Pool: p, Config: Default(), Seed: 5}, opt)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 45 { // two retrains
			l.Observe(Query{Context: (7 * i) % p.Contexts, Arm1: i % 6, Arm2: (i + 2) % 6}, Feedback(i%2))
		}
		return l
	}
	kept, all := mk(), mk()
	if kept.tgt.scol == nil || len(kept.tgt.scol) >= kept.tgt.rows() {
		t.Fatalf("S keeps %d of %d columns, want fewer", len(kept.tgt.scol), kept.tgt.rows())
	}
	K := p.Arms
	all.tgt.scol = nil
	for i, tp := range all.tpairs {
		all.tpa[i], all.tpb[i] = tp[0]*int32(K)+tp[1], tp[0]*int32(K)+tp[2]
	}
	kept.post.fill(kept.tgt, kept.model, false)
	all.post.fill(all.tgt, all.model, true)
	for _, f := range [][2][]float64{{kept.tgt.hp, all.tgt.hp}, {kept.tgt.z, all.tgt.z}} {
		if !slices.EqualFunc(f[0], f[1], func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
			t.Fatal("a fill without h̄ changed hp or z")
		}
	}
	for step := range 2 {
		if step == 1 { // S updated by a pending duel
			q := Query{Context: 3, Arm1: 1, Arm2: 4}
			kept.Pend(q)
			all.Pend(q)
		}
		var scores [2][]float64
		for k, l := range []*NeuralADBTarget{kept, all} {
			cands := l.candidates(Offer{})
			duels := l.predictDuels(cands, Offer{}, true)
			scores[k] = slices.Clone(l.acquire(cands, duels))
		}
		if len(scores[0]) == 0 {
			t.Fatal("no candidate duel")
		}
		for j := range scores[0] {
			if math.Float64bits(scores[0][j]) != math.Float64bits(scores[1][j]) {
				t.Fatalf("step %d duel %d: %v with the kept columns, %v with all", step, j, scores[0][j], scores[1][j])
			}
		}
	}
}

// TestTargetSlopesPass: tgSlopes writes scale·beta and reports false
// exactly when plusKG's envelope has no segment (the term is +0), over
// random lines with ties, zeros, NaN and infinite values mixed in.
func TestTargetSlopesPass(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	special := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 1e-300}
	var ws kgScratch
	passes := 0
	for trial := range 20000 {
		K := 2 + rng.IntN(12)
		mu, beta, bs := make([]float64, K), make([]float64, K), make([]float64, K)
		for a := range K {
			mu[a] = float64(rng.IntN(5)) + rng.NormFloat64()*float64(trial%3)
			beta[a] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(5)-4))
			if rng.IntN(20) == 0 {
				beta[a] = special[rng.IntN(len(special))]
			}
			if rng.IntN(40) == 0 {
				mu[a] = special[rng.IntN(len(special))]
			}
		}
		scale := 0.5 + rng.Float64()
		best := plusArgmax(mu)
		pass := tgSlopes(bs, mu, beta, scale, best)
		for a := range K {
			if math.Float64bits(bs[a]) != math.Float64bits(scale*beta[a]) {
				t.Fatalf("trial %d: slope %d is %v, want %v", trial, a, bs[a], scale*beta[a])
			}
		}
		segs := kgSegments(mu, bs, best, &ws)
		ws.db, ws.cs = ws.db[:0], ws.cs[:0]
		if !pass && segs != 0 {
			t.Fatalf("trial %d: no arm passes, but plusKG has %d segments (mu %v, b %v)", trial, segs, mu, bs)
		}
		if pass {
			passes++
		}
	}
	if passes == 0 || passes == 20000 {
		t.Errorf("%d of 20000 trials pass: the test does not cover both cases", passes)
	}
}
