// Package memlimit says how much memory a run may use, so that sizes that
// would exhaust the machine are refused before anything is allocated: the
// environment variable NADB_MAX_MEMORY when set, else the kernel's estimate
// of the memory available without swapping (MemAvailable in /proc/meminfo).
// It also reads and writes the sizes ("8GB", "512MiB", "1.5e9") the variable
// and the flags take.
package memlimit

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// Env is the environment variable that sets the limit.
const Env = "NADB_MAX_MEMORY"

// Limit is the memory a run may use and where the figure comes from.
type Limit struct {
	Bytes  float64 // 0: unknown or not checked
	Source string  // for messages
}

// Known reports whether there is a limit to check against.
func (l Limit) Known() bool { return l.Bytes > 0 }

// Current returns the limit: NADB_MAX_MEMORY if set (0 or "off" turns the
// check off), else MemAvailable of /proc/meminfo, else no limit. A value of
// NADB_MAX_MEMORY that does not parse is an error.
func Current() (Limit, error) {
	if s, ok := os.LookupEnv(Env); ok && strings.TrimSpace(s) != "" {
		if strings.EqualFold(strings.TrimSpace(s), "off") {
			return Limit{}, nil
		}
		b, err := ParseSize(s)
		if err != nil {
			return Limit{}, fmt.Errorf("memlimit: %s: %w", Env, err)
		}
		return Limit{Bytes: b, Source: Env}, nil
	}
	if b, ok := memAvailable("/proc/meminfo"); ok {
		return Limit{Bytes: b, Source: "MemAvailable in /proc/meminfo"}, nil
	}
	return Limit{}, nil
}

// memAvailable reads MemAvailable (kB) from a meminfo file.
func memAvailable(path string) (float64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != "MemAvailable" {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			return 0, false
		}
		kb, err := strconv.ParseFloat(fields[0], 64)
		if err != nil || kb <= 0 {
			return 0, false
		}
		return kb * 1024, true
	}
	return 0, false
}

var units = []struct {
	suffix string
	factor float64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1e3}, {"m", 1e6}, {"g", 1e9}, {"t", 1e12}, {"b", 1},
}

// ParseSize reads a number of bytes with an optional unit: B, kB, MB, GB,
// TB (powers of 1000; K, M, G, T too) or KiB, MiB, GiB, TiB (powers of
// 1024), ignoring case and spaces. 0 means no limit.
func ParseSize(s string) (float64, error) {
	t := strings.ToLower(strings.ReplaceAll(s, " ", ""))
	factor := 1.0
	for _, u := range units {
		if before, ok := strings.CutSuffix(t, u.suffix); ok {
			t, factor = before, u.factor
			break
		}
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
		return 0, fmt.Errorf("%q is not a size: want bytes with an optional unit, such as 8GB, 512MiB or 0 (no limit)", s)
	}
	return x * factor, nil
}

// Format writes a number of bytes with a unit (powers of 1000), three
// significant digits: "1.23 GB".
func Format(b float64) string {
	for _, u := range []struct {
		name string
		f    float64
	}{{"PB", 1e15}, {"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"kB", 1e3}} {
		if b >= u.f {
			return strconv.FormatFloat(b/u.f, 'g', 3, 64) + " " + u.name
		}
	}
	return strconv.FormatFloat(b, 'f', 0, 64) + " B"
}
