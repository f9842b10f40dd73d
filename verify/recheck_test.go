package verify

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/neural-adb/nadb/internal/stats"
)

// Recomputing claims from the per-seed values alone: the seeds CSV that
// "nadb verify -out" writes beside the claims table, read without any of
// the claims' code, and internal/stats. A reader can do the same with any
// statistics package.

// seedRun identifies the values of one run setting and metric at one
// checkpoint in a claims seeds CSV.
type seedRun struct {
	algo, collect, problem string
	candidates             string
	metric                 string
	t                      string
}

// readClaimSeeds returns the values of claim id in a claims seeds CSV:
// per run setting, metric and checkpoint, the values by seed.
func readClaimSeeds(r io.Reader, id string) (map[seedRun]map[uint64]float64, error) {
	recs, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, errors.New("empty seeds CSV")
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	out := map[seedRun]map[uint64]float64{}
	for _, rec := range recs[1:] {
		if rec[col["claim"]] != id {
			continue
		}
		k := seedRun{rec[col["algorithm"]], rec[col["collect"]], rec[col["problem"]], rec[col["candidates"]], rec[col["metric"]], rec[col["t"]]}
		seed, err := strconv.ParseUint(rec[col["seed"]], 10, 64)
		if err != nil {
			return nil, err
		}
		v, err := strconv.ParseFloat(rec[col["value"]], 64)
		if err != nil {
			return nil, err
		}
		if out[k] == nil {
			out[k] = map[uint64]float64{}
		}
		out[k][seed] = v
	}
	return out, nil
}

// bySeed returns the values in seed order.
func bySeed(m map[uint64]float64) []float64 {
	var seeds []uint64
	for s := range m {
		seeds = append(seeds, s)
	}
	slices.Sort(seeds)
	var out []float64
	for _, s := range seeds {
		out = append(out, m[s])
	}
	return out
}

// recheckAllLower decides a claim "for every pair, the first is lower than
// the second" from its seeds: one-sided paired t-tests, Holm-corrected,
// holds if all are significant at 5%. pair maps a setting to the one it is
// compared with (ok = false: the setting is not a first of a pair).
func recheckAllLower(vals map[seedRun]map[uint64]float64, pair func(seedRun) (seedRun, bool)) (Verdict, int) {
	var keys []seedRun
	for k := range vals {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b seedRun) int {
		return slices.Compare([]string{a.algo, a.collect, a.problem, a.candidates, a.metric, a.t}, []string{b.algo, b.collect, b.problem, b.candidates, b.metric, b.t})
	})
	var p []float64
	for _, k := range keys {
		other, ok := pair(k)
		if !ok {
			continue
		}
		a, b := bySeed(vals[k]), bySeed(vals[other])
		if len(a) != len(b) || len(a) == 0 {
			return Undecided, 0
		}
		p = append(p, stats.PairedTLess(a, b).P)
	}
	adj := stats.Holm(p)
	return allSignificant(adj), len(p)
}

// recheck9f recomputes claim 9f: neural-adb-plus against its passive twin
// on each problem's primary metric at T.
func recheck9f(vals map[seedRun]map[uint64]float64) (Verdict, int) {
	return recheckAllLower(vals, func(k seedRun) (seedRun, bool) {
		if k.algo != plusAlgo || k.collect != "own" {
			return seedRun{}, false
		}
		k.collect = "passive"
		return k, true
	})
}

// TestRecheckFromSeeds: claims 9a and 9f recomputed from the seeds CSV of a
// reduced-scale evaluation alone agree with the claims' own verdicts.
func TestRecheckFromSeeds(t *testing.T) {
	rows, err := Evaluate(t.Context(), Reduced, Options{Cache: sharedCache(t), Only: []string{"9a", "9f"}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteSeedsCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		vals, err := readClaimSeeds(bytes.NewReader(buf.Bytes()), r.ID)
		if err != nil {
			t.Fatal(err)
		}
		got, n := recheckClaim(r.ID, vals)
		if got != r.Verdict || n == 0 {
			t.Errorf("claim %s recomputed from its seeds: %s from %d tests; the claim computed %s (%s)", r.ID, got, n, r.Verdict, r.Result)
		}
	}
}

// recheckClaim dispatches to the recomputation of claim id.
func recheckClaim(id string, vals map[seedRun]map[uint64]float64) (Verdict, int) {
	if id == "9f" {
		return recheck9f(vals)
	}
	return recheck9aPairs(vals)
}

// recheck9aPairs recomputes claim 9a: for every rival setting, plus on the
// same problem, metric and checkpoint must be lower.
func recheck9aPairs(vals map[seedRun]map[uint64]float64) (Verdict, int) {
	flipped := map[seedRun]map[uint64]float64{}
	// recheckAllLower compares a first setting with its partner; list the
	// plus settings once per rival by keying them with the rival's name.
	for k, v := range vals {
		if k.algo == plusAlgo {
			continue
		}
		first := k
		first.algo = plusAlgo + " vs " + k.algo
		plus := k
		plus.algo = plusAlgo
		flipped[first] = vals[plus]
		flipped[k] = v
	}
	return recheckAllLower(flipped, func(k seedRun) (seedRun, bool) {
		rival, ok := strings.CutPrefix(k.algo, plusAlgo+" vs ")
		if !ok {
			return seedRun{}, false
		}
		k.algo = rival
		return k, true
	})
}

// TestRecheckCommittedClaims recomputes claims 9a and 9f from committed
// per-seed values alone (a claims table's FILE-seeds.csv beside FILE.csv:
// figures/claims, where the choice evaluation's claims were merged, and the
// confirmation figures/plus/confirm-31-60) and compares them with the
// verdicts committed beside them. It skips until such files are committed.
func TestRecheckCommittedClaims(t *testing.T) {
	checked := 0
	for _, stem := range []string{"claims", "plus/confirm-31-60"} {
		base := filepath.Join("..", "figures", filepath.FromSlash(stem))
		seeds, err := os.ReadFile(base + "-seeds.csv")
		if os.IsNotExist(err) {
			t.Logf("figures/%s-seeds.csv not committed yet", stem)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(base + ".csv")
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		verdict := map[string]string{}
		for _, rec := range recs[1:] {
			verdict[rec[0]] = rec[3]
		}
		for _, id := range []string{"9a", "9f"} {
			vals, err := readClaimSeeds(bytes.NewReader(seeds), id)
			if err != nil {
				t.Fatal(err)
			}
			if len(vals) == 0 || verdict[id] == "" {
				continue
			}
			got, n := recheckClaim(id, vals)
			if string(got) != verdict[id] {
				t.Errorf("claim %s recomputed from figures/%s-seeds.csv (%d tests): %s; figures/%s.csv says %s", id, stem, n, got, stem, verdict[id])
			}
			checked++
		}
	}
	if checked == 0 {
		t.Skip("no claim to recheck in the committed files")
	}
}
