package theory

import (
	"bytes"
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/experiments"
)

// smallResults builds a Results with every section at a tiny size.
func smallResults(t *testing.T) *Results {
	t.Helper()
	ctx := context.Background()
	r := &Results{Quick: true}
	var err error
	r.Synthetic, err = CheckTheorem1(ctx, Theorem1Options{
		Generators: []Generator{IIDIsotropic{D: 2, L: 1}, AdvSubspace{D: 2, K: 0, L: 1}},
		T:          []int{16, 64, 256, 1024}, Seeds: 5, Lambda: 1, Delta: 0.05, Level: 0.95, SlopePoints: 3,
	})
	if err != nil {
		t.Fatal(err)
	}
	ce, err := SmallestCounterexample(Literal, 2, 60, 1, 1, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	r.Counterexamples = []Counterexample{ce}
	po := DefaultPaperScaleOptions(true)
	po.Problem = experiments.ProblemSpec{Name: "square", Dim: 4, Arms: 4, Contexts: 12, Theta: "sphere"}
	po.Config.Width = 8
	po.T, po.Seeds, po.SlopePoints = []int{5, 10, 20}, 2, 3
	if r.Paper, err = PaperScale(ctx, po); err != nil {
		t.Fatal(err)
	}
	if r.Kappa, err = KappaTable([]string{"sine"}, po.Problem, 2, 0, 1, 0.05); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestWriteDeterministic writes the same results twice and compares every
// file byte for byte; it also checks that undefined bounds are written as
// "undefined" and never as NaN.
func TestWriteDeterministic(t *testing.T) {
	r := smallResults(t)
	a, b := t.TempDir(), t.TempDir()
	pa, err := r.Write(a)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := r.Write(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(pa) != len(pb) || len(pa) != 7+3*3 {
		t.Fatalf("wrote %d and %d files, want 16", len(pa), len(pb))
	}
	for i := range pa {
		x, err := os.ReadFile(pa[i])
		if err != nil {
			t.Fatal(err)
		}
		y, _ := os.ReadFile(pb[i])
		if filepath.Base(pa[i]) != filepath.Base(pb[i]) || !bytes.Equal(x, y) || len(x) == 0 {
			t.Errorf("%s: %d bytes vs %s: %d bytes, equal %v", pa[i], len(x), pb[i], len(y), bytes.Equal(x, y))
		}
		if strings.HasSuffix(pa[i], ".csv") || strings.HasSuffix(pa[i], ".md") {
			if strings.Contains(string(x), "NaN") {
				t.Errorf("%s contains NaN", pa[i])
			}
		}
	}
	csv, _ := os.ReadFile(filepath.Join(a, "theorem1.csv"))
	if !strings.Contains(string(csv), "undefined") {
		t.Error("theorem1.csv shows no undefined bound although the early checkpoints have one")
	}
	md, _ := os.ReadFile(filepath.Join(a, "summary.md"))
	if !strings.Contains(string(md), "**fails**") || !strings.Contains(string(md), "d = 1, T = 28") {
		t.Error("summary.md lacks the failing verdict or the counterexample")
	}
}

// TestRedrawMatchesWrite: the figures Redraw draws from the written tables
// are the bytes Write drew from the results, so a figure redrawn from the
// cache or the committed tables is the figure a fresh run draws.
func TestRedrawMatchesWrite(t *testing.T) {
	r := smallResults(t)
	a, b := t.TempDir(), t.TempDir()
	paths, err := r.Write(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"theorem1.csv", "effective_dimension.csv", "summary.md"} {
		data, err := os.ReadFile(filepath.Join(a, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(b, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	drawn, err := Redraw(b)
	if err != nil {
		t.Fatal(err)
	}
	figures := 0
	for _, p := range paths {
		switch filepath.Ext(p) {
		case ".png", ".svg", ".pdf":
			figures++
			want, _ := os.ReadFile(p)
			got, err := os.ReadFile(filepath.Join(b, filepath.Base(p)))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s: redrawn figure differs from the written one (%v)", filepath.Base(p), err)
			}
		}
	}
	if figures == 0 || len(drawn) != figures {
		t.Errorf("Write drew %d figure files, Redraw %d", figures, len(drawn))
	}
	if err := os.WriteFile(filepath.Join(b, "theorem1.csv"), []byte("generator,dim\nx,notanumber\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Redraw(b); err == nil || !strings.Contains(err.Error(), "theorem1.csv") {
		t.Errorf("malformed theorem1.csv: error %v, want one naming the file", err)
	}
}

// TestGeneratorTitles: every generator of the checks has a name for readers
// of the figures, distinct from the others and from its table name.
func TestGeneratorTitles(t *testing.T) {
	names := []string{"neural-adb-ucb", "neural-adb-ucb-randctx"}
	for _, g := range SyntheticGenerators(4, 1) {
		names = append(names, g.Name())
	}
	seen := map[string]string{}
	for _, n := range names {
		title := GeneratorTitle(n)
		if title == n || title == "" {
			t.Errorf("%s: no title for readers (%q)", n, title)
		}
		if o, ok := seen[title]; ok {
			t.Errorf("%s and %s share the title %q", n, o, title)
		}
		seen[title] = n
	}
	if GeneratorTitle("unknown-x") != "unknown-x" {
		t.Error("an unknown name is not returned unchanged")
	}
}

// TestSeedsRecomputeTheorem1 recomputes theorem1.csv's mean norm and
// violation counts of every generator, checkpoint and claim from
// theorem1_seeds.csv alone, as a reader of the committed files would.
func TestSeedsRecomputeTheorem1(t *testing.T) {
	r := smallResults(t)
	dir := t.TempDir()
	if _, err := r.Write(dir); err != nil {
		t.Fatal(err)
	}
	read := func(name string) []map[string]string {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		recs, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var rows []map[string]string
		for _, rec := range recs[1:] {
			m := map[string]string{}
			for i, h := range recs[0] {
				m[h] = rec[i]
			}
			rows = append(rows, m)
		}
		return rows
	}
	type key struct{ gen, T string }
	sum, n := map[key]float64{}, map[key]int{}
	viol := map[key]map[string]int{}
	for _, row := range read("theorem1_seeds.csv") {
		k := key{row["generator"], row["T"]}
		v, err := strconv.ParseFloat(row["max_norm"], 64)
		if err != nil {
			t.Fatal(err)
		}
		sum[k] += v
		n[k]++
		if viol[k] == nil {
			viol[k] = map[string]int{}
		}
		for _, c := range Claims {
			if row[c.String()+"_violated"] == "1" {
				viol[k][c.String()]++
			}
		}
	}
	points := read("theorem1.csv")
	if len(points) == 0 || len(points) != len(n) {
		t.Fatalf("theorem1.csv has %d points, the seeds file %d", len(points), len(n))
	}
	for _, p := range points {
		k := key{p["generator"], p["T"]}
		mean, _ := strconv.ParseFloat(p["max_norm_mean"], 64)
		if got := sum[k] / float64(n[k]); math.Abs(got-mean) > 1e-12*math.Abs(mean) || strconv.Itoa(n[k]) != p["seeds"] {
			t.Errorf("%v: mean %v over %d sequences from the seeds file, theorem1.csv %v over %s", k, got, n[k], mean, p["seeds"])
		}
		for _, c := range Claims {
			if got := strconv.Itoa(viol[k][c.String()]); got != p[c.String()+"_violations"] {
				t.Errorf("%v, %s: %s violations in the seeds file, %s in theorem1.csv", k, c, got, p[c.String()+"_violations"])
			}
		}
	}
}
