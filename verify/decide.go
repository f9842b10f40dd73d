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

// allSignificantOrReversed decides "every test of the family is
// significant" with a verdict for each outcome: Holds if every Holm-adjusted
// p-value adj is below alpha; else DoesNotHold if the data contradict some
// part of the claim, that is the reverse one-sided test of some comparison is
// significant, its p-value Holm-adjusted over the same family (rev, in the
// order of adj); else NotResolved (not every test rejects, and no reverse
// test does).
// Undecided if any p-value of either direction is NaN, the family is empty,
// or the two differ in length.
func allSignificantOrReversed(adj, rev []float64) Verdict {
	if len(adj) == 0 || len(rev) != len(adj) || anyNaN(adj...) || anyNaN(rev...) {
		return Undecided
	}
	if allSignificant(adj) == Holds {
		return Holds
	}
	for _, p := range rev {
		if p < alpha {
			return DoesNotHold
		}
	}
	return NotResolved
}

// below decides "the interval m ± h lies below bound": Holds if it does,
// DoesNotHold if it lies entirely at or above bound (m − h ≥ bound), else
// NotResolved (the interval contains bound); Undecided if m or h is NaN (or
// h is negative, which no interval has).
func below(m, h, bound float64) Verdict {
	switch {
	case anyNaN(m, h) || h < 0:
		return Undecided
	case m+h < bound:
		return Holds
	case m-h >= bound:
		return DoesNotHold
	}
	return NotResolved
}

// differs decides "the groups differ" from a test of equality (a one-way
// ANOVA's p): Holds if p < alpha, else NotResolved, since a test that does
// not reject cannot show the groups equal; Undecided if p is NaN.
func differs(p float64) Verdict {
	switch {
	case math.IsNaN(p):
		return Undecided
	case p < alpha:
		return Holds
	}
	return NotResolved
}

// allParts combines the verdicts of the parts of a claim that holds only if
// every part does: Undecided if a part is (or there are none), else
// DoesNotHold if a part does not hold, else NotResolved if a part is not
// resolved, else Holds.
func allParts(vs ...Verdict) Verdict {
	if len(vs) == 0 || slices.Contains(vs, Undecided) {
		return Undecided
	}
	for _, v := range []Verdict{DoesNotHold, NotResolved} {
		if slices.Contains(vs, v) {
			return v
		}
	}
	for _, v := range vs {
		if v != Holds {
			return Undecided // a verdict no rule gives
		}
	}
	return Holds
}
