package memlimit

import (
	"os"
	"path/filepath"
	"testing"
)

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
	}{
		{"0", 0}, {"123", 123}, {"8GB", 8e9}, {"8 gb", 8e9}, {"1.5e9", 1.5e9}, {"512MiB", 512 << 20},
		{"2GiB", 2 << 30}, {"3k", 3e3}, {"4 T", 4e12}, {"10B", 10}, {"1KiB", 1024},
	} {
		got, err := ParseSize(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseSize(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "GB", "-1GB", "eight", "NaN", "Inf", "1e400"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) accepted", bad)
		}
	}
}

func TestFormat(t *testing.T) {
	for b, want := range map[float64]string{0: "0 B", 999: "999 B", 1234: "1.23 kB", 8e9: "8 GB", 2.5e13: "25 TB"} {
		if got := Format(b); got != want {
			t.Errorf("Format(%v) = %q, want %q", b, got, want)
		}
	}
}

func TestMemAvailable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "meminfo")
	if err := os.WriteFile(path, []byte("MemTotal:       24684084 kB\nMemFree:  1 kB\nMemAvailable:   22966284 kB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, ok := memAvailable(path); !ok || b != 22966284*1024 {
		t.Errorf("memAvailable = %v, %v", b, ok)
	}
	if err := os.WriteFile(path, []byte("MemTotal: 5 kB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := memAvailable(path); ok {
		t.Error("a file without MemAvailable gave a value")
	}
	if _, ok := memAvailable(filepath.Join(t.TempDir(), "none")); ok {
		t.Error("a missing file gave a value")
	}
}

func TestCurrentEnv(t *testing.T) {
	t.Setenv(Env, "3GB")
	if l, err := Current(); err != nil || l.Bytes != 3e9 || l.Source != Env || !l.Known() {
		t.Errorf("Current() = %+v, %v", l, err)
	}
	for _, off := range []string{"0", "off"} {
		t.Setenv(Env, off)
		if l, err := Current(); err != nil || l.Known() {
			t.Errorf("%s=%s: Current() = %+v, %v; want no limit", Env, off, l, err)
		}
	}
	t.Setenv(Env, "lots")
	if _, err := Current(); err == nil {
		t.Error("a bad value was accepted")
	}
}
