package logistic

import (
	"math"
	"testing"
)

func TestLogistic(t *testing.T) {
	for _, x := range []float64{-800, -40, -3, -1e-9, 0, 1e-9, 2.5, 40, 800} {
		s := Sigmoid(x)
		want := 1 / (1 + math.Exp(-x))
		if math.Abs(s-want) > 1e-15 || s < 0 || s > 1 {
			t.Errorf("Sigmoid(%g) = %g, want %g", x, s, want)
		}
		if sp := Softplus(x); math.IsInf(sp, 0) || math.IsNaN(sp) || (x < 30 && x > -30 && math.Abs(sp-math.Log(1+math.Exp(x))) > 1e-12) {
			t.Errorf("Softplus(%g) = %g", x, sp)
		}
		if ls := LogSigmoid(x); math.Abs(ls+Softplus(-x)) != 0 {
			t.Errorf("LogSigmoid(%g) = %g", x, ls)
		}
	}
	if Sigmoid(0) != 0.5 || Softplus(0) != math.Log(2) {
		t.Error("values at 0")
	}
}
