package report

import (
	"math"
	"strconv"
	"strings"

	"github.com/neural-adb/nadb/internal/xmath"
)

// Numbers are written as LaTeX math (without the dollars): the value
// macros of macros.tex wrap them in \ensuremath.

// Num writes x with three significant digits, in positional notation from
// 10⁻³ to 10⁵ (trailing zeros kept: 0.500, 2.00) and as m × 10^k outside;
// integers of up to six digits are written whole. NaN is "n/a".
func Num(x float64) string { return sig(x, 3) }

// sig writes x with n significant digits (see Num).
func sig(x float64, n int) string {
	switch {
	case math.IsNaN(x):
		return `\text{n/a}`
	case math.IsInf(x, 1):
		return `\infty`
	case math.IsInf(x, -1):
		return `-\infty`
	case x == 0:
		return "0"
	case x == math.Trunc(x) && math.Abs(x) < 1e6:
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	e := int(math.Floor(math.Log10(math.Abs(x))))
	if e < -3 || e >= 5 {
		m := strconv.FormatFloat(x, 'e', n-1, 64)
		mant, exp, _ := strings.Cut(m, "e")
		k, _ := strconv.Atoi(exp)
		return mant + `\times 10^{` + strconv.Itoa(k) + `}`
	}
	return strconv.FormatFloat(x, 'f', max(0, n-1-e), 64)
}

// PM writes a mean and the half-width of its interval as "m \pm h": h with
// two significant digits and m rounded to the same decimal place (never
// beyond the units), the convention of metrology. Without a finite h it is
// Num(m).
func PM(m, h float64) string {
	if math.IsNaN(h) || math.IsInf(h, 0) || h < 0 || math.IsNaN(m) {
		return Num(m)
	}
	if h == 0 {
		return Num(m) + ` \pm 0`
	}
	e := int(math.Floor(math.Log10(h)))
	dec := max(0, 1-e)
	if e < -5 || math.Abs(m) >= 1e5 {
		return Num(m) + ` \pm ` + sig(h, 2)
	}
	if e > 1 { // h ≥ 100: round both to h's second digit
		unit := xmath.Pow(10, float64(e-1))
		m, h = math.Round(m/unit)*unit, math.Round(h/unit)*unit
	}
	return strconv.FormatFloat(m, 'f', dec, 64) + ` \pm ` + strconv.FormatFloat(h, 'f', dec, 64)
}

// P writes a p-value with two significant digits; below 10⁻⁴ as
// "< 10^{-4}" (the resolution of a 10-seed test is no finer), NaN as n/a.
func P(p float64) string {
	switch {
	case math.IsNaN(p):
		return `\text{n/a}`
	case p < 1e-4:
		return `< 10^{-4}`
	}
	return sig(p, 2)
}

// PRel writes a p-value with its relation for prose: "= 0.031" or
// "< 10^{-4}".
func PRel(p float64) string {
	s := P(p)
	if strings.HasPrefix(s, "<") {
		return s
	}
	return "= " + s
}

// Percent writes a share in [0, 1] as a whole percentage ("92\%").
func Percent(x float64) string {
	if math.IsNaN(x) {
		return `\text{n/a}`
	}
	return strconv.FormatFloat(100*x, 'f', 0, 64) + `\%`
}
