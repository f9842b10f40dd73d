package plotfig

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"

	"github.com/neural-adb/nadb/internal/xmath"
)

// niceTicks places 3 to 7 labelled ticks at multiples of 1, 2 or 5 × 10^k
// (about 5 where the range allows, fewer on a tie), with unlabelled minor
// ticks halving the steps of 1 and 2 and at the units of a step of 5, and labels them with as few decimals as the step needs and no
// trailing zeros. Integer restricts steps to whole numbers (counts, T).
type niceTicks struct {
	Integer bool
	// step and minors, when step > 0, fix the labelled step and the minor
	// intervals per step (a range rounded out to that step, roundOut).
	step   float64
	minors int
}

// niceStep returns the labelled step for [lo, hi] and the number of
// minor intervals per step.
func niceStep(lo, hi float64, integer bool) (step float64, minors int) {
	span := hi - lo
	if !(span > 0) || math.IsInf(span, 0) {
		return 0, 0
	}
	best, bestScore := 0.0, math.Inf(1)
	bestMinors := 0
	e := math.Floor(math.Log10(span / 5))
	for k := e - 1; k <= e+1; k++ {
		for _, q := range []struct {
			m      float64
			minors int
		}{{1, 2}, {2, 2}, {2.5, 5}, {5, 5}} {
			s := q.m * xmath.Pow(10, k)
			if integer && (s < 1 || s != math.Round(s)) {
				continue
			}
			n := math.Floor(hi/s+1e-9) - math.Ceil(lo/s-1e-9) + 1
			score := math.Abs(n - 5)
			if n < 3 {
				score += 10 * (3 - n)
			}
			if n > 7 {
				score += 10 * (n - 7)
			}
			if n < 5 {
				score -= 0.5 // on a tie, fewer labels
			}
			if q.m == 2.5 {
				score++ // quarter steps only when clearly better
			}
			if score < bestScore {
				best, bestScore, bestMinors = s, score, q.minors
			}
		}
	}
	if integer && best > 0 && best/float64(bestMinors) != math.Round(best/float64(bestMinors)) {
		bestMinors = 1
	}
	return best, bestMinors
}

// Ticks implements plot.Ticker. An integer axis whose range holds no
// integer gets the ticks of a plain one.
func (t niceTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := t.ticks(lo, hi)
	if t.Integer && len(ticks) == 0 {
		return niceTicks{}.ticks(lo, hi)
	}
	return ticks
}

func (t niceTicks) ticks(lo, hi float64) []plot.Tick {
	step, minors := t.step, t.minors
	if !(step > 0) {
		step, minors = niceStep(lo, hi, t.Integer)
	}
	if step == 0 {
		if math.IsNaN(lo) || math.IsInf(lo, 0) {
			return nil
		}
		return []plot.Tick{{Value: lo, Label: formatTick(lo, 1)}}
	}
	var ticks []plot.Tick
	first := math.Ceil(lo/step - 1e-9)
	last := math.Floor(hi/step + 1e-9)
	for k := first; k <= last; k++ {
		v := k * step
		ticks = append(ticks, plot.Tick{Value: v, Label: formatTick(v, step)})
	}
	if minors > 1 {
		ms := step / float64(minors)
		for k := math.Ceil(lo / ms); k <= math.Floor(hi/ms); k++ {
			if math.Mod(k, float64(minors)) != 0 {
				ticks = append(ticks, plot.Tick{Value: k * ms})
			}
		}
	}
	return ticks
}

// formatTick writes v with the decimals that step needs, without trailing
// zeros and without a negative zero.
func formatTick(v, step float64) string {
	dec := 0 // the decimals that make step an integer: 0.25 needs 2
	for dec < 12 && step > 0 {
		x := step * xmath.Pow(10, float64(dec))
		if math.Abs(x-math.Round(x)) < 1e-6*x {
			break
		}
		dec++
	}
	s := strconv.FormatFloat(v, 'f', dec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// logTicks labels the powers of ten of a log axis (and 2 and 5 times them
// when fewer than two powers fall in the range), with unlabelled minor
// ticks at the other integer multiples.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > lo) || math.IsInf(hi, 0) {
		return nil
	}
	e0, e1 := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	powers := 0
	for e := e0; e <= e1; e++ {
		if v := xmath.Pow(10, float64(e)); v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
			powers++
		}
	}
	var ticks []plot.Tick
	for e := e0; e <= e1; e++ {
		p := xmath.Pow(10, float64(e))
		for m := 1; m <= 9; m++ {
			v := float64(m) * p
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || (powers < 2 && (m == 2 || m == 5)) {
				t.Label = formatLog(v)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// formatLog writes a positive tick of a log axis: plain digits from 0.001
// to 100000, otherwise 1e-4, 2e6.
func formatLog(v float64) string {
	if v >= 1e-3 && v <= 1e5 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	s := strconv.FormatFloat(v, 'e', -1, 64)
	return strings.Replace(strings.Replace(s, "e+0", "e", 1), "e-0", "e-", 1)
}
