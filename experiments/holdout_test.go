package experiments_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	. "github.com/neural-adb/nadb/experiments"
)

// TestSplit: the split is a function of the seed, its two sides are
// disjoint, sorted and of the requested sizes, and seeds give different
// splits.
func TestSplit(t *testing.T) {
	const n = 50
	splits := map[string]bool{}
	for seed := range uint64(10) {
		train, test := Split(n, 12, 30, seed)
		again, againTest := Split(n, 12, 30, seed)
		if !slices.Equal(train, again) || !slices.Equal(test, againTest) {
			t.Fatalf("seed %d: two calls gave different splits", seed)
		}
		if len(train) != 30 || len(test) != 12 || !slices.IsSorted(train) || !slices.IsSorted(test) {
			t.Fatalf("seed %d: %d training %v, %d held out %v; want 30 and 12, sorted", seed, len(train), train, len(test), test)
		}
		seen := map[int]bool{}
		for _, c := range append(slices.Clone(train), test...) {
			if c < 0 || c >= n || seen[c] {
				t.Fatalf("seed %d: context %d out of range or on both sides", seed, c)
			}
			seen[c] = true
		}
		splits[fmt.Sprint(test)] = true
	}
	if len(splits) < 2 {
		t.Errorf("10 seeds gave %d distinct held-out sets", len(splits))
	}
}

// TestSplitSizes: fractions, counts and defaults, and the errors naming the
// field to fix.
func TestSplitSizes(t *testing.T) {
	for _, tc := range []struct {
		holdout          float64
		def, train, n    int
		wantHold, wantTr int
		field, msg       string
	}{
		{holdout: 0, def: 0, n: 10, wantHold: 0, wantTr: 10},
		{holdout: 0, def: 101, n: 303, wantHold: 101, wantTr: 202},
		{holdout: 0.2, n: 303, wantHold: 61, wantTr: 242}, // 60.6 rounds to 61
		{holdout: 0.5, n: 3, wantHold: 2, wantTr: 1},      // 1.5 rounds half away from zero
		{holdout: 1, n: 3, wantHold: 1, wantTr: 2},        // 1 is a count
		{holdout: 5, train: 20, n: 100, wantHold: 5, wantTr: 20},
		{holdout: 400, n: 303, field: "holdout", msg: "400 held-out students, but there are only 303"},
		{holdout: 3, n: 3, field: "holdout", msg: "3 held-out students of 3 leave no training student"},
		{holdout: 0.9, n: 3, field: "holdout", msg: "3 held-out students of 3 leave no training student"},
		{holdout: 0.1, n: 3, field: "holdout", msg: "0.1 of 3 students rounds to no held-out student"},
		{holdout: -1, n: 3, field: "holdout", msg: "-1 is negative: want a fraction in (0, 1) or a count ≥ 1 (0: the problem's default)"},
		{holdout: math.NaN(), n: 3, field: "holdout", msg: "NaN is not a number of contexts: want a fraction in (0, 1) or a count ≥ 1 (0: the problem's default)"},
		{holdout: 1.5, n: 3, field: "holdout", msg: "1.5 is neither a fraction in (0, 1) nor a whole count"},
		{holdout: 2, train: 2, n: 3, field: "contexts", msg: "2 training students and 2 held-out (holdout) exceed the 3 there are"},
		{holdout: 1, train: -1, n: 3, field: "contexts", msg: "-1 training students: want ≥ 0 (0: all that are not held out)"},
	} {
		hold, train, err := SplitSizes(tc.holdout, tc.def, tc.train, tc.n, "student")
		if tc.field == "" {
			if err != nil || hold != tc.wantHold || train != tc.wantTr {
				t.Errorf("%+v: %d held out, %d training, %v; want %d, %d", tc, hold, train, err, tc.wantHold, tc.wantTr)
			}
			continue
		}
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || fe.Msg != tc.msg || err.Error() != "experiments: "+tc.field+": "+tc.msg {
			t.Errorf("holdout %v of %d: error %v, want field %s: %s", tc.holdout, tc.n, err, tc.field, tc.msg)
		}
	}
}

// TestTiedGaps: the gap of the arm the scores pick, averaged over exact ties;
// a NaN score counts as the context's worst arm.
func TestTiedGaps(t *testing.T) {
	h := []float64{1, 1, 0, 5, 2, 2, math.NaN(), 0, 0}
	f := []float64{3, 1, 0, 0, 1, 2, 3, 1, 0}
	if got, want := TiedGaps(nil, h, f, 3), []float64{(0 + 2) / 2.0, 2, 3}; !slices.Equal(got, want) {
		t.Errorf("TiedGaps = %v, want %v", got, want)
	}
}
