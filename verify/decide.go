package verify

import (
	"math"
	"slices"
)

// The decision rules of the claims. Each fails closed: a NaN among the
// statistics it reads gives Undecided, never a verdict, because a comparison
// with NaN is false whichever way it is written (adj ≥ α and adj < α are both
// false for adj = NaN), so a rule that starts from one verdict and changes it
// on a comparison would otherwise keep its starting verdict on NaN data.

// anyNaN reports whether some value is NaN.
func anyNaN(xs ...float64) bool { return slices.ContainsFunc(xs, math.IsNaN) }

// allSignificant decides "every test of the family is significant" from
// Holm-adjusted p-values: Holds if all are below alpha, DoesNotHold if one is
// not, Undecided if any is NaN or the family is empty.
func allSignificant(adj []float64) Verdict {
	if len(adj) == 0 || anyNaN(adj...) {
		return Undecided
	}
	for _, p := range adj {
		if !(p < alpha) {
			return DoesNotHold
		}
	}
	return Holds
}

// noneSignificant decides "no test of the family is significant" (a claim
// refuted by any significant counter-test): Holds if every adjusted p-value
// is at least alpha, DoesNotHold if one is below, Undecided if any is NaN or
// the family is empty.
func noneSignificant(adj []float64) Verdict {
	if len(adj) == 0 || anyNaN(adj...) {
		return Undecided
	}
	for _, p := range adj {
		if p < alpha {
			return DoesNotHold
		}
	}
	return Holds
}

// below decides "the interval m ± h lies below bound": Undecided if m or h is
// NaN (or h is negative, which no interval has).
func below(m, h, bound float64) Verdict {
	switch {
	case anyNaN(m, h) || h < 0:
		return Undecided
	case m+h < bound:
		return Holds
	}
	return DoesNotHold
}

// significant decides a single test: Holds if p < alpha, DoesNotHold if
// p ≥ alpha, Undecided if p is NaN.
func significant(p float64) Verdict {
	switch {
	case math.IsNaN(p):
		return Undecided
	case p < alpha:
		return Holds
	}
	return DoesNotHold
}
