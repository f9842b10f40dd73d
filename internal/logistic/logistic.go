// Package logistic holds the logistic link μ of the Bradley–Terry model and
// the log-likelihood terms built on it, evaluated without overflow or
// cancellation, so that every package computes them identically (with
// xmath.Exp: the same bits on every processor).
package logistic

import (
	"math"

	"github.com/neural-adb/nadb/internal/xmath"
)

// Sigmoid returns μ(x) = 1/(1 + e^{−x}).
func Sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + xmath.Exp(-x))
	}
	e := xmath.Exp(x)
	return e / (1 + e)
}

// Softplus returns log(1 + e^x) = −log μ(−x), the negative log-likelihood of a
// duel lost by a margin x.
func Softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(xmath.Exp(-x))
	}
	return math.Log1p(xmath.Exp(x))
}

// LogSigmoid returns log μ(x) = −Softplus(−x).
func LogSigmoid(x float64) float64 { return -Softplus(-x) }
