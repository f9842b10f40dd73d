package plotfig

import (
	"strings"
	"testing"
)

func TestNiceTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi  float64
		integer bool
		want    string
	}{
		{27, 43, false, "30 35 40"}, // was 27.50 35.00 42.50
		{0, 1000, true, "0 200 400 600 800 1000"},
		{0, 290, true, "0 50 100 150 200 250"}, // a count: was 0.00 250.00
		{0, 3, true, "0 1 2 3"},
		{0, 0.3, false, "0 0.1 0.2 0.3"},
		{-0.3, 0.3, false, "-0.2 0 0.2"},
		{0.52, 0.68, false, "0.55 0.6 0.65"},
		{0.6, 1.8, false, "0.75 1 1.25 1.5 1.75"},
		{1e-4, 5e-4, false, "0.0001 0.0002 0.0003 0.0004 0.0005"},
		{0.2, 0.8, true, "0.2 0.4 0.6 0.8"}, // no integer inside: plain ticks
	} {
		var got []string
		for _, tk := range (niceTicks{Integer: tc.integer}).Ticks(tc.lo, tc.hi) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("[%g, %g] integer=%v: labels %q, want %q", tc.lo, tc.hi, tc.integer, strings.Join(got, " "), tc.want)
		}
	}
}

func TestLogTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   string
	}{
		{8, 16000, "10 100 1000 10000"},
		{0.03, 2, "0.1 1"},
		{0.3, 0.9, "0.5"},
		{0.15, 0.9, "0.2 0.5"},
		{0.004, 0.8, "0.01 0.1"},
		{10, 1e6, "10 100 1000 10000 100000 1e6"},
	} {
		var got []string
		for _, tk := range (logTicks{}).Ticks(tc.lo, tc.hi) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("[%g, %g]: labels %q, want %q", tc.lo, tc.hi, strings.Join(got, " "), tc.want)
		}
	}
}
