package stats

import (
	"math"
	"testing"
)

func TestMeanCI(t *testing.T) {
	// x = 1..10: mean 5.5, sd = sqrt(55/6) = 3.02765, t_{0.975,9} = 2.262157.
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	m, h := MeanCI(x, 0.95)
	want := 2.2621571627409915 * math.Sqrt(55.0/6) / math.Sqrt(10)
	if m != 5.5 || math.Abs(h-want) > 1e-9 {
		t.Fatalf("MeanCI = %v ± %v, want 5.5 ± %v", m, h, want)
	}
	if _, h := MeanCI([]float64{3}, 0.95); !math.IsNaN(h) {
		t.Fatal("one value: want NaN half-width")
	}
}

func TestPairedTLess(t *testing.T) {
	a := []float64{1, 2, 3, 4}
	b := []float64{2, 3.5, 3.5, 5.5}
	// d = -1, -1.5, -0.5, -1.5: mean -1.125, sd 0.4787136, t = -4.70
	r := PairedTLess(a, b)
	if math.Abs(r.MeanDiff+1.125) > 1e-12 || math.Abs(r.T+4.7002) > 1e-3 {
		t.Fatalf("%+v", r)
	}
	if r.P > 0.01 || r.P < 0.005 {
		t.Fatalf("p = %v, want ≈ 0.0091", r.P)
	}
	if r := PairedTLess(b, a); r.P < 0.99 {
		t.Fatalf("reverse direction p = %v, want ≈ 0.99", r.P)
	}
}

func TestHolm(t *testing.T) {
	got := Holm([]float64{0.01, 0.04, 0.03, 0.005})
	want := []float64{0.03, 0.06, 0.06, 0.02}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("Holm = %v, want %v", got, want)
		}
	}
}

// TestHolmNaN: a test that could not be computed stays undecided (NaN) and
// does not poison the others, which keep the adjustment for the whole family.
func TestHolmNaN(t *testing.T) {
	for _, tc := range []struct {
		p, want []float64
	}{
		{[]float64{math.NaN(), 0.01}, []float64{math.NaN(), 0.02}},
		{[]float64{0.01, math.NaN(), 0.04, 0.03}, []float64{0.04, math.NaN(), 0.09, 0.09}},
		{[]float64{math.NaN(), math.NaN()}, []float64{math.NaN(), math.NaN()}},
	} {
		got := Holm(tc.p)
		for i := range got {
			if math.IsNaN(tc.want[i]) != math.IsNaN(got[i]) || (!math.IsNaN(got[i]) && math.Abs(got[i]-tc.want[i]) > 1e-12) {
				t.Errorf("Holm(%v) = %v, want %v", tc.p, got, tc.want)
				break
			}
		}
	}
}

func TestSlope(t *testing.T) {
	x := []float64{0, 1, 2, 3, 4}
	y := []float64{1, 2.9, 5.1, 7, 9}
	b, h := Slope(x, y, 0.95)
	if math.Abs(b-2) > 0.05 || !(h > 0 && h < 0.3) {
		t.Fatalf("slope %v ± %v", b, h)
	}
}

func TestSlopeTest(t *testing.T) {
	x := []float64{1, 1, 2, 2, 3, 3}
	y := []float64{1, 1.2, 2, 2.1, 2.9, 3.2}
	b, h, p := SlopeTest(x, y, 0.95)
	if math.Abs(b-0.975) > 1e-9 || h <= 0 || p > 1e-3 {
		t.Fatalf("b=%v half=%v p=%v", b, h, p)
	}
	_, _, p = SlopeTest(x, []float64{3, 3.1, 2, 2.2, 1, 0.9}, 0.95)
	if p < 0.999 {
		t.Fatalf("decreasing data: p(b>0) = %v", p)
	}
}

func TestOneWayANOVA(t *testing.T) {
	// Hand computation: group means 2, 5, 8; grand 5; SSB = 3·(9+0+9) = 54;
	// SSW = 3 × 2 = 6; F = (54/2)/(6/6) = 27.
	r := OneWayANOVA([][]float64{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})
	if math.Abs(r.F-27) > 1e-12 || r.DFb != 2 || r.DFw != 6 || r.P > 0.002 || math.Abs(r.EtaSquared-0.9) > 1e-12 {
		t.Fatalf("%+v", r)
	}
	if r := OneWayANOVA([][]float64{{1, 2, 3}, {1, 2, 3}}); r.F != 0 || r.P < 0.99 {
		t.Fatalf("equal groups: %+v", r)
	}
}

func TestPairedMDE(t *testing.T) {
	// n = 10, sd = 1, α = 0.05, power 0.8: (1.833 + 0.883)/√10 ≈ 0.859.
	if m := PairedMDE(10, 1, 0.05, 0.8); math.Abs(m-0.859) > 0.002 {
		t.Fatalf("MDE = %v", m)
	}
}
