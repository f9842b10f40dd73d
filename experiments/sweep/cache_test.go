package sweep

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/experiments"
)

// TestCacheRefusesBadEntries: an entry whose metric was edited (valid JSON,
// valid CSV), whose CSV was truncated, that is filed under another key, or
// whose checksum was removed along with an edit, is reported by path, moved
// aside and recomputed by the next sweep; a legacy entry without a checksum
// is still read; a damaged references file is recomputed.
func TestCacheRefusesBadEntries(t *testing.T) {
	spec := tinyFigure().Jobs()[0].Spec
	res, err := experiments.Run(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	other := tinyFigure().Jobs()[1].Spec
	for _, tc := range []struct {
		name string
		edit func(string) string
		bad  bool
	}{
		{"edited metric", func(s string) string {
			i := strings.Index(s, `\n20,`) // the first checkpoint after t = 0
			return s[:i+4] + "9" + s[i+5:]
		}, true},
		{"truncated CSV", func(s string) string {
			i := strings.Index(s, `\n40,`)
			j := strings.Index(s, `",`+"\n"+` "sha256"`)
			return s[:i+8] + s[j:]
		}, true},
		{"another key", func(s string) string { return strings.Replace(s, spec.Key(), other.Key(), 1) }, true},
		{"not JSON", func(s string) string { return s[:len(s)/2] }, true},
		{"legacy entry", func(s string) string {
			before, _, _ := strings.Cut(s, `,`+"\n"+` "sha256"`)
			return before + "\n}\n"
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var warned []string
			c := &Cache{Dir: t.TempDir(), Warn: func(m string) { warned = append(warned, m) }}
			if err := c.Store(res, 1); err != nil {
				t.Fatal(err)
			}
			path := c.path(spec.Key())
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			edited := tc.edit(string(b))
			if edited == string(b) {
				t.Fatal("the edit changed nothing")
			}
			if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, ok, err := c.Load(spec)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.bad {
				if !ok || len(warned) > 0 {
					t.Fatalf("legacy entry: ok=%v, warnings %q", ok, warned)
				}
				return
			}
			if ok || len(warned) != 1 || !strings.Contains(warned[0], path) {
				t.Fatalf("ok=%v, warnings %q; want the entry missing and reported by path", ok, warned)
			}
			if _, err := os.Stat(path + ".bad"); err != nil {
				t.Errorf("the bad entry was not kept aside: %v", err)
			}
			if err := (&Sweep{Cache: c, Workers: 1}).Execute(context.Background(), []Job{{Spec: spec}}); err != nil {
				t.Fatal(err)
			}
			if _, _, ok, err := c.Load(spec); !ok || err != nil || len(warned) != 1 {
				t.Fatalf("after the sweep: ok=%v err=%v warnings %q", ok, err, warned)
			}
		})
	}

	// References: an edited file is reported and recomputed.
	figs, err := Figures(Quick, []string{"real-cems"})
	if err != nil {
		t.Fatal(err)
	}
	var warned []string
	c := &Cache{Dir: t.TempDir(), Warn: func(m string) { warned = append(warned, m) }}
	md, err := cachedReferences(figs[0], c)
	if err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join(c.Dir, "refs", "*", "*.md"))
	if len(paths) != 1 {
		t.Fatalf("references files %v, want one", paths)
	}
	b, _ := os.ReadFile(paths[0])
	if err := os.WriteFile(paths[0], []byte(strings.Replace(string(b), "0.500", "0.900", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := cachedReferences(figs[0], c)
	if err != nil || again != md || len(warned) != 1 || !strings.Contains(warned[0], paths[0]) {
		t.Errorf("edited references: err %v, same text %v, warnings %q", err, again == md, warned)
	}
}

// TestPayloadSumWithoutFlops pins the checksum of an entry without an
// operation count to the value the cache computed before counts existed, so
// that entries written then still verify.
func TestPayloadSumWithoutFlops(t *testing.T) {
	cpu := 2.5
	f := cached{Key: "k", WallSeconds: 1, CPUSeconds: &cpu, Counts: []int{1, 2}, CSV: "t\n1\n"}
	if got, want := f.payloadSum(), "ee7ecae8c7ee190004757f58c29346c42207cb16c6d6e09ef007231e95e19884"; got != want {
		t.Errorf("payloadSum = %s, want %s (the sum before operation counts were recorded)", got, want)
	}
	n := int64(7)
	f.Flops = &n
	if f.payloadSum() == "ee7ecae8c7ee190004757f58c29346c42207cb16c6d6e09ef007231e95e19884" {
		t.Error("the count is not covered by the checksum")
	}
}
