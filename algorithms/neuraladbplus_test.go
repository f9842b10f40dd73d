package algorithms

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/internal/gram"
	"github.com/neural-adb/nadb/internal/mlp"
)

// TestFeatureNormUnit: with feature-norm=unit every φ has norm 1, so at V0 the
// diagonal of every block is 1/reg; the on-demand kernel agrees with the
// rescaled dense one entry by entry.
func TestFeatureNormUnit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const contexts, arms, dim = 6, 4, 3
	x := make([]float64, contexts*arms*dim)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	pool, err := NewPool(contexts, arms, dim, x)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Default()
	cfg.Width, cfg.FeatureNorm, cfg.Kappa = 8, "unit", 0.5
	m, err := NewNeuralModel(Env{Pool: pool, Config: cfg, Seed: 3}, true)
	if err != nil {
		t.Fatal(err)
	}
	cfg.FeatureNorm = "none"
	raw, err := NewNeuralModel(Env{Pool: pool, Config: cfg, Seed: 3}, true)
	if err != nil {
		t.Fatal(err)
	}
	reg := cfg.Lambda / cfg.Kappa
	nonzero := 0
	for c := range contexts {
		blk, rawBlk := m.Conf.Block(c), raw.Conf.Block(c)
		for a := range arms {
			want := 1 / reg
			if rawBlk[a*arms+a] == 0 { // every ReLU dead: φ = 0 stays 0
				want = 0
			} else {
				nonzero++
			}
			if got := blk[a*arms+a]; math.Abs(got-want) > 1e-12 {
				t.Errorf("context %d arm %d: ‖φ‖²_{V0⁻¹} = %v, want %v", c, a, got, want)
			}
		}
	}
	if nonzero < contexts*arms/2 {
		t.Fatalf("only %d of %d features are nonzero: the check says little", nonzero, contexts*arms)
	}
	net := mlp.NewNet(mlp.Arch{In: dim, Width: 8, Depth: 2})
	if err := net.Initialize(mlp.InitHe, 1, rand.New(rand.NewPCG(4, 5))); err != nil {
		t.Fatal(err)
	}
	feat := net.NewFeatures(x, 1.0/8)
	dense := &gram.Dense{N: pool.Rows(), Data: feat.GramTo(nil)}
	unitDiagonal(dense)
	lazy := unitFeatures{feat}
	for j := range pool.Rows() {
		col := lazy.ColumnTo(nil, j)
		for i := range col {
			want := dense.Entry(i, j)
			if math.Abs(col[i]-want) > 1e-12*math.Max(1, math.Abs(want)) || math.Abs(lazy.Entry(i, j)-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Fatalf("entry (%d,%d): column %v, entry %v, dense %v", i, j, col[i], lazy.Entry(i, j), want)
			}
		}
	}
}
